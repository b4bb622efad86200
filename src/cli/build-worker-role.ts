import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import { systemClock } from '../common/clock.js';
import { SecretBox } from '../common/secret-box.js';
import type { Config } from '../config/config.js';
import { readGitHubAppCredentials } from '../config/github-app-key.js';
import type { DatabaseHandle } from '../db/database.js';
import { type GitHubAppAuth, githubAppAuthOrNull } from '../github/app-auth.js';
import type { AppSecrets } from '../http/build-app.js';
import type { BackgroundLoop } from '../jobs/background-loop.js';
import { JobRunner } from '../jobs/job-runner.js';
import { PeriodicTask } from '../jobs/periodic-task.js';
import { QUEUES } from '../jobs/queues.js';
import { pruneIdempotencyKeys } from '../limits/idempotency.js';
import { pruneRateWindows } from '../limits/request-rate.js';
import { type GitHubReader, makeGitHubReader } from '../reviews/github-reader.js';
import { failOverdueReviews } from '../reviews/review-processor.js';
import { buildWebhookLoops } from '../webhooks/build-webhook-loops.js';
import { buildJobHandlers } from './build-job-handlers.js';

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
  const { [QUEUES.webhookDelivery]: deliver, ...handlers } = buildJobHandlers({
    config,
    db,
    clock,
    box,
    fetch: fetchImpl,
    githubReader: github,
    probot: input.probot,
    logger,
  });
  if (deliver === undefined) throw new Error('no handler for the webhook delivery queue');
  return [
    // Webhook deliveries have loops of their own (buildWebhookLoops); this one runs every other queue.
    new JobRunner({ name: 'jobs', db, clock, workerId, logger, leaseMs: config.jobLeaseMs, handlers }),
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
      deliver,
      firstDelayMs: config.webhooks.retryDelaysMs[0] ?? 0,
      concurrency: config.webhooks.concurrency,
      workerId,
      leaseMs: config.jobLeaseMs,
      logger,
    }),
  ];
}
