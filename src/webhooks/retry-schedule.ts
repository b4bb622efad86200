/** Spec 6.4: attempt n waits delays[n - 1] after the previous failure (the first is immediate). */
export const MAX_DELIVERY_ATTEMPTS = 5;

/** The wait before the attempt after `failedAttempt` (1-based), or undefined when none is left. */
export function delayAfterFailure(delaysMs: readonly number[], failedAttempt: number): number | undefined {
  if (failedAttempt >= MAX_DELIVERY_ATTEMPTS) return undefined;
  return delaysMs[failedAttempt] ?? undefined;
}

/** Spec 6.4: success is exactly one of these; anything else, a redirect included, is a failure. */
export function isDeliverySuccess(status: number): boolean {
  return status === 200 || status === 201 || status === 202 || status === 204;
}
