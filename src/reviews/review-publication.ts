import type { ReviewRow } from '../db/schema.js';

/** Whether the GitHub App posted a review to its pull request (the review's `publication`). */
export const PUBLICATIONS = ['pending', 'published', 'unpublished'] as const;
export type Publication = (typeof PUBLICATIONS)[number];

export type PublicationRow = Pick<
  ReviewRow,
  'mode' | 'source' | 'options' | 'status' | 'published_at' | 'github_review_id'
>;

/**
 * Whether the review goes to the publisher (decisions §20): app reviews always (their check run
 * must be closed), live API reviews asking for inline comments once completed; the publisher then
 * finds whether the App is installed on the repository.
 */
export function goesToPublisher(review: Omit<PublicationRow, 'published_at' | 'github_review_id'>): boolean {
  if (review.mode !== 'live') return false;
  if (review.source === 'app') return true;
  return review.options.inline_comments && review.status !== 'failed' && review.status !== 'cancelled';
}

/**
 * `published` once the App posted the GitHub review, `unpublished` when it will not (test mode,
 * `inline_comments: false`, the App not installed on the repository, GitHub refusing it, a review
 * that failed), `pending` while the publisher may still post it. The action posts the review
 * itself only on `unpublished`.
 */
export function reviewPublication(review: PublicationRow): Publication {
  if (review.published_at !== null) return review.github_review_id !== null ? 'published' : 'unpublished';
  return goesToPublisher(review) ? 'pending' : 'unpublished';
}

/** The fingerprint a stored comment is published under: the engine's, or one made of its place. */
export function storedFingerprint(comment: {
  fingerprint: string | null;
  rule_id: string | null;
  file: string;
  line: number;
}): string {
  return comment.fingerprint ?? `${comment.rule_id}:${comment.file}:${comment.line}`;
}
