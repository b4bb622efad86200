import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import { GITHUB_EVENT_QUEUE, makeGitHubEventHandler } from '../app/github-event-job.js';
import { MEMBERSHIPS_QUEUE, makeMembershipRefresher } from '../auth/membership-refresh.js';
import type { Config } from '../config/config.js';
import { readGitHubAppCredentials } from '../config/github-app-key.js';
import type { DatabaseHandle } from '../db/database.js';
import { type GitHubAppAuth, githubAppAuthOrNull } from '../github/app-auth.js';
import type { AppSecrets } from '../http/build-app.js';
import type { BackgroundLoop } from '../jobs/background-loop.js';
import { JobRunner } from '../jobs/job-runner.js';
import { PeriodicTask } from '../jobs/periodic-task.js';
import { pruneIdempotencyKeys } from '../limits/idempotency.js';
import { pruneRateWindows } from '../limits/request-rate.js';
import { type GitHubReader, makeGitHubReader } from '../reviews/github-reader.js';
import { failOverdueReviews, makeReviewProcessor } from '../reviews/review-processor.js';
import { makeReviewPublisher, PUBLISH_QUEUE } from '../reviews/review-publisher.js';
import { REVIEW_QUEUE } from '../reviews/review-service.js';
import { systemClock } from '../shared/clock.js';
import { SecretBox } from '../shared/secret-box.js';
import { buildWebhookLoops } from '../webhooks/build-webhook-loops.js';

/** How long the optional language model may take before the rules' result stands alone. */
export const LLM_TIMEOUT_MS = 60_000;

/** The background work of a `worker` (or `all`) process: reviews, webhook deliveries, housekeeping. */
export function buildWorkerRole(input: {
  config: Config;
  database: DatabaseHandle;
  secrets: AppSecrets;
  logger: Logger;
  fetch?: typeof fetch;
  /** As in buildApp: made from the configuration when absent (null: no app). */
  githubApp?: GitHubAppAuth | null;
  /** The GitHub App's event handlers (buildGitHubApp); without it GitHub events stay queued. */
  probot?: Probot | undefined;
  /** GitHub as the workers read it; made here from the configuration when absent (serve shares one). */
  githubReader?: GitHubReader;
}): BackgroundLoop[] {
  const { config, logger } = input;
  const db = input.database.db;
  const clock = systemClock;
  const box = new SecretBox(input.secrets.encryptionKey);
  const fetchImpl = input.fetch ?? globalThis.fetch;
  const app =
    input.githubApp !== undefined
      ? input.githubApp
      : githubAppAuthOrNull(readGitHubAppCredentials(config.github), {
          apiUrl: config.github.apiUrl,
          fetch: fetchImpl,
          clock,
        });
  const github =
    input.githubReader ??
    makeGitHubReader({ db, box, apiUrl: config.github.apiUrl, fetch: fetchImpl, app: app ?? undefined });
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  return [
    new JobRunner({
      name: 'jobs',
      db,
      clock,
      workerId,
      logger,
      leaseMs: config.jobLeaseMs,
      handlers: {
        [REVIEW_QUEUE]: makeReviewProcessor({
          db,
          clock,
          publicUrl: config.publicUrl,
          readChangedFiles: github.readChangedFiles,
          llm: config.llm ? { ...config.llm, timeoutMs: LLM_TIMEOUT_MS, fetch: fetchImpl } : undefined,
          logger,
        }),
        [PUBLISH_QUEUE]: makeReviewPublisher({
          db,
          clock,
          publicUrl: config.publicUrl,
          appOctokit: github.appOctokit,
          botLogin: github.botLogin,
          logger,
        }),
        ...(input.probot ? { [GITHUB_EVENT_QUEUE]: makeGitHubEventHandler(input.probot) } : {}),
        [MEMBERSHIPS_QUEUE]: makeMembershipRefresher({
          db,
          clock,
          box,
          apiUrl: config.github.apiUrl,
          fetch: fetchImpl,
        }),
      },
    }),
    new PeriodicTask({
      name: 'housekeeping',
      everyMs: 30_000,
      logger,
      task: async () => {
        const now = clock.now();
        const failed = await failOverdueReviews(db, now, config.publicUrl);
        if (failed > 0) logger.warn({ failed }, 'reviews past their deadline were failed');
        await pruneIdempotencyKeys(db, now);
        await pruneRateWindows(db, now);
      },
    }),
    ...buildWebhookLoops({
      db,
      clock,
      box,
      retryDelaysMs: config.webhooks.retryDelaysMs,
      send: { allowPrivate: config.webhooks.allowPrivate },
      concurrency: config.webhooks.concurrency,
      workerId,
      leaseMs: config.jobLeaseMs,
      logger,
    }),
  ];
}
