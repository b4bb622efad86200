import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/engine/review-change.js';
import type { ChangedFile } from '../../src/engine/types.js';

const CHECKS = { checkSecurity: true, checkPerformance: true };

const added = (path: string): ChangedFile => ({
  path,
  status: 'added',
  additions: 1,
  deletions: 0,
  patch: '@@ -0,0 +1,1 @@\n+export const answer = 42;',
});

const removed = (path: string, deletions: number): ChangedFile => ({
  path,
  status: 'removed',
  additions: 0,
  deletions,
  patch: `@@ -1,${deletions} +0,0 @@\n${Array.from({ length: deletions }, (_, i) => `-line ${i}`).join('\n')}`,
});

describe('the summary of deleted and skipped files', () => {
  it('counts the deleted files and their lines, lists them, and keeps them out of the reviewed count', () => {
    const result = reviewChange(
      { files: [added('src/a.js'), removed('src/old.js', 12), removed('lib/gone.py', 3)] },
      CHECKS,
    );
    expect(result.summary).toBe(
      'Reviewed 1 file (+1 −0) in JavaScript. No issues found. Deleted 2 files (−15): src/old.js, lib/gone.py.',
    );
  });

  it('lists five deleted files and counts the rest', () => {
    const files = Array.from({ length: 7 }, (_, i) => removed(`old/f${i}.go`, 1));
    const result = reviewChange({ files }, CHECKS);
    expect(result.summary).toBe(
      'Reviewed 0 files (+0 −0). No issues found. Deleted 7 files (−7): old/f0.go, old/f1.go, old/f2.go, old/f3.go, old/f4.go and 2 more.',
    );
  });

  it('says deleted, then not reviewed, with the count of each', () => {
    const lock: ChangedFile = {
      path: 'package-lock.json',
      status: 'modified',
      additions: 3,
      deletions: 1,
      patch: '@@ -1 +1,3 @@\n-{\n+{\n+}\n+',
    };
    const result = reviewChange({ files: [removed('a.rb', 1), lock] }, CHECKS);
    expect(result.summary).toBe(
      'Reviewed 0 files (+0 −0). No issues found. Deleted 1 file (−1): a.rb. Not reviewed, 1 file: package-lock.json (lock file).',
    );
  });
});
