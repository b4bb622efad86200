import type { Kysely } from 'kysely';
import type { Probot } from 'probot';
import { makeGitHubEventHandler } from '../app/github-event-job.js';
import { makeMembershipRefresher } from '../auth/membership-refresh.js';
import type { Clock } from '../common/clock.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/schema.js';
import type { JobHandler, JobLogger } from '../jobs/job-runner.js';
import { QUEUES, type QueueName } from '../jobs/queues.js';
import type { GitHubReader } from '../reviews/github-reader.js';
import { makeReviewProcessor } from '../reviews/review-processor.js';
import { makeReviewPublisher } from '../reviews/review-publisher.js';
import { makeDeliveryHandler } from '../webhooks/deliver-webhook.js';
import { type SendOptions, sendWebhook } from '../webhooks/send-webhook.js';

/** How long the optional language model may take before the rules' result stands alone. */
export const LLM_TIMEOUT_MS = 60_000;

export interface JobHandlerDeps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  fetch: typeof fetch;
  /** GitHub as the handlers read it (one per process, shared with the API). */
  githubReader: GitHubReader;
  /** The GitHub App's event handlers (buildGitHubApp); without it GitHub events stay queued. */
  probot?: Probot | undefined;
  logger?: JobLogger | undefined;
  /** Default LLM_TIMEOUT_MS. */
  llmTimeoutMs?: number | undefined;
  /** Overrides of how webhook attempts are sent (e.g. trust for a test receiver); default the configuration's guard. */
  webhookSend?: Partial<SendOptions> | undefined;
}

/**
 * The handler of every queue, built in one place for the worker role (buildWorkerRole) and the
 * tests (createTestApp's runJobs), so a test runs jobs exactly as a worker process does. Typed by
 * QueueName, so a queue added to QUEUES without a handler here does not compile.
 */
export function buildJobHandlers(deps: JobHandlerDeps): Partial<Record<QueueName, JobHandler>> {
  const { config, db, clock, box, logger } = deps;
  const handlers: Record<Exclude<QueueName, typeof QUEUES.githubEvent>, JobHandler> = {
    [QUEUES.review]: makeReviewProcessor({
      db,
      clock,
      publicUrl: config.publicUrl,
      readChangedFiles: deps.githubReader.readChangedFiles,
      llm: config.llm
        ? { ...config.llm, timeoutMs: deps.llmTimeoutMs ?? LLM_TIMEOUT_MS, fetch: deps.fetch }
        : undefined,
      logger,
    }),
    [QUEUES.publish]: makeReviewPublisher({
      db,
      clock,
      publicUrl: config.publicUrl,
      appOctokit: deps.githubReader.appOctokit,
      botLogin: deps.githubReader.botLogin,
      logger,
    }),
    [QUEUES.memberships]: makeMembershipRefresher({
      db,
      clock,
      box,
      apiUrl: config.github.apiUrl,
      fetch: deps.fetch,
    }),
    [QUEUES.webhookDelivery]: makeDeliveryHandler({
      db,
      clock,
      box,
      retryDelaysMs: config.webhooks.retryDelaysMs,
      send: (request) => sendWebhook(request, { allowPrivate: config.webhooks.allowPrivate, ...deps.webhookSend }),
      logger,
    }),
  };
  return deps.probot ? { ...handlers, [QUEUES.githubEvent]: makeGitHubEventHandler(deps.probot) } : handlers;
}
