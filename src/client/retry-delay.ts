/** Exponential backoff when the API gives no hint: 1 s, 2 s, 4 s, ... up to 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/**
 * How long to wait before trying again, in milliseconds, or undefined when the answer says
 * nothing. `Retry-After` (seconds or an HTTP date) wins; on a 429 `X-RateLimit-Reset` (epoch
 * seconds, decisions §6) is the fallback, since the window it names is when requests count again.
 */
export function hintedDelayMs(status: number, headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const reset = headers.get('x-ratelimit-reset')?.trim();
  if (status === 429 && reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - nowMs);
  return undefined;
}
