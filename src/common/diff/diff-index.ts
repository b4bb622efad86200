import { parsePatch } from './parse-patch.js';
import type { Hunk } from './types.js';

/**
 * Where a finding may go in one file. Findings belong on added lines; GitHub accepts a review
 * comment (`line` + `side: RIGHT`) on any new-side line shown in a hunk, added or context, and
 * rejects the whole review if one comment falls outside, so placement checks against this set.
 */
export class DiffIndex {
  /** New line number -> text of every added line, ascending. */
  readonly addedLines = new Map<number, string>();
  readonly commentableLines = new Set<number>();
  /** commentableLines sorted, for nearest-line search. */
  readonly #sorted: number[];

  constructor(readonly hunks: readonly Hunk[]) {
    for (const hunk of hunks) {
      for (const line of hunk.lines) {
        if (line.newLine === undefined) continue;
        this.commentableLines.add(line.newLine);
        if (line.kind === 'add') this.addedLines.set(line.newLine, line.text);
      }
    }
    this.#sorted = [...this.commentableLines].sort((a, b) => a - b);
  }

  static fromPatch(patch: string | undefined): DiffIndex {
    return new DiffIndex(patch === undefined ? [] : parsePatch(patch));
  }

  isAdded(line: number): boolean {
    return this.addedLines.has(line);
  }

  isCommentable(line: number): boolean {
    return this.commentableLines.has(line);
  }

  /**
   * The commentable line closest to `line` (the earlier one on a tie), or undefined when there is
   * none within `maxDistance`: a finding just outside a hunk can still be shown next to it.
   */
  nearestCommentable(line: number, maxDistance = Number.POSITIVE_INFINITY): number | undefined {
    const sorted = this.#sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < line) lo = mid + 1;
      else hi = mid;
    }
    const after = sorted[lo];
    const before = sorted[lo - 1];
    let best: number | undefined;
    if (before !== undefined) best = before;
    if (after !== undefined && (best === undefined || after - line < line - best)) best = after;
    return best !== undefined && Math.abs(best - line) <= maxDistance ? best : undefined;
  }
}
