import { describe, expect, it } from 'vitest';
import { DiffIndex } from '../../../src/common/diff/diff-index.js';
import { parsePatch } from '../../../src/common/diff/parse-patch.js';
import type { FileDiff } from '../../../src/common/diff/types.js';
import { splitUnifiedDiff } from '../../../src/engine/diff/split-unified-diff.js';
import { readFixture } from './read-fixture.js';

/** What a reviewer relies on, per file: identity, counts, and where comments may go. */
function summary(file: FileDiff) {
  const index = new DiffIndex(file.hunks);
  return {
    path: file.path,
    previousPath: file.previousPath,
    status: file.status,
    binary: file.binary,
    additions: file.additions,
    deletions: file.deletions,
    added: Object.fromEntries(index.addedLines),
    commentable: [...index.commentableLines],
  };
}

function golden(name: string) {
  const files = splitUnifiedDiff(readFixture(name));
  // The patch handed on is GitHub's shape: parsing it again gives the same hunks.
  for (const file of files) expect(file.patch === undefined ? [] : parsePatch(file.patch)).toEqual(file.hunks);
  return files.map(summary);
}

describe('splitUnifiedDiff on golden diffs', () => {
  it('new files, one with a quoted unicode path and an omitted count', () => {
    expect(golden('new-file.diff')).toEqual([
      {
        path: 'added.ts',
        previousPath: undefined,
        status: 'added',
        binary: false,
        additions: 3,
        deletions: 0,
        added: { 1: 'export const x = 1;', 2: 'export const y = 2;', 3: 'export const z = x + y;' },
        commentable: [1, 2, 3],
      },
      {
        path: 'café ünï.txt',
        previousPath: undefined,
        status: 'added',
        binary: false,
        additions: 1,
        deletions: 0,
        added: { 1: 'café' },
        commentable: [1],
      },
    ]);
    expect(splitUnifiedDiff(readFixture('new-file.diff'))[0]?.patch).toBe(
      '@@ -0,0 +1,3 @@\n+export const x = 1;\n+export const y = 2;\n+export const z = x + y;',
    );
  });

  it('a deletion has no commentable line', () => {
    const [file] = splitUnifiedDiff(readFixture('deleted-file.diff'));
    expect(file && summary(file)).toEqual({
      path: 'src.js',
      previousPath: undefined,
      status: 'removed',
      binary: false,
      additions: 0,
      deletions: 12,
      added: {},
      commentable: [],
    });
    expect(file?.hunks[0]?.lines.map((l) => l.oldLine)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('a rename with edits keeps both paths; a pure rename (path with a space) has no patch', () => {
    expect(golden('rename-with-edits.diff')).toEqual([
      {
        path: 'lib/math.js',
        previousPath: 'src.js',
        status: 'renamed',
        binary: false,
        additions: 5,
        deletions: 2,
        added: {
          2: 'const b = 3;',
          12: 'module.exports = { add, mul, div, sub };',
          13: 'function sub(x, y) {',
          14: '  return x - y;',
          15: '}',
        },
        commentable: [1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14, 15],
      },
      {
        path: 'old name.rb',
        previousPath: 'gone.rb',
        status: 'renamed',
        binary: false,
        additions: 0,
        deletions: 0,
        added: {},
        commentable: [],
      },
    ]);
    const files = splitUnifiedDiff(readFixture('rename-with-edits.diff'));
    expect(files[0]?.hunks.map((h) => h.section)).toEqual([undefined, 'function mul(x, y) {']);
    expect(files[1]?.patch).toBeUndefined();
  });

  it('binary files, with and without --binary data', () => {
    expect(golden('binary.diff')).toEqual([
      {
        path: 'logo.png',
        previousPath: undefined,
        status: 'modified',
        binary: true,
        additions: 0,
        deletions: 0,
        added: {},
        commentable: [],
      },
      {
        path: 'new.bin',
        previousPath: undefined,
        status: 'added',
        binary: true,
        additions: 0,
        deletions: 0,
        added: {},
        commentable: [],
      },
    ]);
    const files = splitUnifiedDiff(readFixture('binary-patch.diff'));
    expect(files.map((f) => [f.path, f.status, f.binary, f.patch])).toEqual([
      ['logo.png', 'modified', true, undefined],
    ]);
  });

  it('multiple hunks number their lines from each header', () => {
    expect(golden('multiple-hunks.diff')).toEqual([
      {
        path: 'multi.py',
        previousPath: undefined,
        status: 'modified',
        binary: false,
        additions: 3,
        deletions: 3,
        added: { 3: 'row three', 20: 'row twenty', 21: 'row twenty-one extra' },
        commentable: [1, 2, 3, 4, 5, 6, 17, 18, 19, 20, 21, 22, 23, 24, 36, 37, 38, 39, 40],
      },
    ]);
    const [file] = splitUnifiedDiff(readFixture('multiple-hunks.diff'));
    expect(file?.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines, h.section])).toEqual([
      [1, 6, 1, 6, undefined],
      [17, 7, 17, 8, 'row 16'],
      [35, 6, 36, 5, 'row 34'],
    ]);
    expect(file?.hunks[2]?.lines.find((l) => l.kind === 'del')).toEqual({ kind: 'del', text: 'row 38', oldLine: 38 });
  });

  it('marks the lines without a newline at end of file, on either side', () => {
    const files = splitUnifiedDiff(readFixture('no-newline-at-end.diff'));
    expect(files.map(summary)).toEqual([
      {
        path: 'my dir/file name.ts',
        previousPath: undefined,
        status: 'modified',
        binary: false,
        additions: 1,
        deletions: 0,
        added: { 3: 'again' },
        commentable: [1, 2, 3],
      },
      {
        path: 'nonl.py',
        previousPath: undefined,
        status: 'modified',
        binary: false,
        additions: 1,
        deletions: 1,
        added: { 2: '    return 2' },
        commentable: [1, 2],
      },
      {
        path: 'tail.rb',
        previousPath: undefined,
        status: 'modified',
        binary: false,
        additions: 2,
        deletions: 1,
        added: { 2: 'puts "bye"', 3: 'puts "again"' },
        commentable: [1, 2, 3],
      },
    ]);
    expect(files[1]?.hunks[0]?.lines.at(-1)).toEqual({
      kind: 'add',
      text: '    return 2',
      newLine: 2,
      noNewlineAtEnd: true,
    });
    expect(files[2]?.hunks[0]?.lines[1]).toEqual({ kind: 'del', text: 'puts "bye"', oldLine: 2, noNewlineAtEnd: true });
    expect(files[1]?.patch?.endsWith('\\ No newline at end of file')).toBe(true);
  });

  it('CRLF content lines: the CR is the terminator, not text; the patch keeps it', () => {
    expect(golden('crlf.diff')).toEqual([
      {
        path: 'win.txt',
        previousPath: undefined,
        status: 'modified',
        binary: false,
        additions: 2,
        deletions: 1,
        added: { 2: 'two changed', 4: 'four' },
        commentable: [1, 2, 3, 4],
      },
    ]);
    expect(splitUnifiedDiff(readFixture('crlf.diff'))[0]?.patch).toContain('+two changed\r\n');
  });

  it('a path with spaces (git ends its ---/+++ names with a tab)', () => {
    expect(golden('path-with-spaces.diff')).toEqual([
      {
        path: 'my dir/file name.ts',
        previousPath: undefined,
        status: 'modified',
        binary: false,
        additions: 1,
        deletions: 0,
        added: { 2: 'there' },
        commentable: [1, 2, 3],
      },
    ]);
  });

  it('a whole diff saved with CRLF line endings reads the same', () => {
    const text = readFixture('rename-with-edits.diff');
    const withoutPatch = ({ patch: _, ...rest }: FileDiff) => rest;
    expect(splitUnifiedDiff(text.replaceAll('\n', '\r\n')).map(withoutPatch)).toEqual(
      splitUnifiedDiff(text).map(withoutPatch),
    );
  });

  it('plain diff -u output without git headers', () => {
    const files = splitUnifiedDiff(
      [
        'Only in new: extra',
        '--- a/x.c\t2024-01-01 00:00:00.000000000 +0000',
        '+++ b/x.c\t2024-01-02 00:00:00.000000000 +0000',
        '@@ -1 +1,2 @@',
        ' int a;',
        '+int b;',
        '--- /dev/null',
        '+++ b/y.c',
        '@@ -0,0 +1 @@',
        '+int c;',
      ].join('\n'),
    );
    expect(files.map(summary)).toEqual([
      {
        path: 'x.c',
        previousPath: undefined,
        status: 'modified',
        binary: false,
        additions: 1,
        deletions: 0,
        added: { 2: 'int b;' },
        commentable: [1, 2],
      },
      {
        path: 'y.c',
        previousPath: undefined,
        status: 'added',
        binary: false,
        additions: 1,
        deletions: 0,
        added: { 1: 'int c;' },
        commentable: [1],
      },
    ]);
  });

  it('a deleted line reading "-- x" is not taken for the next file header', () => {
    const files = splitUnifiedDiff(
      [
        'diff --git a/q.sql b/q.sql',
        '--- a/q.sql',
        '+++ b/q.sql',
        '@@ -1,2 +1,2 @@',
        '--- a comment',
        '+++ counter',
        ' select 1;',
      ].join('\n'),
    );
    expect(files.map((f) => [f.path, f.additions, f.deletions])).toEqual([['q.sql', 1, 1]]);
    expect(files[0]?.hunks[0]?.lines.map((l) => [l.kind, l.text])).toEqual([
      ['del', '-- a comment'],
      ['add', '++ counter'],
      ['context', 'select 1;'],
    ]);
  });

  it('mode changes and empty input', () => {
    const files = splitUnifiedDiff('diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n');
    expect(files.map((f) => [f.path, f.status, f.patch, f.hunks])).toEqual([['run.sh', 'modified', undefined, []]]);
    expect(splitUnifiedDiff('')).toEqual([]);
  });
});
