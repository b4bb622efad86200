import type { ChangedFile } from './types.js';

const TEST_PATH = /(^|\/)(__tests__|tests?|spec)\/|[._-](test|spec)\.[^/]+$|_test\.go$|(^|\/)test_[^/]+\.py$/;
const SOURCE_EXTENSIONS = /\.(js|jsx|mjs|cjs|ts|tsx|py|go|java|rb|rs|kt|cs|php|swift|scala|c|cc|cpp|h|hpp)$/;

export function isTestFile(path: string): boolean {
  return TEST_PATH.test(path);
}

/** The bare name a test of this file would mention: `src/users/repo.ts` → `repo`. */
function stem(path: string): string {
  const base = path.split('/').pop() ?? path;
  return base
    .replace(/\.[^.]+$/, '')
    .replace(/([._-](test|spec))$/, '')
    .replace(/^test_/, '')
    .replace(/_test$/, '')
    .toLowerCase();
}

/**
 * Decisions §4: the percentage (0-100) of changed source files whose change comes with a change to
 * a test file for them (a changed test file whose name carries the source file's stem).
 */
export function testCoverage(files: readonly ChangedFile[]): number {
  const changed = files.filter((f) => f.status !== 'removed');
  const tests = changed.filter((f) => isTestFile(f.path)).map((f) => stem(f.path));
  const sources = changed.filter((f) => SOURCE_EXTENSIONS.test(f.path) && !isTestFile(f.path));
  if (sources.length === 0) return 0;
  const covered = sources.filter((f) => tests.includes(stem(f.path))).length;
  return Math.round((covered / sources.length) * 100);
}
