import { describe, expect, it } from 'vitest';
import { DiffIndex } from '../../../src/common/diff/diff-index.js';

const PATCH = '@@ -1,3 +1,4 @@\n a\n-b\n+B\n+B2\n c\n@@ -20,2 +21,2 @@\n x\n-y\n+Y';

describe('DiffIndex', () => {
  const index = DiffIndex.fromPatch(PATCH);

  it('maps added lines to their text and knows commentable lines', () => {
    expect([...index.addedLines]).toEqual([
      [2, 'B'],
      [3, 'B2'],
      [22, 'Y'],
    ]);
    expect([...index.commentableLines]).toEqual([1, 2, 3, 4, 21, 22]);
    expect(index.isAdded(2)).toBe(true);
    expect(index.isAdded(1)).toBe(false);
    expect(index.isCommentable(1)).toBe(true);
    expect(index.isCommentable(5)).toBe(false);
  });

  it('finds the nearest commentable line, the earlier on a tie, within a distance', () => {
    expect(index.nearestCommentable(3)).toBe(3);
    expect(index.nearestCommentable(6)).toBe(4);
    expect(index.nearestCommentable(19)).toBe(21);
    expect(index.nearestCommentable(1000)).toBe(22);
    expect(index.nearestCommentable(0)).toBe(1);
    // 4 and ... 21: 12 is 8 from 4 and 9 from 21.
    expect(index.nearestCommentable(12)).toBe(4);
    expect(index.nearestCommentable(10, 3)).toBeUndefined();
    expect(DiffIndex.fromPatch('@@ -1,2 +1,2 @@\n a\n c')?.nearestCommentable(1)).toBe(1);
    expect(new DiffIndex([]).nearestCommentable(1)).toBeUndefined();
    expect(DiffIndex.fromPatch(undefined).commentableLines.size).toBe(0);
  });

  it('a tie goes to the earlier line', () => {
    const tie = DiffIndex.fromPatch('@@ -1 +1 @@\n+a\n@@ -5 +5 @@\n+b');
    expect(tie.nearestCommentable(3)).toBe(1);
  });
});
