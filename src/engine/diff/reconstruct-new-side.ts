import type { Hunk } from '../../common/diff/types.js';

/**
 * Gaps between hunks up to this many lines are kept as blank lines, so reconstructed line n is
 * real line n. A hostile header (`+999999999`) would otherwise allocate without bound; longer
 * gaps shrink to one blank line and `realLines` carries the numbering.
 */
export const MAX_ALIGNED_GAP = 100_000;

export interface NewSideText {
  /** The new side of the hunks, at their line numbers, blank lines elsewhere; ends with `\n`. */
  text: string;
  /** realLines[i] is the real new line number of reconstructed line i + 1; 0 for filler lines. */
  realLines: number[];
  /** True when every reconstructed line n is real line n (no gap was shrunk, no overlap). */
  aligned: boolean;
}

/**
 * Without the file's content the analyzers parse the hunks' new side alone. Keeping lines at
 * their real numbers lets a syntax-tree match's line be used as is.
 */
export function reconstructNewSide(hunks: readonly Hunk[]): NewSideText {
  const out: string[] = [];
  const realLines: number[] = [];
  let aligned = true;
  let lastReal = 0;
  const ordered = [...hunks].sort((a, b) => a.newStart - b.newStart);
  for (const hunk of ordered) {
    // A deletion-only hunk has no new side to place.
    if (!hunk.lines.some((l) => l.newLine !== undefined)) continue;
    // Measured from the previous hunk's real end, so one shrunk gap does not shrink the rest.
    const gap = hunk.newStart - 1 - lastReal;
    pushFiller(out, realLines, gap > MAX_ALIGNED_GAP ? 1 : Math.max(gap, 0));
    for (const line of hunk.lines) {
      if (line.kind === 'del' || line.newLine === undefined) continue;
      out.push(line.text);
      realLines.push(line.newLine);
      lastReal = Math.max(lastReal, line.newLine);
      if (line.newLine !== out.length) aligned = false;
    }
  }
  return { text: out.length === 0 ? '' : `${out.join('\n')}\n`, realLines, aligned };
}

function pushFiller(out: string[], realLines: number[], count: number): void {
  for (let k = 0; k < count; k++) {
    out.push('');
    realLines.push(0);
  }
}
