import { describe, expect, it } from 'vitest';
import type { Language } from '../../../src/engine/languages.js';
import { ruleLanguagesFor } from '../../../src/engine/languages.js';
import { matchRule, parseSource } from '../../../src/engine/rules/ast-grep.js';
import { RULES } from '../../../src/engine/rules/packs/index.js';
import {
  type AnchorGroups,
  AnchorText,
  patternRequirement,
  regexRequirement,
  ruleAnchors,
} from '../../../src/engine/rules/rule-anchors.js';
import type { Rule } from '../../../src/engine/rules/rule-schema.js';
import { runRules } from '../../../src/engine/rules/run-rules.js';
import { examplesOf } from './rule-tests.js';

const texts = (groups: AnchorGroups) => groups.map((g) => g.map((a) => (a.ci ? `i:${a.text}` : a.text)));

describe('regexRequirement', () => {
  it('reads alternations, groups, escapes and anchors', () => {
    expect(texts(regexRequirement('^(eval|exec)$'))).toEqual([['eval', 'exec']]);
    expect(texts(regexRequirement('^os\\.path\\.join$'))).toEqual([['os.path.join']]);
    expect(texts(regexRequirement('^(os\\.(system|popen)|commands\\.getoutput)$'))).toEqual([
      ['system', 'popen', 'commands.getoutput'],
    ]);
    expect(texts(regexRequirement('^\\$queryRaw$'))).toEqual([['$queryRaw']]);
  });

  it('drops what is optional and what is not a literal', () => {
    expect(texts(regexRequirement('^c?[Pp]ickle$'))).toEqual([['ickle']]);
    expect(texts(regexRequirement('^(yaml\\.)?load$'))).toEqual([['load']]);
    expect(texts(regexRequirement('fooo*bar'))).toEqual([['foo'], ['bar']]);
    expect(texts(regexRequirement('ab+cd'))).toEqual([]);
    expect(texts(regexRequirement('abc+de'))).toEqual([['abc']]);
    expect(texts(regexRequirement('^\\w+Sync\\b'))).toEqual([['Sync']]);
    expect(texts(regexRequirement('(abc){0,2}xyz'))).toEqual([['xyz']]);
  });

  it('lower-cases a (?i) regex and refuses syntax it does not know', () => {
    expect(texts(regexRequirement('(?i)\\b(Token|secret)'))).toEqual([['i:token', 'i:secret']]);
    expect(regexRequirement('abc(?i)def')).toEqual([]);
    expect(regexRequirement('(?P<name>abc)')).toEqual([]);
    expect(regexRequirement('\\p{L}abc')).toEqual([]);
    expect(regexRequirement('(?i)caf\u00e9')).toEqual([]);
    // One unconstrained branch frees the whole alternation.
    expect(regexRequirement('^(eval|.*)$')).toEqual([]);
  });
});

describe('patternRequirement', () => {
  it('keeps identifiers and keywords, not metavariables', () => {
    expect(texts(patternRequirement('yaml.load($DOC, $$$REST)'))).toEqual([['yaml'], ['load']]);
    expect(texts(patternRequirement('$A == $A'))).toEqual([]);
    expect(texts(patternRequirement('await $$$ARGS'))).toEqual([['await']]);
  });
});

describe('ruleAnchors', () => {
  it('combines all, any and relational rules; ignores not and kind', () => {
    const anchors = ruleAnchors({
      kind: 'call_expression',
      all: [{ has: { field: 'function', regex: '^(eval|exec)$' } }],
      any: [{ pattern: 'foo($A)' }, { regex: 'barbaz' }],
      not: { regex: 'never' },
      inside: { kind: 'function_declaration', stopBy: 'end' },
    });
    expect(texts(anchors)).toEqual([
      ['eval', 'exec'],
      ['foo', 'barbaz'],
    ]);
    expect(ruleAnchors({ any: [{ pattern: 'foo($A)' }, { kind: 'identifier' }] })).toEqual([]);
  });

  it('checks the lower-cased text for (?i) anchors', () => {
    const text = new AnchorText('const TOKEN = Math.random();');
    expect(text.satisfies([[{ text: 'token', ci: true }]])).toBe(true);
    expect(text.satisfies([[{ text: 'token', ci: false }]])).toBe(false);
    expect(text.satisfies([[{ text: 'Math', ci: false }], [{ text: 'nope', ci: false }]])).toBe(false);
    expect(text.satisfies([])).toBe(true);
  });
});

const LANGUAGE_OF: Record<Rule['languages'][number], Language> = {
  javascript: 'javascript',
  typescript: 'typescript',
  python: 'python',
  go: 'go',
  java: 'java',
  ruby: 'ruby',
};

/** Every example of every rule, by language: the prefilter is checked against all of them. */
function examplesByLanguage(): Map<Language, string[]> {
  const out = new Map<Language, string[]>();
  for (const rule of RULES) {
    for (const language of rule.languages) {
      const list = out.get(LANGUAGE_OF[language]) ?? [];
      list.push(...examplesOf(rule).invalid, ...examplesOf(rule).valid);
      out.set(LANGUAGE_OF[language], list);
    }
  }
  return out;
}

describe('AnchorText.contains', () => {
  it('answers as includes does, case-sensitive or on the lower-cased text', () => {
    const text = new AnchorText('const apiKey = process.env.API_KEY; // ſecret, Kelvin \u212a');
    const words = ['apiKey', 'api_key', 'process.env', 'const', 'zzz', 'ap', 'q', 'API_KEY', 'secret', 'kelvin k'];
    for (const word of words) {
      expect(text.contains(word, false)).toBe(text.source.includes(word));
      expect(text.contains(word.toLowerCase(), true)).toBe(text.lower.includes(word.toLowerCase()));
    }
    expect(text.contains('api_key', true)).toBe(true);
    expect(text.contains('secret', true)).toBe(true);
    expect(text.contains('kelvin k', true)).toBe(true);
    // Asked twice, the same answer (remembered).
    expect(text.contains('zzz', false)).toBe(false);
  });

  it('finds every slice of a larger text, whatever its trigram filter says', () => {
    const source = RULES.flatMap((r) => examplesOf(r).invalid).join('\n');
    const text = new AnchorText(source);
    for (let i = 0; i + 12 < source.length; i += 97) {
      const slice = source.slice(i, i + 3 + (i % 9));
      expect(text.contains(slice, false)).toBe(true);
      expect(text.contains(slice.toLowerCase(), true)).toBe(true);
    }
    expect(text.contains('definitelyNotInThere', false)).toBe(false);
  });
});

// Heavy: every example of every pack, many times over (seconds alone, far more on a busy machine).
describe('the prefilter on the rule packs', () => {
  const examples = examplesByLanguage();

  it('lets every rule through on its own invalid examples (they match, so their anchors are there)', () => {
    const missing: string[] = [];
    for (const rule of RULES) {
      const anchors = ruleAnchors(rule.rule);
      for (const example of examplesOf(rule).invalid) {
        if (!new AnchorText(example).satisfies(anchors)) missing.push(`${rule.id}: ${example}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('skips a rule only on text where it matches nothing (every example of its languages)', () => {
    const wrong: string[] = [];
    for (const rule of RULES) {
      const anchors = ruleAnchors(rule.rule);
      if (anchors.length === 0) continue;
      for (const language of rule.languages) {
        const lang = LANGUAGE_OF[language];
        const skippedOn = [...new Set(examples.get(lang) ?? [])].filter((s) => !new AnchorText(s).satisfies(anchors));
        if (skippedOn.length === 0) continue;
        // One tree holding every skipped example: no match in it means no match in any of them.
        const source = skippedOn.join('\n\n');
        let found = 0;
        try {
          found = matchRule(parseSource(lang, source).root(), rule).length;
        } catch {
          found = 0;
        }
        if (found > 0) {
          for (const s of skippedOn) {
            let n = 0;
            try {
              n = matchRule(parseSource(lang, s).root(), rule).length;
            } catch {
              n = 0;
            }
            if (n > 0) wrong.push(`${rule.id} (${lang}): ${s}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('runRules finds the same matches as running every rule (all examples of a language at once)', () => {
    for (const [language, list] of examples) {
      const source = [...new Set(list)].join('\n\n');
      const addedLines = new Set(source.split('\n').map((_, i) => i + 1));
      const input = {
        path: `x.${language}`,
        language,
        source,
        addedLines,
        checkSecurity: true,
        checkPerformance: true,
      };
      const filtered = runRules({ ...input, rules: RULES });
      // Reference: one rule at a time, each in a rule list of its own (so nothing is skipped by text).
      const root = parseSource(language, source).root();
      const families = ruleLanguagesFor(language);
      const reference = RULES.filter((rule) => rule.languages.some((l) => families.includes(l)))
        .flatMap((rule) => {
          const hits = runRules({ ...input, rules: [rule], root });
          const unfiltered = (() => {
            try {
              return matchRule(root, rule).length;
            } catch {
              return 0;
            }
          })();
          // The reference must not itself have been filtered away.
          if (unfiltered > 0) expect(hits.length).toBeGreaterThan(0);
          return hits;
        })
        .sort((a, b) => a.line - b.line || a.ruleId.localeCompare(b.ruleId));
      // Alone, a rule that defers (`deferTo`) cannot see the rule it defers to: drop it as runRules does.
      const commented = new Set(reference.map((m) => m.ruleId));
      const deferred = (id: string) => {
        const to = RULES.find((r) => r.id === id)?.deferTo;
        return to !== undefined && commented.has(to);
      };
      expect(filtered.map((m) => `${m.ruleId}:${m.line}`)).toEqual(
        reference.filter((m) => !deferred(m.ruleId)).map((m) => `${m.ruleId}:${m.line}`),
      );
    }
  });
});
