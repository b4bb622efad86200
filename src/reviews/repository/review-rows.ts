import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, ReviewRow, ReviewsTable } from '../../db/schema.js';

// The reviews table's statements, whoever may see the review: the routes check visibility first
// (findVisibleReview), the workers act on any review. A write that must commit with others (the
// outbox's events, a job) takes the caller's transaction.

type Executor = Kysely<Database> | Transaction<Database>;

/** The review with this id, or undefined. */
export function findReview(db: Executor, id: string): Promise<ReviewRow | undefined> {
  return db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertReview(trx: Transaction<Database>, values: Insertable<ReviewsTable>): Promise<ReviewRow> {
  return trx.insertInto('reviews').values(values).returningAll().executeTakeFirstOrThrow();
}

/** The review changed as given; it must exist (the caller holds it locked). */
export function updateReview(
  trx: Transaction<Database>,
  id: string,
  changes: Updateable<ReviewsTable>,
): Promise<ReviewRow> {
  return trx.updateTable('reviews').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * The review changed as given only while it is still in progress with that attempt; undefined
 * when it moved on (a cancel or a retry meanwhile wins over a worker's result).
 */
export function updateReviewAttempt(
  db: Executor,
  queued: Pick<ReviewRow, 'id' | 'attempt'>,
  changes: Updateable<ReviewsTable>,
): Promise<ReviewRow | undefined> {
  return db
    .updateTable('reviews')
    .set(changes)
    .where('id', '=', queued.id)
    .where('status', '=', 'in_progress')
    .where('attempt', '=', queued.attempt)
    .returningAll()
    .executeTakeFirst();
}

/** Whether an app review exists for a state of this pull request newer than `updatedAt`. */
export async function newerAppReviewExists(
  trx: Transaction<Database>,
  prUrl: string,
  updatedAt: Date,
): Promise<boolean> {
  const newer = await trx
    .selectFrom('reviews')
    .select('id')
    .where('source', '=', 'app')
    .where('pr_url', '=', prUrl)
    .where('pr_updated_at', '>', updatedAt)
    .executeTakeFirst();
  return newer !== undefined;
}

/** Cancels this pull request's app reviews still pending or in progress; answers them cancelled. */
export function cancelOpenAppReviews(trx: Transaction<Database>, prUrl: string, now: Date): Promise<ReviewRow[]> {
  return trx
    .updateTable('reviews')
    .set({ status: 'cancelled', updated_at: now })
    .where('source', '=', 'app')
    .where('pr_url', '=', prUrl)
    .where('status', 'in', ['pending', 'in_progress'])
    .returningAll()
    .execute();
}

/** Up to `limit` reviews still in progress past their deadline. */
export function overdueReviews(db: Executor, now: Date, limit: number): Promise<Pick<ReviewRow, 'id' | 'attempt'>[]> {
  return db
    .selectFrom('reviews')
    .select(['id', 'attempt'])
    .where('status', '=', 'in_progress')
    .where('deadline_at', '<', now)
    .limit(limit)
    .execute();
}

/** Marks the review published unless it already was; undefined then. */
export function markReviewPublished(
  trx: Transaction<Database>,
  id: string,
  githubReviewId: number | null,
  now: Date,
): Promise<ReviewRow | undefined> {
  return trx
    .updateTable('reviews')
    .set({ published_at: now, github_review_id: githubReviewId })
    .where('id', '=', id)
    .where('published_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
