import type { Octokit } from '@octokit/rest';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../common/clock.js';
import { commentableLines } from '../common/diff/commentable-lines.js';
import type { Database, JobRow, ReviewRow } from '../db/schema.js';
import { type CheckRunOutcome, completeCheckRun } from '../github/check-run.js';
import { planReview } from '../github/plan-review.js';
import { listPostedFingerprints } from '../github/posted-fingerprints.js';
import { publishReview } from '../github/publish-review.js';
import { listPullRequestFiles, readPullRequest } from '../github/pull-requests.js';
import { defaultRepositoryConfig } from '../github/repository-config.js';
import { enqueueJob } from '../jobs/enqueue-job.js';
import { QUEUES } from '../jobs/queues.js';
import { reviewCommentsUnordered } from './repository/review-comments.js';
import { findReview, markReviewPublished } from './repository/review-rows.js';
import { recordEvents, reviewEventData } from './review-events.js';
import { goesToPublisher, storedFingerprint } from './review-publication.js';
import { storedRepositoryConfig } from './stored-repository-config.js';

/**
 * Queues publishing a review that reached an end state, in the caller's transaction, when it goes
 * to the publisher (goesToPublisher); an API review only once completed.
 */
export async function enqueuePublish(trx: Transaction<Database>, review: ReviewRow, now: Date): Promise<void> {
  if (!goesToPublisher(review)) return;
  if (review.source !== 'app' && review.status !== 'completed') return;
  await enqueueJob(
    trx,
    {
      id: `publish_${review.id}_${review.attempt}`,
      queue: QUEUES.publish,
      payload: { review_id: review.id },
      maxAttempts: 5,
    },
    now,
  );
}

export interface ReviewPublisherDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  /** The app's installation on the repository, or undefined when not installed (or no app). */
  appOctokit(owner: string, repo: string): Promise<Octokit | undefined>;
  /** The app's bot login: only its earlier comments count as already posted. */
  botLogin(): Promise<string | undefined>;
  logger?: { warn(obj: object, msg: string): void } | undefined;
}

/**
 * Publishes a finished review to its pull request (decisions §7): one GitHub review on the
 * reviewed commit, the check run completed, and `pr.approved` / `pr.changes_requested` emitted.
 * At most once per review (`published_at`); a failed or cancelled review only closes its check
 * run, neutral, with the reason.
 */
export function makeReviewPublisher(deps: ReviewPublisherDeps) {
  return async (job: JobRow): Promise<void> => {
    const { review_id: reviewId } = job.payload as { review_id: string };
    const review = await findReview(deps.db, reviewId);
    if (review === undefined || review.published_at !== null || review.head_sha === null) return;
    const [owner, repo] = review.repository.split('/') as [string, string];
    const octokit = await deps.appOctokit(owner, repo);
    if (octokit === undefined) {
      // Recorded, so a reader (the CI action) learns the App will not post it and may post it itself.
      await markPublished(deps, review, undefined);
      return;
    }
    const stored = storedRepositoryConfig(review.repository_config);
    const run = review.check_run_id === null ? undefined : { owner, repo, checkRunId: review.check_run_id };
    const close = async (outcome: CheckRunOutcome) => {
      if (run === undefined) return;
      try {
        await completeCheckRun(octokit, run, outcome, { now: deps.clock.now(), configErrors: stored.errors });
      } catch (error) {
        // The review itself is out; a check run left open is logged, not worth a second review.
        deps.logger?.warn({ err: error, review_id: review.id }, 'the check run could not be completed');
      }
    };

    if (review.status !== 'completed') {
      if (review.status === 'in_progress' || review.status === 'pending') return;
      await markPublished(deps, review, undefined);
      await close(
        review.status === 'failed'
          ? { kind: 'failed', reason: review.error_message ?? 'The review failed.' }
          : { kind: 'skipped', reason: 'The review was cancelled or superseded by a newer push.' },
      );
      return;
    }

    const ref = { owner, repo, number: review.pr_number };
    try {
      const comments = await reviewCommentsUnordered(deps.db, review.id);
      // Inline comments must sit on lines of the reviewed commit's diff: when the pull request
      // has moved on since, its current diff says nothing about that commit, so every finding
      // goes to the review body instead.
      const current = await readPullRequest(octokit, ref);
      const files = current.headSha === review.head_sha ? await listPullRequestFiles(octokit, ref) : [];
      const posted = await listPostedFingerprints(octokit, ref, { author: await deps.botLogin() });
      const plan = planReview({
        findings: comments.map((c) => ({
          file: c.file,
          line: c.line,
          fingerprint: storedFingerprint(c),
          severity: c.severity,
          type: c.type,
          message: c.message,
          suggestion: c.suggestion ?? undefined,
          ruleId: c.rule_id ?? 'redline',
        })),
        commentable: commentableLines(files),
        config: review.source === 'app' ? stored.config : defaultRepositoryConfig(),
        posted,
        summary: review.summary ?? undefined,
      });
      const published = await publishReview(octokit, ref, review.head_sha, plan);
      await markPublished(deps, review, published);
      await close({ kind: 'reviewed', plan, summary: review.summary ?? undefined });
    } catch (error) {
      // GitHub refused for good (after Octokit's retries and this job's): say so on the check
      // run rather than leave it in progress, and stop trying.
      if (job.attempts < job.max_attempts) throw error;
      deps.logger?.warn({ err: error, review_id: review.id }, 'the review could not be published');
      await markPublished(deps, review, undefined);
      const reason = error instanceof Error ? error.message : String(error);
      await close({ kind: 'failed', reason: `Redline reviewed this change but could not post its review: ${reason}` });
    }
  };
}

/** Marks the review published and emits the verdict's event, once. */
async function markPublished(
  deps: ReviewPublisherDeps,
  review: ReviewRow,
  published: { reviewId: number; event: 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT' } | undefined,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const updated = await markReviewPublished(trx, review.id, published?.reviewId ?? null, now);
    if (updated === undefined || published === undefined || published.event === 'COMMENT') return;
    const type = published.event === 'APPROVE' ? 'pr.approved' : 'pr.changes_requested';
    await recordEvents(
      trx,
      updated,
      [{ type, data: { ...reviewEventData(updated, deps.publicUrl), score: updated.score } }],
      now,
    );
  });
}
