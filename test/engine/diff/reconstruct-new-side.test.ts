import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../../src/common/diff/parse-patch.js';
import { MAX_ALIGNED_GAP, reconstructNewSide } from '../../../src/engine/diff/reconstruct-new-side.js';

describe('reconstructNewSide', () => {
  it('places each hunk at its real lines, blank lines between', () => {
    const side = reconstructNewSide(parsePatch('@@ -2,2 +2,3 @@\n a\n-b\n+B\n+C\n@@ -8 +9 @@\n-x\n+X'));
    expect(side.text).toBe('\na\nB\nC\n\n\n\n\nX\n');
    expect(side.realLines).toEqual([0, 2, 3, 4, 0, 0, 0, 0, 9]);
    expect(side.aligned).toBe(true);
  });

  it('skips deletion-only hunks and keeps later hunks aligned', () => {
    const side = reconstructNewSide(parsePatch('@@ -1,2 +0,0 @@\n-a\n-b\n@@ -5 +3 @@\n-c\n+C'));
    expect(side.text).toBe('\n\nC\n');
    expect(side.aligned).toBe(true);
  });

  it('shrinks a huge gap to one blank line and says it is no longer aligned', () => {
    const far = MAX_ALIGNED_GAP * 10;
    const side = reconstructNewSide(parsePatch(`@@ -1 +1 @@\n+a\n@@ -${far} +${far},2 @@\n+b\n+c`));
    expect(side.text).toBe('a\n\nb\nc\n');
    expect(side.realLines).toEqual([1, 0, far, far + 1]);
    expect(side.aligned).toBe(false);
  });

  it('no hunks, no text', () => {
    expect(reconstructNewSide([])).toEqual({ text: '', realLines: [], aligned: true });
  });
});
