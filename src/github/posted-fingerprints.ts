import type { Octokit } from '@octokit/rest';
import { AppError, upstreamError } from '../common/errors.js';
import { inlineCommentFingerprint, reviewBodyFingerprints } from '../common/github-review/fingerprint-marker.js';
import { httpStatusOf } from './octokit.js';
import type { PullRequestRef } from './pull-requests.js';

interface Author {
  login: string;
  type?: string | undefined;
}

/**
 * The fingerprints earlier reviews posted on a pull request (decisions §7: not posted again on
 * `synchronize`): the markers of its review comments and of its reviews' bodies, all pages.
 * Only our own comments count: those of `author` (the app's bot login) when given, else those of
 * any bot account; a person cannot hide a finding by pasting a marker. Throws an AppError (502)
 * when GitHub cannot list them, after Octokit's retries: publishing duplicates would be worse.
 */
export async function listPostedFingerprints(
  octokit: Octokit,
  pr: PullRequestRef,
  options: { author?: string | undefined } = {},
): Promise<Set<string>> {
  const author = options.author?.toLowerCase();
  const ours = (user: Author | null | undefined) =>
    user != null && (author !== undefined ? user.login.toLowerCase() === author : user.type === 'Bot');
  const params = { owner: pr.owner, repo: pr.repo, pull_number: pr.number, per_page: 100 };
  const fingerprints = new Set<string>();
  try {
    const comments = await octokit.paginate(octokit.pulls.listReviewComments, params);
    for (const comment of comments) {
      const fingerprint = ours(comment.user) ? inlineCommentFingerprint(comment.body) : undefined;
      if (fingerprint !== undefined) fingerprints.add(fingerprint);
    }
    const reviews = await octokit.paginate(octokit.pulls.listReviews, params);
    for (const review of reviews) {
      if (!ours(review.user) || !review.body) continue;
      for (const fingerprint of reviewBodyFingerprints(review.body)) fingerprints.add(fingerprint);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const status = httpStatusOf(error);
    throw upstreamError(
      `GitHub could not list the pull request's earlier comments${status !== undefined ? ` (HTTP ${status})` : ''}`,
      error,
    );
  }
  return fingerprints;
}
