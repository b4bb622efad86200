import { readHunk } from '../../common/diff/read-hunk.js';
import { splitLines } from '../../common/diff/split-lines.js';
import type { FileDiff, Hunk } from '../../common/diff/types.js';
import { parseDiffGitLine } from './parse-diff-git-line.js';
import { parseHeaderPath } from './parse-header-path.js';

interface Draft {
  gitOld?: string | undefined;
  gitNew?: string | undefined;
  /** From `---`/`+++`: null is /dev/null, undefined is "no such header". */
  oldName?: string | null | undefined;
  newName?: string | null | undefined;
  renameFrom?: string | undefined;
  renameTo?: string | undefined;
  copyFrom?: string | undefined;
  copyTo?: string | undefined;
  created: boolean;
  deleted: boolean;
  binary: boolean;
  hunks: Hunk[];
  patchStart?: number | undefined;
  patchEnd?: number | undefined;
}

const newDraft = (): Draft => ({ created: false, deleted: false, binary: false, hunks: [] });

/**
 * The files of a whole `git diff` (or plain `diff -u`) output, each shaped like GitHub's file
 * entry: paths, status, counts and the hunks-only `patch`. Lines git writes that do not change
 * the reading (`index`, `similarity index`, modes) are passed over.
 */
export function splitUnifiedDiff(text: string): FileDiff[] {
  const lines = splitLines(text);
  const drafts: Draft[] = [];
  let draft: Draft | undefined;
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i] ?? '';
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('diff --git ')) {
      const paths = parseDiffGitLine(line);
      draft = { ...newDraft(), gitOld: paths?.oldPath, gitNew: paths?.newPath };
      drafts.push(draft);
      i++;
      continue;
    }
    if (draft && line.startsWith('@@')) {
      const read = readHunk(lines, i);
      if (read) {
        draft.patchStart ??= i;
        draft.hunks.push(read.hunk);
        draft.patchEnd = read.next;
        i = read.next;
        continue;
      }
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      // Without a `diff --git` line (plain `diff -u`), the name pair itself starts the file.
      if (!draft || draft.oldName !== undefined || draft.hunks.length > 0) {
        draft = newDraft();
        drafts.push(draft);
      }
      draft.oldName = parseHeaderPath(line.slice(4), 'a/');
      draft.newName = parseHeaderPath((lines[i + 1] ?? '').slice(4), 'b/');
      i += 2;
      continue;
    }
    if (draft && draft.hunks.length === 0) readExtendedHeader(draft, line);
    i++;
  }
  return drafts.map((d) => finish(d, lines));
}

function readExtendedHeader(draft: Draft, line: string): void {
  if (line.startsWith('new file mode')) draft.created = true;
  else if (line.startsWith('deleted file mode')) draft.deleted = true;
  else if (line.startsWith('rename from ')) draft.renameFrom = parseHeaderPath(line.slice(12)) ?? undefined;
  else if (line.startsWith('rename to ')) draft.renameTo = parseHeaderPath(line.slice(10)) ?? undefined;
  else if (line.startsWith('copy from ')) draft.copyFrom = parseHeaderPath(line.slice(10)) ?? undefined;
  else if (line.startsWith('copy to ')) draft.copyTo = parseHeaderPath(line.slice(8)) ?? undefined;
  else if (line === 'GIT binary patch' || (line.startsWith('Binary files ') && line.endsWith(' differ'))) {
    draft.binary = true;
  }
}

function finish(d: Draft, lines: readonly string[]): FileDiff {
  const oldPath = d.renameFrom ?? d.copyFrom ?? d.oldName ?? d.gitOld;
  const newPath = d.renameTo ?? d.copyTo ?? d.newName ?? d.gitNew;
  const created = d.created || (d.oldName === null && d.newName !== null);
  const deleted = d.deleted || (d.newName === null && d.oldName !== null);
  let additions = 0;
  let deletions = 0;
  for (const hunk of d.hunks) {
    for (const l of hunk.lines) {
      if (l.kind === 'add') additions++;
      else if (l.kind === 'del') deletions++;
    }
  }
  // A copy is a new file as far as a pull request goes (GitHub reports none); it keeps its source.
  const status = deleted ? 'removed' : created || d.copyTo ? 'added' : d.renameTo ? 'renamed' : 'modified';
  const path = (status === 'removed' ? (oldPath ?? newPath) : (newPath ?? oldPath)) ?? '';
  return {
    path,
    previousPath: d.renameTo || d.copyTo ? oldPath : undefined,
    status,
    binary: d.binary,
    additions,
    deletions,
    patch: d.patchStart === undefined ? undefined : lines.slice(d.patchStart, d.patchEnd).join('\n'),
    hunks: d.hunks,
  };
}
