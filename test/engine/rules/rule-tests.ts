import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The pack folders: src/engine/rules/packs/<language>/rule-tests/<rule-name>-test.yml. */
export const PACKS_DIR = fileURLToPath(new URL('../../../src/engine/rules/packs/', import.meta.url));

/** One rule-test file (ast-grep's layout): source that the rule must leave alone and source it must flag. */
export interface RuleTest {
  /** The pack folder the file is in: `go`, `javascript`, ... */
  pack: string;
  /** The file's name, `<rule-name>-test.yml`. */
  file: string;
  id: string;
  valid: string[];
  invalid: string[];
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function readRuleTest(pack: string, file: string): RuleTest {
  const path = join(PACKS_DIR, pack, 'rule-tests', file);
  const data: unknown = parse(readFileSync(path, 'utf8'));
  const { id, valid, invalid } = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (typeof id !== 'string' || !isStringList(valid) || !isStringList(invalid)) {
    throw new Error(`${path}: needs id (a string), valid and invalid (lists of source strings)`);
  }
  return { pack, file, id, valid, invalid };
}

let cache: RuleTest[] | undefined;

/** Every rule-test file of every pack folder, read once per test file. */
export function readRuleTests(): RuleTest[] {
  cache ??= readdirSync(PACKS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(join(PACKS_DIR, entry.name, 'rule-tests'))
        .sort()
        .map((file) => readRuleTest(entry.name, file)),
    );
  return cache;
}

/** The examples of one rule; a rule without a rule-test file fails the test that asks. */
export function examplesOf(rule: { id: string }): { valid: string[]; invalid: string[] } {
  const found = readRuleTests().find((test) => test.id === rule.id);
  if (found === undefined) throw new Error(`${rule.id} has no rule-test file`);
  return found;
}
