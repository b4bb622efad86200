import { createHash } from 'node:crypto';
import type { CreateReviewInput } from '../client/api-types.js';

/**
 * The Idempotency-Key of this step's create call: the same for every attempt of one workflow run
 * (GITHUB_RUN_ATTEMPT is left out on purpose), so "Re-run jobs" finds the review the first
 * attempt made instead of making a second one. The body is part of it, so a changed request
 * never collides with an old one (the API would answer 422). Outside a workflow run: none.
 */
export function idempotencyKey(env: Record<string, string | undefined>, body: CreateReviewInput): string | undefined {
  if (!env.GITHUB_RUN_ID) return undefined;
  const parts = [
    env.GITHUB_SERVER_URL ?? '',
    env.GITHUB_REPOSITORY ?? '',
    env.GITHUB_RUN_ID,
    env.GITHUB_JOB ?? '',
    env.GITHUB_ACTION ?? '',
    JSON.stringify(body),
  ];
  return `redline-action-${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}
