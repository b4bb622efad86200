import type { SgNode } from '@ast-grep/napi';
import type { Severity } from '../../common/severity.js';
import type { FindingType } from '../finding-types.js';
import { type Language, ruleLanguagesFor } from '../languages.js';
import { isAscii } from './ascii-regex.js';
import { parseSource } from './ast-grep.js';
import { suggestionFor } from './render-fix.js';
import { AnchorText } from './rule-anchors.js';
import { ruleLibrary } from './rule-library.js';
import type { Rule } from './rule-schema.js';
import { searchRules } from './search-rules.js';

export interface RunRulesInput {
  path: string;
  language: Language;
  /** The file's text (the whole file, or the hunks' new side when that is all there is). */
  source: string;
  /** 1-based line numbers of the added or changed lines: only matches touching one are kept. */
  addedLines: Set<number>;
  rules: readonly Rule[];
  checkSecurity: boolean;
  checkPerformance: boolean;
  /** The parsed `source`, when the caller already has it (it parses once for rules and complexity). */
  root?: SgNode | undefined;
}

/** One rule match on an added line, ready to become a finding. */
export interface RuleMatch {
  ruleId: string;
  type: FindingType;
  severity: Severity;
  message: string;
  path: string;
  /** 1-based: the first added line inside the match. */
  line: number;
  /** 1-based line span of the whole match. */
  startLine: number;
  endLine: number;
  /** First line of the matched code, trimmed, at most 200 characters. */
  snippet: string;
  /** The matched code in full (for fingerprints). */
  code: string;
  /** The line with the fix applied, when the rule has a fix and the match is on one line. */
  suggestion?: string | undefined;
  cwe?: string | undefined;
  cvss?: number | undefined;
}

const SNIPPET_MAX = 200;

function snippetOf(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  return first.trim().slice(0, SNIPPET_MAX);
}

/** The added lines in ascending order, sorted once per file and only when a long match needs it. */
class AddedLines {
  #sorted: number[] | undefined;
  constructor(readonly set: Set<number>) {}

  /** The first added line in [startLine, endLine]. */
  firstIn(startLine: number, endLine: number): number | undefined {
    if (endLine - startLine + 1 > this.set.size) {
      this.#sorted ??= [...this.set].sort((a, b) => a - b);
      const sorted = this.#sorted;
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((sorted[mid] as number) < startLine) lo = mid + 1;
        else hi = mid;
      }
      const line = sorted[lo];
      return line !== undefined && line <= endLine ? line : undefined;
    }
    for (let line = startLine; line <= endLine; line += 1) {
      if (this.set.has(line)) return line;
    }
    return undefined;
  }
}

function applies(rule: Rule, families: string[], input: RunRulesInput): boolean {
  if (rule.type === 'security' && !input.checkSecurity) return false;
  if (rule.type === 'performance' && !input.checkPerformance) return false;
  return rule.languages.some((l) => families.includes(l));
}

/**
 * Runs the rules of the file's language family over one parsed file and keeps the matches that
 * touch an added line, one per (rule, line). Never throws on broken code: tree-sitter parses it.
 * The search itself (search-rules.ts) finds what each rule alone would, in one query per file.
 */
export function runRules(input: RunRulesInput): RuleMatch[] {
  if (input.addedLines.size === 0) return [];
  const families = ruleLanguagesFor(input.language);
  // A rule whose anchors (text its pattern or regex requires) are not in the file cannot match:
  // skipping it saves compiling it.
  const text = new AnchorText(input.source);
  const library = ruleLibrary(input.rules, input.language, isAscii(input.source));
  const rules = input.rules.filter((r) => applies(r, families, input) && text.satisfies(library.anchors.get(r) ?? []));
  if (rules.length === 0) return [];
  let root: SgNode;
  try {
    root = input.root ?? parseSource(input.language, input.source).root();
  } catch {
    return [];
  }
  let lines: string[] | undefined;
  const linesOf = (): string[] => {
    lines ??= input.source.split(/\r?\n/);
    return lines;
  };
  const found = searchRules(root, rules, { text, library });
  const added = new AddedLines(input.addedLines);
  const seen = new Set<string>();
  const matches: RuleMatch[] = [];
  for (const rule of rules) {
    const { nodes, prefix } = found.get(rule) ?? { nodes: [], prefix: '' };
    for (const node of nodes) {
      const range = node.range();
      const startLine = range.start.line + 1;
      // A node that ends at column 0 of a line (a trailing newline) does not touch that line.
      const endLine = range.end.line + (range.end.column === 0 && range.end.line > range.start.line ? 0 : 1);
      const line = added.firstIn(startLine, endLine);
      if (line === undefined) continue;
      const key = `${rule.id}\u0000${line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const code = node.text();
      matches.push({
        ruleId: rule.id,
        type: rule.type,
        severity: rule.severity,
        message: rule.message,
        path: input.path,
        line,
        startLine,
        endLine,
        snippet: snippetOf(code),
        code,
        suggestion: rule.fix === undefined ? undefined : suggestionFor(rule.fix, node, input.source, linesOf(), prefix),
        cwe: rule.cwe,
        cvss: rule.cvss,
      });
    }
  }
  // A rule that defers to another says nothing in a file where that one comments.
  const commented = new Set(matches.map((m) => m.ruleId));
  const deferring = new Set(rules.filter((r) => r.deferTo !== undefined && commented.has(r.deferTo)).map((r) => r.id));
  return matches
    .filter((m) => !deferring.has(m.ruleId))
    .sort((a, b) => a.line - b.line || a.ruleId.localeCompare(b.ruleId));
}
