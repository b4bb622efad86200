import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/github/compile-glob.js';

/** `.github/redline.yml` path patterns: GitHub Actions' `paths` syntax, anchored at the root. */

const cases: [pattern: string, matching: string[], notMatching: string[]][] = [
  ['*.md', ['README.md', '.md'], ['docs/README.md', 'README.mdx']],
  ['**/*.md', ['README.md', 'docs/README.md', 'a/b/c/x.md'], ['README.mdx', 'docs/md']],
  ['docs/**', ['docs/a.md', 'docs/a/b/c.ts'], ['docs', 'other/docs/a.md', 'docsx/a.md']],
  ['docs/', ['docs/a.md', 'docs/a/b.md'], ['docs', 'src/docs/a.md']],
  ['src/**/test/*.ts', ['src/test/a.ts', 'src/x/y/test/a.ts'], ['src/test/a/b.ts', 'lib/test/a.ts']],
  ['src/*.ts', ['src/a.ts', 'src/.hidden.ts'], ['src/a/b.ts', 'src/a.tsx']],
  ['**.js', ['a.js', 'a/b/c.js'], ['a.jsx']],
  ['file?.txt', ['file1.txt', 'fileA.txt'], ['file.txt', 'file10.txt', 'file/.txt']],
  ['/vendor/**', ['vendor/a.js'], ['src/vendor/a.js']],
  ['./vendor/**', ['vendor/a.js'], ['src/vendor/a.js']],
  ['a+b(c)[d]{e}|f^$.txt', ['a+b(c)[d]{e}|f^$.txt'], ['aab(c)[d]{e}|f^$.txt', 'a+b(c)[d]{e}|f^$xtxt']],
  ['**', ['a', 'a/b/c'], []],
  ['release/*', ['release/1.0'], ['release/1.0/hotfix', 'release']],
  ['js.style.*', ['js.style.console-log'], ['js.security.eval']],
];

describe('compileGlob', () => {
  for (const [pattern, matching, notMatching] of cases) {
    it(`${pattern}`, () => {
      const matches = compileGlob(pattern);
      for (const path of matching) expect(matches(path), `${pattern} should match ${path}`).toBe(true);
      for (const path of notMatching) expect(matches(path), `${pattern} should not match ${path}`).toBe(false);
    });
  }

  it('is case-sensitive, as Git paths are', () => {
    expect(compileGlob('*.MD')('README.md')).toBe(false);
  });

  it('counts a character outside the BMP as one character', () => {
    expect(compileGlob('docs/?.md')('docs/😀.md')).toBe(true);
    expect(compileGlob('docs/😀*')('docs/😀-notes.md')).toBe(true);
  });

  it('takes time proportional to pattern and path: no catastrophic backtracking', () => {
    // As a backtracking RegExp (.*a.*a.*a.*a.*a.*b) this took eight minutes on this machine.
    const matches = compileGlob('**a**a**a**a**a**b');
    const started = performance.now();
    expect(matches(`${'a/'.repeat(150)}c`)).toBe(false);
    expect(compileGlob('*a*a*a*a*a*a*b')('a'.repeat(5000))).toBe(false);
    // Milliseconds when linear; the backtracking alternative takes minutes even on a quiet
    // machine, so a bound this far above the first and below the second holds under any load.
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});
