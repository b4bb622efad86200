/**
 * Polls `check` until it holds, for tests that wait on other processes (a server starting, a
 * worker finishing). A check that throws counts as not yet (a server not listening yet); past
 * `ms` it fails naming what it waited for.
 */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
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
