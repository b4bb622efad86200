import { vi } from 'vitest';

/**
 * When a wait is taken for a hang: a little under the suite's test timeout (vitest.config.ts), so
 * a stuck wait fails naming what it waited for before vitest fails the test without saying. Not a
 * figure for how long anything should take: on a loaded machine that can be many times the usual.
 */
export const HANG_MS = 540_000;

/**
 * Polls `check` until it holds, for tests that wait on other processes (a server starting, a
 * worker finishing). A check that throws counts as not yet (a server not listening yet); past
 * `ms` it fails naming what it waited for. Pass `ms` only where a bound is the behaviour under
 * test (say, sooner than a 10 s timeout that would otherwise do it), never as a guess of how long
 * something takes.
 */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms = HANG_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `vi.waitFor` with HANG_MS as its bound: its default (1 s) is a guess of how long something
 * takes, which a loaded machine overruns.
 */
export function eventually<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: HANG_MS, interval: 20 });
}
