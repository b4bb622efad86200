/** One line of a hunk. `text` excludes the line terminator (`\n` or `\r\n`). */
export interface DiffLine {
  kind: 'add' | 'del' | 'context';
  text: string;
  /** Line number in the old file (deleted and context lines). */
  oldLine?: number | undefined;
  /** Line number in the new file (added and context lines). */
  newLine?: number | undefined;
  /** Followed by `\ No newline at end of file`: the line has no terminator on its side. */
  noNewlineAtEnd?: true | undefined;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The text after the second `@@` (git's function context), if any. */
  section?: string | undefined;
  lines: DiffLine[];
}

export type FileDiffStatus = 'added' | 'removed' | 'modified' | 'renamed';

/** One file of a `git diff`, shaped like the engine's ChangedFile (plus its parsed hunks). */
export interface FileDiff {
  /** The new path; the old one for a removed file. */
  path: string;
  previousPath?: string | undefined;
  status: FileDiffStatus;
  binary: boolean;
  additions: number;
  deletions: number;
  /** The hunks as GitHub's `patch` gives them (from the first `@@`); absent when there are none. */
  patch?: string | undefined;
  hunks: Hunk[];
}
