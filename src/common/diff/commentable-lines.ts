import { DiffIndex } from './diff-index.js';

/** Path -> the new-side line numbers a review comment may be placed on (`line` with `side: RIGHT`). */
export type CommentableLines = ReadonlyMap<string, ReadonlySet<number>>;

/**
 * The lines of a pull request's diff, as GitHub lists its files (each file's `patch` against the
 * base): added and context lines of every hunk. GitHub refuses a whole review when one comment is
 * outside them, so every inline comment is checked against this first. A file without a patch
 * (binary, or too large for GitHub to show) has no commentable line.
 */
export function commentableLines(
  files: readonly { path: string; status: string; patch?: string | undefined }[],
): CommentableLines {
  const lines = new Map<string, ReadonlySet<number>>();
  for (const file of files) {
    if (file.status === 'removed' || file.patch === undefined) continue;
    lines.set(file.path, DiffIndex.fromPatch(file.patch).commentableLines);
  }
  return lines;
}
