import type { Review } from '../client/api-types.js';
import type { RedlineClient } from '../client/redline-client.js';

const DONE = new Set(['completed', 'failed', 'cancelled']);

/** 1 s, 1.5 s, 2.25 s, ... up to 10 s: quick for test reviews, gentle on the rate limit for long ones. */
export function pollDelayMs(poll: number): number {
  return Math.min(Math.round(1000 * 1.5 ** poll), 10_000);
}

export interface WaitOptions {
  signal: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every review read, so the caller knows the last status if the wait is cut short. */
  onRead?: (review: Review) => void;
}

/** Polls the review until it is completed, failed or cancelled; the signal ends the wait. */
export async function waitForReview(client: RedlineClient, id: string, options: WaitOptions): Promise<Review> {
  for (let poll = 0; ; poll++) {
    await options.sleep(pollDelayMs(poll), options.signal);
    const review = await client.getReview(id, { signal: options.signal });
    options.onRead?.(review);
    if (DONE.has(review.status)) return review;
  }
}
