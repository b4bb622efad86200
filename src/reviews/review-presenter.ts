import type { ReviewCommentRow, ReviewRow } from '../db/schema.js';
import { reviewPublication, storedFingerprint } from './review-publication.js';

/** The columns presentReview reads: what a read of a review needs to fetch for it. */
export const PRESENTED_REVIEW_COLUMNS = [
  'id',
  'status',
  'score',
  'summary',
  'pr_url',
  'pr_number',
  'pr_title',
  'repository',
  'branch',
  'author',
  'stats',
  'created_at',
  'completed_at',
  'organization_id',
  'team_id',
  'error_code',
  'error_message',
  'mode',
  'source',
  'options',
  'published_at',
  'github_review_id',
] as const satisfies readonly (keyof ReviewRow)[];

export type PresentedReviewRow = Pick<ReviewRow, (typeof PRESENTED_REVIEW_COLUMNS)[number]>;

/** Spec 2.1/2.2/2.3: the review as clients see it. Score, summary and stats are null until completion. */
export function presentReview(row: PresentedReviewRow) {
  return {
    id: row.id,
    status: row.status,
    score: row.score,
    summary: row.summary,
    pull_request: {
      url: row.pr_url,
      number: row.pr_number,
      title: row.pr_title,
      repository: row.repository,
      branch: row.branch,
      author: row.author,
    },
    stats: row.stats,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
    organization_id: row.organization_id,
    team_id: row.team_id,
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
    publication: reviewPublication(row),
  };
}

/** Spec 2.4; the optional fields are left out when empty. */
export function presentComment(row: ReviewCommentRow) {
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    message: row.message,
    file: row.file,
    line: row.line,
    rule_id: row.rule_id ?? 'redline',
    fingerprint: storedFingerprint(row),
    ...(row.suggestion !== null ? { suggestion: row.suggestion } : {}),
    ...(row.code_snippet !== null ? { code_snippet: row.code_snippet } : {}),
  };
}
