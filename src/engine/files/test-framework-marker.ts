/**
 * Imports and declarations that only a test file makes, per language. A helper library may import
 * a test framework too, but then it is test support, which a review treats as a test.
 */
const MARKERS: readonly { marker: string; pattern: RegExp }[] = [
  // JavaScript and TypeScript: the runner's own module.
  {
    marker: 'imports a test runner',
    pattern:
      /^\s*import\s.*\bfrom\s+['"](vitest|@jest\/globals|mocha|ava|tap|uvu|node:test|@playwright\/test)['"]|^\s*(const|let|var)\s.*=\s*require\(['"](mocha|ava|tap|node:test)['"]\)/,
  },
  // Python: pytest or unittest with a test case class.
  { marker: 'imports pytest', pattern: /^\s*(import\s+pytest\b|from\s+pytest\s+import\b)/ },
  { marker: 'defines a unittest case', pattern: /^\s*class\s+\w+\((unittest\.)?TestCase\)\s*:/ },
  // Ruby: RSpec and minitest.
  {
    marker: 'requires a test framework',
    pattern: /^\s*require\s+['"](rspec|spec_helper|rails_helper|test_helper|minitest\/autorun|test\/unit)['"]/,
  },
  {
    marker: 'defines a spec or test case',
    pattern: /^\s*(RSpec\.)?describe\s+\S.*\bdo\b|<\s*(Minitest::Test|Test::Unit::TestCase)\b/,
  },
  // Java and Kotlin: JUnit and TestNG.
  { marker: 'imports JUnit or TestNG', pattern: /^\s*import\s+(static\s+)?(org\.junit|org\.testng)\./ },
  // Go: an external test package (only ever in _test.go files, but a path may not say so).
  { marker: 'is a _test package', pattern: /^\s*package\s+\w+_test\s*$/ },
];

/** Why a file's first lines say it is a test, or undefined. */
export function testFrameworkMarker(head: readonly string[]): string | undefined {
  for (const line of head) {
    for (const { marker, pattern } of MARKERS) if (pattern.test(line)) return marker;
  }
  return undefined;
}
