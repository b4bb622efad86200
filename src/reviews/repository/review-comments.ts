import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, ReviewCommentRow, ReviewCommentsTable } from '../../db/schema.js';

/** Writes a review's comments in the caller's transaction (the one completing the review). */
export async function insertReviewComments(
  trx: Transaction<Database>,
  comments: readonly Insertable<ReviewCommentsTable>[],
): Promise<void> {
  if (comments.length > 0) await trx.insertInto('review_comments').values(comments).execute();
}

/** Decisions §4: a review's comments by file, then line (the index's order). */
export function listReviewComments(db: Kysely<Database>, reviewId: string): Promise<ReviewCommentRow[]> {
  return db
    .selectFrom('review_comments')
    .selectAll()
    .where('review_id', '=', reviewId)
    .orderBy('file')
    .orderBy('line')
    .orderBy('id')
    .execute();
}

/** A review's comments in no particular order, for a caller that orders them itself (planReview). */
export function reviewCommentsUnordered(db: Kysely<Database>, reviewId: string): Promise<ReviewCommentRow[]> {
  return db.selectFrom('review_comments').selectAll().where('review_id', '=', reviewId).execute();
}

/** The type and severity of each of a review's comments: what its statistics count. */
export function reviewCommentKinds(
  db: Kysely<Database>,
  reviewId: string,
): Promise<Pick<ReviewCommentRow, 'type' | 'severity'>[]> {
  return db.selectFrom('review_comments').select(['type', 'severity']).where('review_id', '=', reviewId).execute();
}
