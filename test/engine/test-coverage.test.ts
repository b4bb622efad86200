import { describe, expect, it } from 'vitest';
import { testCoverage } from '../../src/engine/test-coverage.js';
import type { ChangedFile } from '../../src/engine/types.js';

const changed = (path: string, status: ChangedFile['status'] = 'modified'): ChangedFile => ({
  path,
  status,
  additions: 1,
  deletions: 0,
});

describe('testCoverage: the share of changed production sources changed with their test', () => {
  it('pairs a source with its test by stem, in each convention', () => {
    const files = [
      changed('src/cart.ts'),
      changed('src/cart.test.ts'),
      changed('app/views.py'),
      changed('tests/test_views.py'),
      changed('src/main/java/org/acme/Owner.java'),
      changed('src/test/java/org/acme/OwnerTest.java'),
      changed('lib/user.rb'),
    ];
    // cart, views and Owner have their test; user has none.
    expect(testCoverage(files)).toBe(75);
  });

  it('counts neither fixtures as tests nor docs and examples as sources', () => {
    const files = [
      changed('src/cart.ts'),
      changed('test/fixtures/cart.js'),
      changed('examples/cart.js'),
      changed('docs/conf.py'),
    ];
    expect(testCoverage(files)).toBe(0);
    expect(testCoverage([changed('examples/cart.js'), changed('docs/conf.py')])).toBe(0);
    expect(testCoverage([changed('src/cart.ts'), changed('src/cart.test.ts'), changed('examples/demo.js')])).toBe(100);
  });
});
