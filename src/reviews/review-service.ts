import type { Kysely, Transaction } from 'kysely';
import { ensureGitHubOrganization } from '../auth/accounts.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../common/clock.js';
import { unprocessable } from '../common/errors.js';
import { newId } from '../common/ids.js';
import type { Database, ReviewOptions, ReviewRow } from '../db/schema.js';
import type { PullRequestMetadata } from '../github/pull-requests.js';
import { enqueueJob } from '../jobs/enqueue-job.js';
import { QUEUES } from '../jobs/queues.js';
import { assertReviewQuota } from '../limits/review-quota.js';
import { type PullRequestRef, parsePullRequestUrl } from './pull-request-url.js';
import { findVisibleReview } from './repository/find-visible-review.js';
import { appUserId, isTeamOf, personalOrganization } from './repository/review-owners.js';
import { cancelOpenAppReviews, insertReview, newerAppReviewExists, updateReview } from './repository/review-rows.js';
import { type ReviewEventType, recordEvents, reviewEventData } from './review-events.js';
import { enqueuePublish } from './review-publisher.js';
import { nextStatus, type ReviewAction } from './review-state.js';

/** A review still in progress this long after it started is failed by the deadline sweep. */
export const REVIEW_DEADLINE_MS = 10 * 60 * 1000;

export interface CreateReviewInput {
  pull_request_url: string;
  auto_review?: boolean | undefined;
  inline_comments?: boolean | undefined;
  check_security?: boolean | undefined;
  check_performance?: boolean | undefined;
  team_id?: string | undefined;
}

/** A pull request the GitHub App was told about (decisions §7), with the configuration in force. */
export interface AppReviewInput {
  owner: { id: number; login: string; kind: 'user' | 'organization' };
  repo: string;
  repositoryId: string;
  number: number;
  url: string;
  title: string;
  branch: string;
  author: string;
  headSha: string;
  checkSecurity: boolean;
  checkPerformance: boolean;
  /** `.github/redline.yml` as parsed (with defaults) and what was wrong with it. */
  repositoryConfig: { config: Record<string, unknown>; errors: string[] };
  checkRunId: number | null;
  /** The pull request's `updated_at` in the event: orders pushes whatever order events come in. */
  pullRequestUpdatedAt: Date;
}

export interface ReviewServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  githubServerUrl: string;
  /** Reads the pull request as the principal (live mode only); 404 when missing or unreadable. */
  readPullRequest(principal: Principal, ref: PullRequestRef): Promise<PullRequestMetadata>;
}

/** Test mode never calls GitHub: the metadata follows from the URL alone. */
function testMetadata(ref: PullRequestRef): PullRequestMetadata {
  return {
    title: `Test pull request #${ref.number}`,
    branch: `redline-test-${ref.number}`,
    author: 'redline-test',
    headSha: '0'.repeat(40),
    repositoryId: `test:${ref.owner}/${ref.repo}`,
    owner: { id: 0, login: ref.owner, kind: 'organization' },
  };
}

function startedEvents(
  review: ReviewRow,
  publicUrl: string,
): { type: ReviewEventType; data: Record<string, unknown> }[] {
  const data = reviewEventData(review, publicUrl);
  return [
    { type: 'review.started', data },
    { type: 'review.in_progress', data },
  ];
}

/**
 * The review lifecycle. Every transition is one transaction holding the review row, its outbox
 * events and, when processing should run, its job: they exist together or not at all.
 */
export class ReviewService {
  constructor(private readonly deps: ReviewServiceDeps) {}

  async create(
    principal: Principal,
    input: CreateReviewInput,
    onCreated?: (trx: Transaction<Database>, review: ReviewRow) => Promise<void>,
  ): Promise<ReviewRow> {
    const ref = parsePullRequestUrl(input.pull_request_url, this.deps.githubServerUrl);
    const metadata = principal.mode === 'test' ? testMetadata(ref) : await this.deps.readPullRequest(principal, ref);
    const options: ReviewOptions = {
      auto_review: input.auto_review ?? true,
      inline_comments: input.inline_comments ?? true,
      check_security: input.check_security ?? true,
      check_performance: input.check_performance ?? true,
    };
    return this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const organizationId =
        principal.mode === 'test'
          ? await personalOrganization(trx, principal.userId)
          : await ensureGitHubOrganization(trx, metadata.owner, metadata.owner.kind, now);
      if (input.team_id !== undefined && !(await isTeamOf(trx, input.team_id, organizationId))) {
        throw unprocessable('team_id', "is not a team of the pull request's organization");
      }
      // Test reviews are free (decisions §2): the quota ignores them.
      await assertReviewQuota(trx, { organizationId, mode: principal.mode, now });
      const start = options.auto_review;
      const review = await insertReview(trx, {
        id: newId('rev'),
        user_id: principal.userId,
        organization_id: organizationId,
        team_id: input.team_id ?? null,
        mode: principal.mode,
        status: start ? 'in_progress' : 'pending',
        pr_url: ref.url,
        pr_number: ref.number,
        pr_title: metadata.title,
        repository: `${ref.owner}/${ref.repo}`,
        repository_id: metadata.repositoryId,
        branch: metadata.branch,
        author: metadata.author,
        head_sha: metadata.headSha,
        options: JSON.stringify(options),
        attempt: start ? 1 : 0,
        created_at: now,
        updated_at: now,
        started_at: start ? now : null,
        deadline_at: start ? new Date(now.getTime() + REVIEW_DEADLINE_MS) : null,
      });
      const events: { type: ReviewEventType; data: Record<string, unknown> }[] = [
        { type: 'review.created', data: reviewEventData(review, this.deps.publicUrl) },
      ];
      if (start) {
        events.push(...startedEvents(review, this.deps.publicUrl));
        await this.enqueue(trx, review, now);
      }
      await recordEvents(trx, review, events, now);
      await onCreated?.(trx, review);
      return review;
    });
  }

  /**
   * A review the GitHub App starts for a pull request event. Any app review of the same pull
   * request still pending or in progress is cancelled in the same transaction (a newer head
   * supersedes it; its result would be dropped) and returned, so the caller can close its check
   * run. Counts against the organization's quota like any live review (429 past it). No review
   * (undefined) when an app review of a newer state of the pull request exists already.
   */
  async createForApp(input: AppReviewInput): Promise<{ review: ReviewRow | undefined; superseded: ReviewRow[] }> {
    return this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const organizationId = await ensureGitHubOrganization(trx, input.owner, input.owner.kind, now);
      // An event older than one already reviewed came late: the newer review stands.
      if (await newerAppReviewExists(trx, input.url, input.pullRequestUpdatedAt)) {
        return { review: undefined, superseded: [] };
      }
      await assertReviewQuota(trx, { organizationId, mode: 'live', now });
      const superseded = await cancelOpenAppReviews(trx, input.url, now);
      for (const old of superseded) {
        await recordEvents(
          trx,
          old,
          [{ type: 'review.cancelled', data: reviewEventData(old, this.deps.publicUrl) }],
          now,
        );
      }
      const options: ReviewOptions = {
        auto_review: true,
        inline_comments: true,
        check_security: input.checkSecurity,
        check_performance: input.checkPerformance,
      };
      const review = await insertReview(trx, {
        id: newId('rev'),
        user_id: await appUserId(trx, now),
        organization_id: organizationId,
        team_id: null,
        mode: 'live',
        status: 'in_progress',
        source: 'app',
        pr_url: input.url,
        pr_number: input.number,
        pr_title: input.title,
        repository: `${input.owner.login}/${input.repo}`,
        repository_id: input.repositoryId,
        branch: input.branch,
        author: input.author,
        head_sha: input.headSha,
        options: JSON.stringify(options),
        repository_config: JSON.stringify(input.repositoryConfig),
        check_run_id: input.checkRunId,
        pr_updated_at: input.pullRequestUpdatedAt,
        attempt: 1,
        created_at: now,
        updated_at: now,
        started_at: now,
        deadline_at: new Date(now.getTime() + REVIEW_DEADLINE_MS),
      });
      await this.enqueue(trx, review, now);
      await recordEvents(
        trx,
        review,
        [
          { type: 'review.created', data: reviewEventData(review, this.deps.publicUrl) },
          ...startedEvents(review, this.deps.publicUrl),
        ],
        now,
      );
      return { review, superseded };
    });
  }

  start(principal: Principal, id: string): Promise<ReviewRow> {
    return this.act(principal, id, 'start');
  }

  cancel(principal: Principal, id: string): Promise<ReviewRow> {
    return this.act(principal, id, 'cancel');
  }

  retry(principal: Principal, id: string): Promise<ReviewRow> {
    return this.act(principal, id, 'retry');
  }

  private async act(principal: Principal, id: string, action: ReviewAction): Promise<ReviewRow> {
    return this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const current = await findVisibleReview(trx, principal, id, { forUpdate: true });
      const status = nextStatus(current.status, action);
      const starting = status === 'in_progress';
      const review = await updateReview(trx, current.id, {
        status,
        updated_at: now,
        ...(starting
          ? {
              attempt: current.attempt + 1,
              started_at: now,
              deadline_at: new Date(now.getTime() + REVIEW_DEADLINE_MS),
              error_code: null,
              error_message: null,
            }
          : {}),
      });
      if (starting) {
        await this.enqueue(trx, review, now);
        await recordEvents(trx, review, startedEvents(review, this.deps.publicUrl), now);
      } else {
        await recordEvents(
          trx,
          review,
          [{ type: 'review.cancelled', data: reviewEventData(review, this.deps.publicUrl) }],
          now,
        );
        // An app review's check run must not stay in progress.
        await enqueuePublish(trx, review, now);
      }
      return review;
    });
  }

  private async enqueue(trx: Transaction<Database>, review: ReviewRow, now: Date): Promise<void> {
    await enqueueJob(
      trx,
      { queue: QUEUES.review, payload: { review_id: review.id, attempt: review.attempt }, maxAttempts: 3 },
      now,
    );
  }
}
