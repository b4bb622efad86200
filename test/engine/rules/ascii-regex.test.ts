import { describe, expect, it } from 'vitest';
import type { Language } from '../../../src/engine/languages.js';
import { asciiRegex } from '../../../src/engine/rules/ascii-regex.js';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';
import { RULES } from '../../../src/engine/rules/packs/index.js';
import { regexDifference, regexMatches } from './regex-difference.js';
import { examplesOf } from './rule-tests.js';

function packRegexes(): Set<string> {
  const out = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'regex' && typeof v === 'string') out.add(v);
        else visit(v);
      }
    }
  };
  for (const rule of RULES) {
    visit(rule.rule);
    visit(rule.constraints);
  }
  return out;
}

// The last test runs every regex of the packs over every example: heavy on a loaded machine.
describe('asciiRegex', () => {
  it('writes the Unicode classes, `.` and negated classes for ASCII', () => {
    expect(asciiRegex('^\\w+\\.\\d\\s$')).toBe('^[0-9A-Za-z_]+\\.[0-9][\\t\\n\\x0B\\x0C\\r\\x20]$');
    expect(asciiRegex('[\\w$.]+')).toBe('[0-9A-Za-z_$.]+');
    expect(asciiRegex('a.b')).toBe('a[\\x00-\\x09\\x0B-\\x7F]b');
    expect(asciiRegex('[^"\\s]')).toBe('[\\x00-\\x7F&&[^"\\t\\n\\x0B\\x0C\\r\\x20]]');
    expect(asciiRegex('\\W\\S\\D')).toBe(
      '[\\x00-\\x2F\\x3A-\\x40\\x5B-\\x5E\\x60\\x7B-\\x7F][\\x00-\\x08\\x0E-\\x1F\\x21-\\x7F][\\x00-\\x2F\\x3A-\\x7F]',
    );
    // Escaped characters, a `]` first in a class and nested classes are copied as they are.
    expect(asciiRegex('\\.\\(\\\\w[]a][[:alpha:]]')).toBe('\\.\\(\\\\w[]a][[:alpha:]]');
    expect(asciiRegex('(?i)^(?:foo|bar)\\w$')).toBe('(?i)^(?:foo|bar)[0-9A-Za-z_]$');
  });

  it('leaves alone a regex with another flag than i, or a broken one', () => {
    for (const regex of ['(?s)a.b', '(?x)\\w +', '(?m)^\\w$', '(?i-u)\\w', 'a\\', '[abc']) {
      expect(asciiRegex(regex)).toBe(regex);
    }
  });

  it('matches every ASCII character as the Unicode form does, class by class', () => {
    // One block comment per character: `/*c*/`, and a regex that reads the character in the middle.
    const chars = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).filter((c) => c !== '\u0000');
    const root = parseSource('javascript', chars.map((c) => `/*${c}*/`).join('\n')).root();
    // Each character is read: 63 word characters, 10 digits, 6 spaces, all but the newline for `.`.
    expect(regexMatches(root, '^/\\*\\w\\*/$')).toHaveLength(63);
    expect(regexMatches(root, '^/\\*\\s\\*/$')).toHaveLength(6);
    expect(regexMatches(root, '^/\\*.\\*/$')).toHaveLength(126);
    const classes = ['\\w', '\\d', '\\s', '\\W', '\\D', '\\S', '.', '[\\w]', '[\\s\\S]', '[^\\w]', '[^a\\d]', '[\\W_]'];
    for (const cls of classes) {
      for (const flags of ['', '(?i)']) {
        const regex = `${flags}^/\\*${cls}\\*/$`;
        expect({ regex, matches: regexMatches(root, asciiRegex(regex)) }).toEqual({
          regex,
          matches: regexMatches(root, regex),
        });
      }
    }
  });

  it('gives every regex of the packs the same matches on ASCII sources (all rule examples)', () => {
    const sources: [Language, string][] = [];
    for (const language of ['javascript', 'python', 'go', 'java', 'ruby'] as const) {
      const examples = RULES.filter((r) => r.languages.includes(language)).flatMap((r) => [
        ...examplesOf(r).invalid,
        ...examplesOf(r).valid,
      ]);
      sources.push([language, examples.filter((e) => !/[^\x20-\x7e\n\t]/.test(e)).join('\n\n')]);
    }
    const roots = sources.map(([language, source]) => parseSource(language, source).root());
    let rewritten = 0;
    for (const regex of packRegexes()) {
      const ascii = asciiRegex(regex);
      if (ascii === regex) continue;
      rewritten += 1;
      for (const root of roots) {
        expect({ regex, differing: regexDifference(root, ascii, regex) }).toEqual({ regex, differing: [] });
      }
    }
    expect(rewritten).toBeGreaterThan(50);
  });
});
