import { describe, expect, it } from 'vitest';
import { matchRule, parseSource } from '../../../src/engine/rules/ast-grep.js';
import { goRules } from '../../../src/engine/rules/packs/go.js';
import { javaRules } from '../../../src/engine/rules/packs/java.js';
import { pythonRules } from '../../../src/engine/rules/packs/python.js';
import { rubyRules } from '../../../src/engine/rules/packs/ruby.js';
import { type Rule, ruleSchema } from '../../../src/engine/rules/rule-schema.js';

const packs: Array<{ language: 'python' | 'go' | 'java' | 'ruby'; prefix: string; rules: Rule[] }> = [
  { language: 'python', prefix: 'py', rules: pythonRules },
  { language: 'go', prefix: 'go', rules: goRules },
  { language: 'java', prefix: 'java', rules: javaRules },
  { language: 'ruby', prefix: 'rb', rules: rubyRules },
];

/** The matches of a rule in one example, as the engine would find them. */
function matches(language: string, rule: Rule, source: string): string[] {
  const root = parseSource(language as never, source).root();
  return matchRule(root, rule).map((node) => node.text());
}

describe.each(packs)('$language rule pack', ({ language, prefix, rules }) => {
  it('has rules with unique ids under its prefix', () => {
    expect(rules.length).toBeGreaterThanOrEqual(8);
    const ids = rules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id.startsWith(`${prefix}.`)).toBe(true);
  });

  describe.each(rules.map((rule) => ({ id: rule.id, rule })))('$id', ({ rule }) => {
    it('is a valid rule for this language', () => {
      const parsed = ruleSchema.safeParse(rule);
      expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
      expect(rule.languages).toEqual([language]);
      if (rule.type === 'security') expect(rule.cwe).toMatch(/^CWE-\d+$/);
      expect(rule.examples.invalid.length).toBeGreaterThanOrEqual(2);
      expect(rule.examples.valid.length).toBeGreaterThanOrEqual(2);
    });

    it.each(rule.examples.invalid)('matches invalid example %#', (source) => {
      expect(matches(language, rule, source).length, source).toBeGreaterThanOrEqual(1);
    });

    it.each(rule.examples.valid)('does not match valid example %#', (source) => {
      expect(matches(language, rule, source), source).toEqual([]);
    });
  });
});
