import { describe, expect, it } from 'vitest';
import type { Language } from '../../../src/engine/languages.js';
import { javascriptRules } from '../../../src/engine/rules/packs/javascript.js';
import type { Rule } from '../../../src/engine/rules/rule-schema.js';
import { runRules } from '../../../src/engine/rules/run-rules.js';

/** Every line of the snippet counts as added. */
function allLines(source: string): Set<number> {
  return new Set(source.split('\n').map((_, i) => i + 1));
}

/**
 * JSX only parses as JavaScript or TSX; plain TypeScript reads `<div` as a type assertion. An
 * example starting with `// typescript` uses TypeScript-only syntax (typed parameters the rule reads).
 */
function languagesFor(example: string): Language[] {
  if (example.startsWith('// typescript\n')) return ['typescript', 'tsx'];
  return /<\/|\/>/.test(example) ? ['javascript', 'tsx'] : ['javascript', 'typescript', 'tsx'];
}

function matchesOf(rule: Rule, source: string, language: Language) {
  return runRules({
    path: 'example',
    language,
    source,
    addedLines: allLines(source),
    rules: [rule],
    checkSecurity: true,
    checkPerformance: true,
  });
}

describe('JavaScript pack examples', () => {
  for (const rule of javascriptRules) {
    describe(rule.id, () => {
      it('has at least two invalid and two valid examples', () => {
        expect(rule.examples.invalid.length).toBeGreaterThanOrEqual(2);
        expect(rule.examples.valid.length).toBeGreaterThanOrEqual(2);
      });
      for (const example of rule.examples.invalid) {
        for (const language of languagesFor(example)) {
          it(`flags (${language}): ${example.split('\n').join(' ⏎ ')}`, () => {
            const matches = matchesOf(rule, example, language);
            expect(matches.map((m) => m.ruleId)).toEqual([rule.id]);
          });
        }
      }
      for (const example of rule.examples.valid) {
        for (const language of languagesFor(example)) {
          it(`leaves alone (${language}): ${example.split('\n').join(' ⏎ ')}`, () => {
            expect(matchesOf(rule, example, language)).toEqual([]);
          });
        }
      }
    });
  }
});
