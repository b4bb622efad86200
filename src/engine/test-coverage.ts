import { fileRole } from './files/file-role.js';
import type { ChangedFile } from './types.js';

const SOURCE_EXTENSIONS = /\.(js|jsx|mjs|cjs|ts|tsx|py|go|java|rb|rs|kt|cs|php|swift|scala|c|cc|cpp|h|hpp)$/;

/** The bare name a test of this file would mention: `src/users/repo.ts` → `repo`, `RepoTest.java` → `repo`. */
function stem(path: string): string {
  const base = path.split('/').pop() ?? path;
  return base
    .replace(/\.[^.]+$/, '')
    .replace(/([._-](test|spec))$/, '')
    .replace(/^test_/, '')
    .replace(/_test$/, '')
    .replace(/(?<=[a-z0-9])(Tests?|IT)$/, '')
    .toLowerCase();
}

/**
 * Decisions §4: the percentage (0-100) of changed production source files whose change comes with
 * a change to a test file for them (a changed test file whose name carries the source file's stem).
 */
export function testCoverage(files: readonly ChangedFile[]): number {
  const changed = files.filter((f) => f.status !== 'removed');
  const roles = new Map(changed.map((f) => [f.path, fileRole(f.path, f.content)]));
  const tests = changed.filter((f) => roles.get(f.path) === 'test').map((f) => stem(f.path));
  const sources = changed.filter((f) => SOURCE_EXTENSIONS.test(f.path) && roles.get(f.path) === 'production');
  if (sources.length === 0) return 0;
  const covered = sources.filter((f) => tests.includes(stem(f.path))).length;
  return Math.round((covered / sources.length) * 100);
}
