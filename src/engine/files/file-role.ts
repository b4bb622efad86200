import { generatedMarker } from './generated-marker.js';
import { generatedPathPattern } from './generated-path-pattern.js';
import { pathParts } from './path-parts.js';
import { testFrameworkMarker } from './test-framework-marker.js';
import { vendoredDir } from './vendored-dir.js';

/**
 * What a file is for. Production is the product; the others are there to check, explain or show
 * it (test, fixture, docs, example), or were written by a tool or someone else (generated,
 * vendored). The review treats findings by role (`role-policy.ts`).
 */
export const FILE_ROLES = ['production', 'test', 'fixture', 'docs', 'example', 'generated', 'vendored'] as const;

export type FileRole = (typeof FILE_ROLES)[number];

/** Data a test reads: Go's `testdata/` (the toolchain ignores it), fixtures, Jest snapshots. */
const FIXTURE_DIRS = new Set([
  'fixtures',
  'fixture',
  '__fixtures__',
  'testdata',
  'test-data',
  'test_data',
  '__snapshots__',
]);
/** Test code: JS `__tests__`/`__mocks__`, Python `tests/`, Ruby `spec/`/`test/`, Java `src/test/`. */
const TEST_DIRS = new Set(['test', 'tests', 'spec', 'specs', '__tests__', '__mocks__', 'e2e', 'testing']);
/** Gradle and Maven source sets of tests: `src/integrationTest/`, `src/functional-tests/`. */
const TEST_SOURCE_SET = /^(integration|functional|acceptance|unit|system|e2e)[-_]?tests?$|^[a-z]+Tests?$/i;
const TEST_NAME = new RegExp(
  [
    '[._-](test|spec)(-d)?\\.[cm]?[jt]sx?$', // JS/TS: x.test.ts, x.spec.js, x-test.js, index.test-d.ts (tsd)
    '_test\\.(go|py|rb)$', // Go (the toolchain's rule), Python, Ruby minitest
    '^test_[^/]+\\.py$', // pytest (Ruby's test_*.rb sit in test/; in lib/ one is a shipped helper)
    '^conftest\\.py$', // pytest fixtures and hooks
    '_spec\\.rb$', // RSpec
    '(Tests?|IT|TestCase)\\.(java|kt|scala|groovy)$', // JUnit, Failsafe integration tests
  ].join('|'),
);
const DOC_DIRS = new Set(['doc', 'docs', 'documentation', 'man', 'website']);
/** Prose and markup: what a reader reads, not what runs. (`.txt` is not: requirements.txt is configuration.) */
const DOC_NAME = /\.(md|markdown|mdx|rst|adoc|asciidoc|rdoc|textile|pod)$/i;
const EXAMPLE_DIRS = new Set(['example', 'examples', '_examples', 'sample', 'samples', 'demo', 'demos', 'tutorial']);
/**
 * Source roots: below them directories are packages (`org/springframework/samples/petclinic`,
 * Go's `internal/docs`, Rails' `app/controllers/docs` are the product).
 */
const PACKAGE_ROOTS = new Set(['java', 'kotlin', 'scala', 'groovy', 'internal', 'pkg', 'cmd', 'app']);
/** Docs and examples sit near the root (`docs/`, `packages/x/examples/`); deeper a name like `demo` is a module. */
const MAX_DOCS_DEPTH = 3;
/** How far into a file its test framework import or generated header is looked for. */
const HEAD_LINES = 60;

/**
 * The role of a file, from its path by each ecosystem's conventions and, where the path says
 * nothing, from markers in its first lines (a generated-code header, a test framework's import).
 * The most specific wins: vendored and generated code first (whatever it holds), then fixtures
 * (data inside a test tree), tests (an example's tests are tests), docs (`docs/tutorial` is
 * documentation), examples.
 */
export function fileRole(path: string, source?: string): FileRole {
  const { dirs, base } = pathParts(path);
  if (vendoredDir(path) !== undefined) return 'vendored';
  const head = source === undefined ? [] : headLines(source);
  if (generatedPathPattern(path) !== undefined || generatedMarker(head) !== undefined) return 'generated';
  const lowerDirs = dirs.map((d) => d.toLowerCase());
  if (lowerDirs.some((d) => FIXTURE_DIRS.has(d))) return 'fixture';
  if (lowerDirs.some((d) => TEST_DIRS.has(d)) || TEST_NAME.test(base) || testSourceSet(dirs)) return 'test';
  const near = nearRoot(lowerDirs);
  if (near.some((d) => DOC_DIRS.has(d)) || DOC_NAME.test(base)) return 'docs';
  if (near.some((d) => EXAMPLE_DIRS.has(d))) return 'example';
  if (testFrameworkMarker(head) !== undefined) return 'test';
  return 'production';
}

/** `src/<set>/` where the set is a test source set (Gradle's `integrationTest`, `testFixtures`). */
function testSourceSet(dirs: readonly string[]): boolean {
  const at = dirs.indexOf('src');
  const set = at >= 0 ? dirs[at + 1] : undefined;
  return set !== undefined && set !== 'main' && TEST_SOURCE_SET.test(set);
}

/** The directories a docs or examples folder may be: near the root, and not inside a source root's packages. */
function nearRoot(dirs: readonly string[]): readonly string[] {
  const root = dirs.findIndex((d) => PACKAGE_ROOTS.has(d));
  return dirs.slice(0, Math.min(root < 0 ? dirs.length : root, MAX_DOCS_DEPTH));
}

function headLines(source: string): string[] {
  const lines: string[] = [];
  let pos = 0;
  while (lines.length < HEAD_LINES && pos <= source.length) {
    const nl = source.indexOf('\n', pos);
    const end = nl < 0 ? source.length : nl;
    lines.push(source.slice(pos, end));
    if (nl < 0) break;
    pos = nl + 1;
  }
  return lines;
}
