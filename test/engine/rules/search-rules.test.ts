import type { SgNode } from '@ast-grep/napi';
import { describe, expect, it } from 'vitest';
import { generateChange } from '../../../bench/speed/generate.js';
import { type Language, ruleLanguagesFor } from '../../../src/engine/languages.js';
import { isAscii } from '../../../src/engine/rules/ascii-regex.js';
import { matchRule, parseSource } from '../../../src/engine/rules/ast-grep.js';
import { RULES } from '../../../src/engine/rules/packs/index.js';
import { prefixedName } from '../../../src/engine/rules/prefix-metavars.js';
import { renderFix } from '../../../src/engine/rules/render-fix.js';
import { AnchorText } from '../../../src/engine/rules/rule-anchors.js';
import { ruleLibrary } from '../../../src/engine/rules/rule-library.js';
import type { Rule } from '../../../src/engine/rules/rule-schema.js';
import { searchRules } from '../../../src/engine/rules/search-rules.js';
import { examplesOf } from './rule-tests.js';

/**
 * The fast search (one pruned, combined query per file; see search-rules.ts) against the plain
 * one: each rule searched alone, as written, with ast-grep. For every rule and file: the same
 * nodes in the same order, the same captured metavariables, the same rendered fix. A node given to
 * the wrong rule, a regex pruned too far or a condition moved across a capture would show here.
 */

const LANGUAGE_OF: Record<Rule['languages'][number], Language> = {
  javascript: 'javascript',
  typescript: 'typescript',
  python: 'python',
  go: 'go',
  java: 'java',
  ruby: 'ruby',
};

/**
 * Rule examples of a language, a few to a file (each file is searched both ways), and all of them
 * in one file, where rules overlap most, also broken and with CRLF line ends.
 */
function exampleFiles(language: Language): string[] {
  const examples = [
    ...new Set(
      RULES.filter((r) => r.languages.some((l) => LANGUAGE_OF[l] === language)).flatMap((r) => [
        ...examplesOf(r).invalid,
        ...examplesOf(r).valid,
      ]),
    ),
  ];
  const files: string[] = [];
  for (let i = 0; i < examples.length; i += 12) files.push(examples.slice(i, i + 12).join('\n\n'));
  const all = examples.join('\n\n');
  // Broken code (the hunks-only path parses such text): cut mid-way, every third line dropped; CRLF.
  const broken = all
    .split('\n')
    .filter((_, i) => i % 3 !== 2)
    .join('\n');
  return [...files, all, all.slice(0, Math.floor(all.length / 2)), broken, all.replace(/\n/g, '\r\n')];
}

/** A comment line in the language, to make a file non-ASCII (the Unicode library, unrewritten regexes). */
const COMMENT: Record<Language, string> = {
  javascript: '// é ſ K ü',
  typescript: '// é ſ K ü',
  tsx: '// é ſ K ü',
  python: '# é ſ K ü',
  go: '// é ſ K ü',
  java: '// é ſ K ü',
  ruby: '# é ſ K ü',
};

const METAVARS = /\$(\$\$)?([A-Z_][A-Z0-9_]*)/g;

/** Every metavariable named in a rule's patterns, with whether it captures several nodes. */
function metavariablesOf(rule: Rule): { name: string; multi: boolean }[] {
  const out = new Map<string, boolean>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'pattern' && typeof v === 'string') {
          for (const m of v.matchAll(METAVARS)) if (!(m[2] as string).startsWith('_')) out.set(m[2] as string, !!m[1]);
        } else visit(v);
      }
    }
  };
  visit(rule.rule);
  return [...out].map(([name, multi]) => ({ name, multi }));
}

/** What a node of a rule looks like to the engine: its span, its captures and its fix. */
function describeNodes(rule: Rule, nodes: SgNode[], source: string, prefix: string): string[] {
  const metavariables = metavariablesOf(rule);
  return nodes.map((node) => {
    const { start, end } = node.range();
    const captures = metavariables.map(({ name, multi }) => {
      const own = prefixedName(name, prefix);
      return multi
        ? `${name}=[${node
            .getMultipleMatches(own)
            .map((n) => n.text())
            .join(',')}]`
        : `${name}=${node.getMatch(own)?.text() ?? '-'}`;
    });
    const fix = rule.fix === undefined ? '' : ` fix=${renderFix(rule.fix, node, source, prefix)}`;
    return `${start.index}-${end.index} ${captures.join(' ')}${fix}`;
  });
}

function reference(root: SgNode, rule: Rule): SgNode[] {
  try {
    return matchRule(root, rule);
  } catch {
    return [];
  }
}

/**
 * Compares the fast search with the plain one on a file; returns how many nodes the rules matched.
 * Only the rules whose anchors the text holds are searched, as `runRules` does before it searches:
 * that a rule skipped by its anchors matches nothing is rule-anchors.test.ts's to prove.
 */
function compare(language: Language, source: string, candidates: readonly Rule[]): number {
  const root = parseSource(language, source).root();
  const text = new AnchorText(source);
  const library = ruleLibrary(RULES, language, isAscii(source));
  const rules = candidates.filter((rule) => text.satisfies(library.anchors.get(rule) ?? []));
  const found = searchRules(root, rules, {
    text,
    library,
    onFallback: (error) => {
      throw error;
    },
  });
  let matched = 0;
  for (const rule of rules) {
    const expected = describeNodes(rule, reference(root, rule), source, '');
    const got = found.get(rule) ?? { nodes: [], prefix: '' };
    expect({ rule: rule.id, nodes: describeNodes(rule, got.nodes, source, got.prefix) }).toEqual({
      rule: rule.id,
      nodes: expected,
    });
    matched += expected.length;
  }
  return matched;
}

const LANGUAGES: Language[] = ['javascript', 'typescript', 'tsx', 'python', 'go', 'java', 'ruby'];

// Every rule run alone over every example is heavy; on a loaded two-core machine it needs the time.
describe('searchRules finds exactly what each rule finds alone', () => {
  for (const language of LANGUAGES) {
    const families = ruleLanguagesFor(language);
    const rules = RULES.filter((r) => r.languages.some((l) => families.includes(l)));

    it(`on every rule example (${language}), ASCII and not`, () => {
      let matched = 0;
      for (const source of exampleFiles(language === 'tsx' ? 'typescript' : language)) {
        matched += compare(language, source, rules);
        matched += compare(language, `${COMMENT[language]}\n${source}`, rules);
      }
      // The comparison means something only if the rules do match.
      expect(matched).toBeGreaterThan(rules.length);
    });

    it(`with part of the rules only (${language})`, () => {
      const odd = rules.filter((_, i) => i % 2 === 1);
      const joined = exampleFiles(language === 'tsx' ? 'typescript' : language).at(-4) as string;
      expect(compare(language, joined, odd)).toBeGreaterThan(0);
    });
  }

  it('on generated files with planted problems (bench/speed)', () => {
    let matched = 0;
    for (const { language, file } of generateChange(12_000)) {
      const families = ruleLanguagesFor(language);
      matched += compare(
        language,
        file.content ?? '',
        RULES.filter((r) => r.languages.some((l) => families.includes(l))),
      );
    }
    expect(matched).toBeGreaterThan(20);
  });
});
