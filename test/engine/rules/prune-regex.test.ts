import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';
import { RULES } from '../../../src/engine/rules/packs/index.js';
import { pruneRegex } from '../../../src/engine/rules/prune-regex.js';
import { AnchorText } from '../../../src/engine/rules/rule-anchors.js';
import { regexDifference, regexMatches } from './regex-difference.js';
import { examplesOf } from './rule-tests.js';

const prune = (regex: string, source: string) => {
  const text = new AnchorText(source);
  return pruneRegex(regex, (t, ci) => text.contains(t, ci));
};

describe('pruneRegex', () => {
  it('drops the alternatives whose literal text is not in the source', () => {
    expect(prune('^(readFile|writeFile|rm)$', 'fs.writeFile(p)')).toBe('^(writeFile)$');
    expect(prune('^(readFile|writeFile)$', 'fs.open(p)')).toBeNull();
    expect(prune('^(fs|fsp)\\.(readFile|rm)$', 'fsp.rm(x)')).toBe('^(fs|fsp)\\.(rm)$');
    // Escaped punctuation is literal text; classes, anchors and letter escapes are not.
    expect(prune('^process\\.env\\.\\w+$', 'process.env.X')).toBe('^process\\.env\\.\\w+$');
    expect(prune('^process\\.env\\.\\w+$', 'process.envX')).toBeNull();
    expect(prune('[a-z]+\\d', 'anything')).toBe('[a-z]+\\d');
    expect(prune('', 'anything')).toBe('');
  });

  it('compares a (?i) regex with the lower-cased source', () => {
    expect(prune('(?i)(token|secret|api_?key)$', 'const SECRET = 1')).toBe('(?i)(secret)$');
    expect(prune('(?i)(token|secret)$', 'const password = 1')).toBeNull();
    // Rust folds ſ to s: the lower-cased text does too.
    expect(prune('(?i)secret', 'ſecret')).toBe('(?i)secret');
  });

  it('keeps what is optional: an optional group with no alternative left only matches nothing', () => {
    expect(prune('^(new\\s+)?Array\\(', 'Array(3)')).toBe('^Array\\(');
    expect(prune('^(new\\s+)?Array\\(', 'new  Array(3)')).toBe('^(new\\s+)?Array\\(');
    expect(prune('ab?c', 'ac')).toBe('ab?c');
    expect(prune('(ab)*c|x{0,2}y', 'y')).toBe('x{0,2}y');
    expect(prune('(?:foo|bar)+baz', 'barbaz')).toBe('(?:bar)+baz');
    expect(prune('(?P<name>foo|bar)', 'bar')).toBe('(?P<name>bar)');
  });

  it('gives up (undefined) on syntax outside its subset', () => {
    for (const regex of ['(?s)a.b', '^(http|(?i)client)$', '\\p{L}+', '\\x41', '[abc', 'a)', '*a', '(?i)é']) {
      expect(prune(regex, 'anything at all')).toBeUndefined();
    }
  });

  it('gives every regex of the packs the same matches on every node of the rule examples', () => {
    let pruned = 0;
    for (const language of ['javascript', 'python', 'go', 'java', 'ruby'] as const) {
      const regexes = new Set<string>();
      const visit = (value: unknown): void => {
        if (Array.isArray(value)) value.forEach(visit);
        else if (typeof value === 'object' && value !== null) {
          for (const [key, v] of Object.entries(value)) {
            if (key === 'regex' && typeof v === 'string') regexes.add(v);
            else visit(v);
          }
        }
      };
      for (const rule of RULES.filter((r) => r.languages.includes(language))) {
        visit(rule.rule);
        visit(rule.constraints);
      }
      const examples = RULES.filter((r) => r.languages.includes(language)).flatMap((r) => [
        ...examplesOf(r).invalid,
        ...examplesOf(r).valid,
      ]);
      // A few examples to a file, so that most words of an alternation are missing from each.
      for (let i = 0; i < examples.length; i += 20) {
        const source = examples.slice(i, i + 20).join('\n\n');
        const root = parseSource(language, source).root();
        for (const regex of regexes) {
          const result = prune(regex, source);
          if (result === undefined || result === regex) continue;
          pruned += 1;
          if (result === null) expect({ regex, matches: regexMatches(root, regex) }).toEqual({ regex, matches: [] });
          else expect({ regex, differing: regexDifference(root, result, regex) }).toEqual({ regex, differing: [] });
        }
      }
    }
    expect(pruned).toBeGreaterThan(300);
  });
});
