/**
 * Anchored, no nested quantifiers: linear on any input. The `s` flag because a section may hold
 * U+2028, which `.` would not match. Combined diffs (`@@@`) are not matched: git only writes them
 * for merge commits, never for a pull request's change.
 */
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/s;

export interface HunkHeader {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  section?: string | undefined;
}

/** `@@ -a,b +c,d @@ section`; an omitted count means 1 (unified diff format). */
export function parseHunkHeader(line: string): HunkHeader | undefined {
  const m = HUNK_HEADER.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (!m) return undefined;
  const section = m[5]?.replace(/^ /, '');
  return {
    oldStart: Number(m[1]),
    oldLines: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newLines: m[4] === undefined ? 1 : Number(m[4]),
    section: section ? section : undefined,
  };
}
