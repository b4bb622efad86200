import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../src/engine/languages.js';
import { matchRule, parseSource } from '../../../src/engine/rules/ast-grep.js';
import { goRules, javaRules, javascriptRules, pythonRules, rubyRules } from '../../../src/engine/rules/packs/index.js';
import { type Rule, ruleProblems } from '../../../src/engine/rules/rule-schema.js';
import { runRules } from '../../../src/engine/rules/run-rules.js';
import { PACKS_DIR, readRuleTests } from './rule-tests.js';

/**
 * Every rule against the examples in its pack's rule-tests/ folder: each invalid example is flagged
 * by the rule, each valid one is left alone. JavaScript examples go through runRules, as a review
 * does, in every language they parse as, and must give exactly one finding; the other packs' are
 * matched with the rule alone, at least once.
 */

interface Pack {
  /** The pack's folder under src/engine/rules/packs. */
  pack: string;
  prefix: string;
  languages: Rule['languages'];
  rules: Rule[];
}

const PACKS: Pack[] = [
  { pack: 'javascript', prefix: 'js', languages: ['javascript', 'typescript'], rules: javascriptRules },
  { pack: 'python', prefix: 'py', languages: ['python'], rules: pythonRules },
  { pack: 'go', prefix: 'go', languages: ['go'], rules: goRules },
  { pack: 'java', prefix: 'java', languages: ['java'], rules: javaRules },
  { pack: 'ruby', prefix: 'rb', languages: ['ruby'], rules: rubyRules },
];

const ruleTests = readRuleTests();

/** Every line of the snippet counts as added. */
function allLines(source: string): Set<number> {
  return new Set(source.split('\n').map((_, i) => i + 1));
}

/**
 * JSX only parses as JavaScript or TSX; plain TypeScript reads `<div` as a type assertion. An
 * example starting with `// typescript` uses TypeScript-only syntax (typed parameters the rule reads).
 */
function javascriptLanguagesFor(example: string): Language[] {
  if (example.startsWith('// typescript\n')) return ['typescript', 'tsx'];
  return /<\/|\/>/.test(example) ? ['javascript', 'tsx'] : ['javascript', 'typescript', 'tsx'];
}

/** The rule ids of the findings of a review of the example, every line added. */
function findingsOf(rule: Rule, source: string, language: Language): string[] {
  return runRules({
    path: 'example',
    language,
    source,
    addedLines: allLines(source),
    rules: [rule],
    checkSecurity: true,
    checkPerformance: true,
  }).map((match) => match.ruleId);
}

/** The matches of the rule alone in the example. */
function matchesOf(language: Language, rule: Rule, source: string): string[] {
  return matchRule(parseSource(language, source).root(), rule).map((node) => node.text());
}

/** One line of an example, for a test's name. */
const oneLine = (example: string): string => example.split('\n').join(' ⏎ ');

it('knows every pack folder', () => {
  const folders = readdirSync(PACKS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  expect(folders.sort()).toEqual(PACKS.map((p) => p.pack).sort());
});

for (const { pack, prefix, languages, rules } of PACKS) {
  describe(`${pack} pack`, () => {
    const tests = ruleTests.filter((test) => test.pack === pack);

    it('has rules with unique ids under its prefix', () => {
      expect(rules.length).toBeGreaterThanOrEqual(8);
      const ids = rules.map((rule) => rule.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id.startsWith(`${prefix}.`)).toBe(true);
    });

    it('has one rule-test file per rule, named after it, and none for another pack or an unknown rule', () => {
      expect(tests.map((test) => test.id).sort()).toEqual(rules.map((rule) => rule.id).sort());
      for (const test of tests) expect(test.file).toBe(`${test.id.slice(prefix.length + 1)}-test.yml`);
    });

    for (const rule of rules) {
      describe(rule.id, () => {
        const examples = tests.find((test) => test.id === rule.id) ?? { valid: [], invalid: [] };

        it('is a valid rule for this pack, with at least two invalid and two valid examples', () => {
          expect(ruleProblems(rule)).toEqual([]);
          expect(rule.languages).toEqual(languages);
          if (rule.type === 'security') expect(rule.cwe).toMatch(/^CWE-\d+$/);
          expect(examples.invalid.length).toBeGreaterThanOrEqual(2);
          expect(examples.valid.length).toBeGreaterThanOrEqual(2);
        });

        if (pack === 'javascript') {
          for (const example of examples.invalid) {
            for (const language of javascriptLanguagesFor(example)) {
              it(`flags (${language}): ${oneLine(example)}`, () => {
                expect(findingsOf(rule, example, language)).toEqual([rule.id]);
              });
            }
          }
          for (const example of examples.valid) {
            for (const language of javascriptLanguagesFor(example)) {
              it(`leaves alone (${language}): ${oneLine(example)}`, () => {
                expect(findingsOf(rule, example, language)).toEqual([]);
              });
            }
          }
          return;
        }
        const language = languages[0] as Language;
        it.each(examples.invalid)('matches invalid example %#', (source) => {
          expect(matchesOf(language, rule, source).length, source).toBeGreaterThanOrEqual(1);
        });
        it.each(examples.valid)('does not match valid example %#', (source) => {
          expect(matchesOf(language, rule, source), source).toEqual([]);
        });
      });
    }
  });
}
