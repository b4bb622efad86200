/** The longest pause between two tries of a database that keeps failing. */
export const MAX_ERROR_PAUSE_MS = 5_000;

/**
 * The pause after the `failures`-th database error in a row: `basePause` doubled each time,
 * capped at MAX_ERROR_PAUSE_MS (or at `basePause` when that is longer). Job loops, periodic
 * tasks and the background release of an idempotency key all wait for a database this way.
 */
export function backoffPause(basePause: number, failures: number): number {
  return Math.min(basePause * 2 ** Math.max(0, failures - 1), Math.max(basePause, MAX_ERROR_PAUSE_MS));
}
