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
  it('stops starting files once the budget is spent and lists the rest as not reviewed', async () => {
    // Every reading of this clock moves it 400 ms: two files start within the 1,000 ms budget.
    let t = 0;
    const result = await reviewChange(
      { files: [file('a.js'), file('b.js'), file('c.js'), file('d.js')] },
      { checkSecurity: true, checkPerformance: true, timeBudgetMs: 1000, now: () => (t += 400) },
    );
    expect(result.findings.map((f) => f.file)).toEqual(['a.js', 'b.js']);
    expect(result.skipped).toEqual([
      { path: 'c.js', reason: 'review time budget reached' },
      { path: 'd.js', reason: 'review time budget reached' },
    ]);
    expect(result.summary).toContain(
      'Not reviewed: c.js (review time budget reached), d.js (review time budget reached).',
    );
  });

  it('reviews everything when the budget is not reached', async () => {
    const result = await reviewChange(
      { files: [file('a.js'), file('b.js')] },
      { checkSecurity: true, checkPerformance: true },
    );
    expect(result.skipped).toEqual([]);
    expect(result.findings).toHaveLength(2);
  });
});

describe('the event loop between files', () => {
  const files = Array.from({ length: 20 }, (_, i) => file(`f${i}.js`));

  /** Turns of the event loop counted while the engine reviews `files` with `turnBudgetMs`. */
  async function turnsDuringReview(turnBudgetMs: number) {
    let turns = 0;
    let done = false;
    const countTurns = () => {
      if (done) return;
      turns += 1;
      setImmediate(countTurns);
    };
    setImmediate(countTurns);
    const result = await reviewChange({ files }, { checkSecurity: true, checkPerformance: true, turnBudgetMs });
    done = true;
    return { turns, result };
  }

  it('with no budget left (0), the loop gets a turn every second file and the findings are the same', async () => {
    const spent = await turnsDuringReview(0);
    const never = await turnsDuringReview(Number.POSITIVE_INFINITY);
    // A run starts at one file and waits at the next: ten runs over twenty files.
    expect(spent.turns).toBeGreaterThanOrEqual(10);
    // Without a budget the whole review is one run: the loop's first turn comes after it.
    expect(never.turns).toBe(0);
    expect(spent.result).toEqual(never.result);
    expect(spent.result.findings).toHaveLength(20);
  });
});
