import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffPause, MAX_ERROR_PAUSE_MS } from '../../src/common/backoff-pause.js';
import { PeriodicTask } from '../../src/jobs/periodic-task.js';

/**
 * Workers outlive a database that is away and ask less often the longer it lasts, so a
 * fleet of them does not hammer a server that is coming back; the first success restores the
 * normal pace.
 */
describe('backing off while the database fails', () => {
  afterEach(() => vi.useRealTimers());

  it('doubles the idle pause per failure in a row, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffPause(500, n))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect(MAX_ERROR_PAUSE_MS).toBe(5000);
    // A period longer than the cap is kept: housekeeping every 30 s does not run more often.
    expect(backoffPause(30_000, 4)).toBe(30_000);
  });

  it('runs a periodic task later after each failure, and at its period again once it succeeds', async () => {
    vi.useFakeTimers({ now: 0 });
    const runs: number[] = [];
    let failuresLeft = 3;
    const warnings: object[] = [];
    const errors: object[] = [];
    const worker = new PeriodicTask({
      name: 'dispatch',
      everyMs: 100,
      logger: { info() {}, warn: (obj) => warnings.push(obj), error: (obj) => errors.push(obj) },
      task: async () => {
        runs.push(Date.now());
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('Connection terminated unexpectedly');
        }
      },
    });
    await worker.start();
    await vi.advanceTimersByTimeAsync(1000);
    await worker.stop();
    // Fails at 100, 200 and 400 (pauses 100, 200, 400), succeeds at 800, then every 100 ms.
    expect(runs).toEqual([100, 200, 400, 800, 900, 1000]);
    // An outage is a warning, not an error.
    expect(warnings).toHaveLength(3);
    expect(errors).toEqual([]);
  });
});
