import { parseHunkHeader } from '../../common/diff/parse-hunk-header.js';
import { GENERATED_HEADER_LINES } from './budgets.js';

export interface TextStats {
  /** Added and deleted lines (a patch), or all lines (whole content). */
  changedLines: number;
  /** The added lines of a patch, or every line of a content. */
  lines: number;
  chars: number;
  maxLineLength: number;
  /** The file's first lines, when the text shows them (a patch whose first hunk starts at line 1). */
  head: string[];
}

/**
 * One pass over a patch or a whole file with indexOf, no regex over the body and no per-line
 * arrays: a 1 MB line or 50,000 lines cost one linear scan.
 */
export function textStats(text: string, kind: 'patch' | 'content'): TextStats {
  const stats: TextStats = { changedLines: 0, lines: 0, chars: 0, maxLineLength: 0, head: [] };
  let hunks = kind === 'content' ? 1 : 0;
  let collectHead = kind === 'content';
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    let end = nl < 0 ? text.length : nl;
    if (end > pos && text.charCodeAt(end - 1) === 13) end--;
    const first = text[pos];
    if (kind === 'content') {
      addLine(stats, pos, end);
      stats.changedLines++;
    } else if (first === '@' && text.startsWith('@@', pos)) {
      hunks++;
      collectHead = hunks === 1 && parseHunkHeader(text.slice(pos, end))?.newStart === 1;
    } else if (hunks > 0 && first === '+') {
      addLine(stats, pos + 1, end);
      stats.changedLines++;
    } else if (hunks > 0 && first === '-') {
      stats.changedLines++;
    }
    const newSide = kind === 'content' || (hunks > 0 && (first === '+' || first === ' '));
    if (collectHead && newSide && stats.head.length < GENERATED_HEADER_LINES) {
      // The head is only searched for short markers; a hostile 1 MB first line is cut.
      const from = kind === 'content' ? pos : pos + 1;
      stats.head.push(text.slice(from, Math.min(end, from + 2000)));
    }
    pos = nl < 0 ? text.length : nl + 1;
  }
  return stats;
}

function addLine(stats: TextStats, start: number, end: number): void {
  const length = Math.max(end - start, 0);
  stats.lines++;
  stats.chars += length;
  if (length > stats.maxLineLength) stats.maxLineLength = length;
}
