import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/engine/review-change.js';
import type { ChangedFile } from '../../src/engine/types.js';

const file = (path: string): ChangedFile => ({
  path,
  status: 'added',
  additions: 2,
  deletions: 0,
  patch: '@@ -0,0 +1,2 @@\n+const run = (code) => eval(code);\n+export default run;',
});

describe('the review time budget', () => {
  it('stops starting files once the budget is spent and lists the rest as not reviewed', () => {
    // Every reading of this clock moves it 400 ms: two files start within the 1,000 ms budget.
    let t = 0;
    const result = reviewChange(
      { files: [file('a.js'), file('b.js'), file('c.js'), file('d.js')] },
      { checkSecurity: true, checkPerformance: true, timeBudgetMs: 1000, now: () => (t += 400) },
    );
    expect(result.findings.map((f) => f.file)).toEqual(['a.js', 'b.js']);
    expect(result.skipped).toEqual([
      { path: 'c.js', reason: 'review time budget reached' },
      { path: 'd.js', reason: 'review time budget reached' },
    ]);
    expect(result.summary).toContain(
      'Not reviewed, 2 files: c.js (review time budget reached), d.js (review time budget reached).',
    );
  });

  it('reviews everything when the budget is not reached', () => {
    const result = reviewChange(
      { files: [file('a.js'), file('b.js')] },
      { checkSecurity: true, checkPerformance: true },
    );
    expect(result.skipped).toEqual([]);
    expect(result.findings).toHaveLength(2);
  });
});
