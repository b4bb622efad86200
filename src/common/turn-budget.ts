/**
 * How long work that runs inside this process without I/O (the embedded database's statements)
 * may keep the event loop from a turn before it waits for one. (The engine does not take turns:
 * tried, it cost 13-17% more engine CPU; decisions §21.)
 */
export const EVENT_LOOP_TURN_BUDGET_MS = 10;

/**
 * A pause for long runs of in-process work: call it after each step and await it. It resolves
 * at once (a microtask) until the run, timed from its first pause, has taken over `budgetMs`;
 * then it waits for a turn (setImmediate), so sockets are read, timers fire and health checks
 * answer in between. A stall is thus at most the budget plus the run's first step. Work that
 * never runs that long never waits, and a burst of short steps keeps running together. Under
 * fake timers that fake setImmediate (vi.useFakeTimers), a spent budget waits until they run.
 */
export function turnBudget(budgetMs: number = EVENT_LOOP_TURN_BUDGET_MS): () => Promise<void> {
  // Set while steps run with no turn in between: a watcher, queued for the loop's next check
  // phase when a run starts, clears it.
  let runStartedAt: number | undefined;
  return async () => {
    const now = performance.now();
    if (runStartedAt === undefined) {
      runStartedAt = now;
      setImmediate(() => {
        runStartedAt = undefined;
      });
    } else if (now - runStartedAt > budgetMs) {
      // The watcher was queued first: by the time this resumes, it has ended the run.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
}
