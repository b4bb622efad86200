import { conflict } from '../common/errors.js';
import type { ReviewStatus } from '../db/schema.js';

export type ReviewAction = 'start' | 'cancel' | 'retry' | 'complete' | 'fail';

/**
 * The review state machine (spec 3.1 completed by decisions §4), in one place. Anything not listed
 * is refused with 409 conflict; `complete` and `fail` come from processing, the rest from clients.
 */
const TRANSITIONS: Record<ReviewAction, Partial<Record<ReviewStatus, ReviewStatus>>> = {
  start: { pending: 'in_progress' },
  cancel: { pending: 'cancelled', in_progress: 'cancelled' },
  retry: { failed: 'in_progress' },
  complete: { in_progress: 'completed' },
  fail: { in_progress: 'failed' },
};

export function canTransition(from: ReviewStatus, action: ReviewAction): boolean {
  return TRANSITIONS[action][from] !== undefined;
}

export function nextStatus(from: ReviewStatus, action: ReviewAction): ReviewStatus {
  const to = TRANSITIONS[action][from];
  if (to === undefined) throw conflict(`Cannot ${action} a review that is ${from}`);
  return to;
}

/** The statuses an action may start from, for conditional updates (`where status in (...)`). */
export function sourcesOf(action: ReviewAction): ReviewStatus[] {
  return Object.keys(TRANSITIONS[action]) as ReviewStatus[];
}
