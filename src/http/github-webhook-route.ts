import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Probot } from 'probot';
import type { Clock } from '../common/clock.js';
import { AppError, badRequest } from '../common/errors.js';
import type { Database } from '../db/schema.js';
import { enqueueJob } from '../jobs/enqueue-job.js';
import { QUEUES } from '../jobs/queues.js';

export const GITHUB_WEBHOOK_PATH = '/api/github/webhooks';
/** GitHub caps a webhook payload at 25 MB. */
const GITHUB_BODY_LIMIT_BYTES = 25 * 1024 * 1024;
/** Events the app acts on (decisions §7); others are acknowledged and dropped. */
export const HANDLED_GITHUB_EVENTS = new Set([
  'pull_request',
  'push',
  'installation',
  'installation_repositories',
  'issue_comment',
]);

export interface GitHubWebhookRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  probot: Probot;
  /** Called after an event was queued: a worker in this process starts at once. */
  onQueued?: (() => void) | undefined;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * GitHub's webhooks (decisions §7): the signature is checked over the raw body before anything
 * parses it; the delivery id is recorded with the event's job in one transaction, so a redelivery
 * is acknowledged without a second effect; the answer comes at once and the work runs in a worker.
 */
export function registerGitHubWebhookRoute(app: FastifyInstance, deps: GitHubWebhookRouteDeps) {
  void app.register(async (scope) => {
    // This scope keeps the body as the exact string GitHub signed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: GITHUB_BODY_LIMIT_BYTES },
      (_r, body, done) => done(null, body),
    );
    scope.post(
      GITHUB_WEBHOOK_PATH,
      { bodyLimit: GITHUB_BODY_LIMIT_BYTES, schema: { hide: true } },
      async (request, reply) => {
        const name = header(request.headers['x-github-event']);
        const id = header(request.headers['x-github-delivery']);
        const signature = header(request.headers['x-hub-signature-256']);
        const raw = typeof request.body === 'string' ? request.body : '';
        if (signature === undefined || !(await verify(deps.probot, raw, signature))) {
          throw new AppError('unauthorized', 401, 'Missing or invalid X-Hub-Signature-256');
        }
        if (name === undefined || id === undefined || id === '' || id.length > 100) {
          throw badRequest('X-GitHub-Event and X-GitHub-Delivery are required');
        }
        let payload: unknown;
        try {
          payload = JSON.parse(raw);
        } catch {
          throw badRequest('Request body is not valid JSON');
        }
        if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
          throw badRequest('Request body must be a JSON object');
        }
        const now = deps.clock.now();
        const queued = await deps.db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('github_deliveries')
            .values({ id, event: name, received_at: now })
            .onConflict((oc) => oc.column('id').doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return 'duplicate' as const;
          if (!HANDLED_GITHUB_EVENTS.has(name)) return 'ignored' as const;
          await enqueueJob(trx, { queue: QUEUES.githubEvent, payload: { id, name, payload }, maxAttempts: 5 }, now);
          return 'queued' as const;
        });
        if (queued === 'queued') deps.onQueued?.();
        return reply.status(202).send({ delivery: id, status: queued });
      },
    );
  });
}

async function verify(probot: Probot, raw: string, signature: string): Promise<boolean> {
  try {
    return await probot.webhooks.verify(raw, signature);
  } catch {
    // A malformed signature header is just a wrong one.
    return false;
  }
}
