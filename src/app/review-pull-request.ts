import type { Octokit } from '@octokit/rest';
import type { Clock } from '../common/clock.js';
import { AppError } from '../common/errors.js';
import { completeCheckRun, startCheckRun } from '../github/check-run.js';
import { readRepositoryConfig } from '../github/read-repository-config.js';
import { reviewSkipReason } from '../github/review-skip-reason.js';
import type { ReviewService } from '../reviews/review-service.js';

/** What the app needs to know of a pull request, from a `pull_request` or `issue_comment` event. */
export interface PullRequestEventInfo {
  owner: { id: number; login: string; kind: 'user' | 'organization' };
  repo: string;
  repositoryId: number;
  number: number;
  url: string;
  title: string;
  headSha: string;
  headRef: string;
  baseRef: string;
  draft: boolean;
  author: string;
  /** The pull request's `updated_at` as the event tells it. */
  updatedAt: Date;
}

export interface ReviewPullRequestDeps {
  clock: Clock;
  publicUrl: string;
  reviews: ReviewService;
  logger?: { warn(obj: object, msg: string): void } | undefined;
}

/**
 * The app's answer to a pull request (decisions §7): the repository's configuration from its
 * default branch, a `Redline` check run on the head commit (in progress), and a review queued
 * under that configuration. A skipped pull request gets a neutral check run with the reason;
 * one the service refuses (quota) too, so a check never stays in progress or claims success.
 */
export async function reviewPullRequest(
  deps: ReviewPullRequestDeps,
  octokit: Octokit,
  pr: PullRequestEventInfo,
  trigger: 'event' | 'command',
): Promise<void> {
  const repo = { owner: pr.owner.login, repo: pr.repo };
  const read = await readRepositoryConfig(octokit, repo);
  const skip = reviewSkipReason(read.config, { trigger, draft: pr.draft, baseBranch: pr.baseRef });
  if (skip !== undefined && trigger === 'event' && !read.config.enabled) {
    // Turned off: no check run at all, as if Redline were not installed.
    return;
  }
  const now = deps.clock.now();
  const checkRunId = await startCheckRun(octokit, repo, pr.headSha, { now });
  const run = { ...repo, checkRunId };
  if (skip !== undefined) {
    await completeCheckRun(octokit, run, { kind: 'skipped', reason: skip }, { now, configErrors: read.errors });
    return;
  }
  let created: Awaited<ReturnType<ReviewService['createForApp']>>;
  try {
    created = await deps.reviews.createForApp({
      owner: pr.owner,
      repo: pr.repo,
      repositoryId: String(pr.repositoryId),
      number: pr.number,
      url: pr.url,
      title: pr.title,
      branch: pr.headRef,
      author: pr.author,
      headSha: pr.headSha,
      checkSecurity: read.config.checks.security,
      checkPerformance: read.config.checks.performance,
      repositoryConfig: { config: read.config as unknown as Record<string, unknown>, errors: read.errors },
      checkRunId,
      pullRequestUpdatedAt: pr.updatedAt,
    });
  } catch (error) {
    const refused = error instanceof AppError && error.status < 500;
    const reason = refused
      ? `Redline could not start the review: ${error.message}`
      : 'Redline could not start the review because of an internal error; it tries again.';
    // An internal failure retries this whole handler, which starts a new check run: this one is
    // closed (neutral) first so it never stays in progress. If even that fails, the retry stands.
    try {
      await completeCheckRun(
        octokit,
        run,
        { kind: 'failed', reason },
        { now: deps.clock.now(), configErrors: read.errors },
      );
    } catch (closing) {
      if (refused) throw closing;
      deps.logger?.warn({ err: closing, check_run_id: checkRunId }, 'a failed check run could not be closed');
    }
    if (!refused) throw error;
    return;
  }
  if (created.review === undefined) {
    await completeCheckRun(
      octokit,
      run,
      { kind: 'skipped', reason: 'A newer push of this pull request is already reviewed.' },
      { now: deps.clock.now(), configErrors: read.errors },
    );
    return;
  }
  for (const old of created.superseded) {
    if (old.check_run_id === null) continue;
    try {
      await completeCheckRun(
        octokit,
        { ...repo, checkRunId: old.check_run_id },
        { kind: 'skipped', reason: `Superseded by a newer push (${pr.headSha.slice(0, 7)}).` },
        { now: deps.clock.now() },
      );
    } catch (error) {
      deps.logger?.warn({ err: error, check_run_id: old.check_run_id }, 'a superseded check run could not be closed');
    }
  }
}
