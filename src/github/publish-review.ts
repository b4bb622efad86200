import type { Octokit } from '@octokit/rest';
import { AppError, upstreamError } from '../common/errors.js';
import type { ReviewEvent, ReviewFinding, ReviewPlan } from '../common/github-review/build-review-plan.js';
import { httpStatusOf } from './octokit.js';
import type { PullRequestRef } from './pull-requests.js';

export interface PublishedReview {
  /** GitHub's id of the review. */
  reviewId: number;
  event: ReviewEvent;
  /** Inline comments GitHub took (0 after the fallback). */
  inlineComments: number;
  /** GitHub refused the inline comments and the review went out with all of them in its body. */
  fallback: boolean;
}

function failure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = httpStatusOf(error);
  const reason = error instanceof Error ? `: ${error.message}` : '';
  return upstreamError(`GitHub refused the review${status !== undefined ? ` (HTTP ${status}${reason})` : ''}`, error);
}

/**
 * One GitHub review per run (decisions §7), on the reviewed commit, with the plan's event, body
 * and inline comments. The plan put every comment on a line of that commit's diff; should GitHub
 * still refuse one (422: the whole review is refused with it), the review is sent again once
 * with no inline comments and every new finding in its body, rather than not at all. Other
 * failures (after Octokit's retries of 5xx and rate limits) throw an AppError for the caller to
 * record.
 */
export async function publishReview(
  octokit: Octokit,
  pr: PullRequestRef,
  commitId: string,
  plan: Pick<ReviewPlan<ReviewFinding>, 'event' | 'body' | 'comments' | 'fallbackBody'>,
): Promise<PublishedReview> {
  const target = { owner: pr.owner, repo: pr.repo, pull_number: pr.number, commit_id: commitId, event: plan.event };
  try {
    const { data } = await octokit.pulls.createReview({ ...target, body: plan.body, comments: plan.comments });
    return { reviewId: data.id, event: plan.event, inlineComments: plan.comments.length, fallback: false };
  } catch (error) {
    if (httpStatusOf(error) !== 422 || plan.comments.length === 0 || error instanceof AppError) throw failure(error);
  }
  try {
    const { data } = await octokit.pulls.createReview({ ...target, body: plan.fallbackBody });
    return { reviewId: data.id, event: plan.event, inlineComments: 0, fallback: true };
  } catch (error) {
    throw failure(error);
  }
}
