import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../../src/common/diff/parse-patch.js';

describe('parsePatch (GitHub per-file patch)', () => {
  it('numbers context, added and deleted lines from the header', () => {
    expect(parsePatch('@@ -10,3 +10,4 @@ class A\n ctx\n-old\n+new1\n+new2\n ctx2')).toEqual([
      {
        oldStart: 10,
        oldLines: 3,
        newStart: 10,
        newLines: 4,
        section: 'class A',
        lines: [
          { kind: 'context', text: 'ctx', oldLine: 10, newLine: 10 },
          { kind: 'del', text: 'old', oldLine: 11 },
          { kind: 'add', text: 'new1', newLine: 11 },
          { kind: 'add', text: 'new2', newLine: 12 },
          { kind: 'context', text: 'ctx2', oldLine: 12, newLine: 13 },
        ],
      },
    ]);
  });

  it('omitted counts mean 1; a new file starts at -0,0', () => {
    expect(parsePatch('@@ -5 +5 @@\n-a\n+b')[0]).toMatchObject({ oldStart: 5, oldLines: 1, newStart: 5, newLines: 1 });
    const [hunk] = parsePatch('@@ -0,0 +1,2 @@\n+x\n+y\n');
    expect(hunk?.lines).toEqual([
      { kind: 'add', text: 'x', newLine: 1 },
      { kind: 'add', text: 'y', newLine: 2 },
    ]);
  });

  it('an insertion after line k (-k,0) numbers the new lines from +k+1', () => {
    const [hunk] = parsePatch('@@ -3,0 +4,2 @@\n+p\n+q');
    expect(hunk?.lines.map((l) => l.newLine)).toEqual([4, 5]);
  });

  it('reads several hunks and skips text outside them', () => {
    const hunks = parsePatch('diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\ngarbage\n@@ -9,0 +10 @@\n+c');
    expect(hunks.map((h) => h.lines.map((l) => [l.kind, l.text, l.newLine ?? l.oldLine]))).toEqual([
      [
        ['del', 'a', 1],
        ['add', 'b', 1],
      ],
      [['add', 'c', 10]],
    ]);
  });

  it('an empty line inside a hunk is a context line whose space was trimmed', () => {
    const [hunk] = parsePatch('@@ -1,3 +1,3 @@\n a\n\n-b\n+c');
    expect(hunk?.lines[1]).toEqual({ kind: 'context', text: '', oldLine: 2, newLine: 2 });
    expect(hunk?.lines[3]).toEqual({ kind: 'add', text: 'c', newLine: 3 });
  });

  it('a truncated hunk keeps what it has; hostile headers do not throw', () => {
    expect(parsePatch('@@ -1,100 +1,100 @@\n+only')[0]?.lines).toEqual([{ kind: 'add', text: 'only', newLine: 1 }]);
    expect(parsePatch('@@ nonsense @@\n+x')).toEqual([]);
    expect(parsePatch('@@ -1,1 +99999999999,1 @@\n+x')[0]?.lines[0]?.newLine).toBe(99999999999);
    expect(parsePatch('')).toEqual([]);
    expect(parsePatch('@@ -1 +1 @@ const s = "\u2028";\n+x')[0]?.section).toBe('const s = "\u2028";');
  });
});
