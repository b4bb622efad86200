import { readHunk } from './read-hunk.js';
import { splitLines } from './split-lines.js';
import type { Hunk } from './types.js';

/**
 * The hunks of one file's patch as GitHub's API gives it (starting at `@@`). Anything outside a
 * hunk (file headers, if a caller passes a whole single-file diff) is skipped, not rejected.
 */
export function parsePatch(patch: string): Hunk[] {
  const lines = splitLines(patch);
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < lines.length) {
    const read = lines[i]?.startsWith('@@') ? readHunk(lines, i) : undefined;
    if (read) {
      hunks.push(read.hunk);
      i = read.next;
    } else {
      i++;
    }
  }
  return hunks;
}
