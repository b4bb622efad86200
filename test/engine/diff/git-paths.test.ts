import { describe, expect, it } from 'vitest';
import { parseDiffGitLine } from '../../../src/engine/diff/parse-diff-git-line.js';
import { parseHeaderPath } from '../../../src/engine/diff/parse-header-path.js';
import { unquoteGitPath } from '../../../src/engine/diff/unquote-git-path.js';

describe('git path quoting', () => {
  it('decodes octal UTF-8 bytes and C escapes', () => {
    expect(unquoteGitPath('"caf\\303\\251 \\"q\\" \\\\ \\t.txt" rest')).toEqual({
      value: 'café "q" \\ \t.txt',
      rest: ' rest',
    });
    expect(unquoteGitPath('plain')).toBeUndefined();
    expect(unquoteGitPath('"unterminated')).toBeUndefined();
    expect(unquoteGitPath('"bad \\q"')).toBeUndefined();
  });

  it('splits diff --git lines, spaces and quotes included', () => {
    expect(parseDiffGitLine('diff --git a/my dir/a b.ts b/my dir/a b.ts')).toEqual({
      oldPath: 'my dir/a b.ts',
      newPath: 'my dir/a b.ts',
    });
    expect(parseDiffGitLine('diff --git a/old.ts b/new.ts')).toEqual({ oldPath: 'old.ts', newPath: 'new.ts' });
    expect(parseDiffGitLine('diff --git "a/\\303\\251.ts" "b/\\303\\251.ts"')).toEqual({
      oldPath: 'é.ts',
      newPath: 'é.ts',
    });
    expect(parseDiffGitLine('diff --git a/x.ts "b/\\303\\251.ts"')).toEqual({ oldPath: 'x.ts', newPath: 'é.ts' });
  });

  it('reads ---/+++ names: /dev/null, tab-ended, timestamped, quoted', () => {
    expect(parseHeaderPath('/dev/null', 'a/')).toBeNull();
    expect(parseHeaderPath('a/my file.ts\t', 'a/')).toBe('my file.ts');
    expect(parseHeaderPath('b/x.c\t2024-01-01 00:00:00 +0000', 'b/')).toBe('x.c');
    expect(parseHeaderPath('"b/\\303\\274.txt"\t', 'b/')).toBe('ü.txt');
    expect(parseHeaderPath('lib/math.js\r')).toBe('lib/math.js');
  });
});
