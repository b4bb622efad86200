import type { Kysely, Transaction } from 'kysely';
import { newId } from '../common/ids.js';
import type { Database, ReviewCommentRow, ReviewRow } from '../db/schema.js';
import { verdictOf } from '../engine/verdict.js';

export type ReviewEventType =
  | 'review.created'
  | 'review.started'
  | 'review.in_progress'
  | 'review.completed'
  | 'review.failed'
  | 'review.cancelled'
  | 'security.alert'
  | 'pr.approved'
  | 'pr.changes_requested'
  | 'config.updated';

/** review.completed's `summary` (spec 6.3): our severities mapped to critical/high/medium/low. */
export function eventSummary(comments: readonly Pick<ReviewCommentRow, 'severity'>[]) {
  const count = (s: string) => comments.filter((c) => c.severity === s).length;
  return {
    status: verdictOf(comments),
    issues_found: comments.length,
    critical: count('critical'),
    high: count('important'),
    medium: count('warning'),
    low: count('info'),
  };
}

/** Decisions §5: the `data` shared by every review.* event. */
export function reviewEventData(review: ReviewRow, publicUrl: string) {
  return {
    review_id: review.id,
    status: review.status,
    repository: { id: review.repository_id, name: review.repository, provider: 'github' },
    pull_request: { number: review.pr_number, title: review.pr_title, url: review.pr_url },
    review_url: `${publicUrl}/v1/reviews/${review.id}`,
  };
}

/** Writes events to the outbox in the caller's transaction: they exist exactly when the change does. */
export async function recordEvents(
  trx: Transaction<Database>,
  review: ReviewRow,
  events: { type: ReviewEventType; data: Record<string, unknown> }[],
  now: Date,
): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto('events')
    .values(
      events.map((e) => ({
        id: newId('evt'),
        type: e.type,
        mode: review.mode,
        user_id: review.user_id,
        organization_id: review.organization_id,
        review_id: review.id,
        data: JSON.stringify(e.data),
        created_at: now,
      })),
    )
    .execute();
}

/**
 * One event not tied to a review (config.updated), for the members of an organization. A given
 * id makes the write idempotent: a handler run twice records it once.
 */
export async function recordEvent(
  db: Kysely<Database>,
  event: {
    id?: string;
    type: ReviewEventType;
    mode: 'live' | 'test';
    organizationId: string;
    data: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('events')
    .values({
      id: event.id ?? newId('evt'),
      type: event.type,
      mode: event.mode,
      organization_id: event.organizationId,
      data: JSON.stringify(event.data),
      created_at: event.now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
