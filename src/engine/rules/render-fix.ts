import type { SgNode } from '@ast-grep/napi';
import { prefixedName } from './prefix-metavars.js';

const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

/** The source text a `$$$NAME` captured: from its first node to its last, separators included. */
function multipleText(match: SgNode, name: string, source: string): string {
  const nodes = match.getMultipleMatches(name);
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  if (!first || !last) return '';
  return source.slice(first.range().start.index, last.range().end.index);
}

/**
 * A rule's `fix` with `$NAME` and `$$$NAME` replaced by what the match captured. `prefix` is the
 * one the rule's metavariables were given when it was searched with other rules (see
 * prefix-metavars.ts); the fix itself is written with the pack's names.
 */
export function renderFix(fix: string, match: SgNode, source: string, prefix = ''): string {
  return fix.replace(METAVAR, (_all, multi: string | undefined, single: string | undefined) => {
    if (multi !== undefined) return multipleText(match, prefixedName(multi, prefix), source);
    return match.getMatch(prefixedName(single ?? '', prefix))?.text() ?? '';
  });
}

/**
 * The suggestion for a one-line match: the whole line with the matched text replaced by the
 * rendered fix (a GitHub suggestion replaces the commented line). Multi-line matches get none.
 */
export function suggestionFor(
  fix: string,
  match: SgNode,
  source: string,
  lines: string[],
  prefix = '',
): string | undefined {
  const { start, end } = match.range();
  if (start.line !== end.line) return undefined;
  const line = lines[start.line];
  if (line === undefined) return undefined;
  const lineStart = start.index - start.column;
  const from = start.index - lineStart;
  const to = end.index - lineStart;
  return line.slice(0, from) + renderFix(fix, match, source, prefix) + line.slice(to);
}
