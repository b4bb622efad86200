import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.js';
import { notFound } from '../common/errors.js';
import type { Database } from '../db/schema.js';
import { findVisibleReview } from './repository/find-visible-review.js';
import type { ReviewForRead } from './repository/review-read-along.js';

/**
 * The review for a read route, 404 when the principal cannot see it: what REVIEW_READ_ALONG
 * found when it ran for this id (every counted request), else read here.
 */
export async function findReviewForRead(
  db: Kysely<Database>,
  principal: Pick<Principal, 'userId' | 'mode'>,
  id: string,
  readAlong: { row: ReviewForRead | undefined } | undefined,
): Promise<ReviewForRead> {
  // PostgreSQL refuses a NUL in text; no id has one.
  if (id.includes('\u0000')) throw notFound('Review');
  if (readAlong === undefined) return findVisibleReview(db, principal, id);
  if (readAlong.row === undefined) throw notFound('Review');
  return readAlong.row;
}
