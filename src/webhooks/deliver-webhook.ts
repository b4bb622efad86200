import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Database, DeliveryStatus, JobRow } from '../db/schema.js';
import { enqueueJob } from '../jobs/enqueue-job.js';
import { deliveryJob } from './create-deliveries.js';
import { PING_EVENT } from './event-names.js';
import { delayAfterFailure, isDeliverySuccess } from './retry-schedule.js';
import type { WebhookOutcome, WebhookRequest } from './send-webhook.js';
import { deliveryHeaders } from './sign-delivery.js';

export interface DeliveryDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  /** Spec 6.4's delays (WEBHOOK_RETRY_DELAYS_MS), one per attempt; the first is the wait before attempt 1. */
  retryDelaysMs: readonly number[];
  /** One attempt over the network: sendWebhook with the address guard, or a test double. */
  send(request: WebhookRequest): Promise<WebhookOutcome>;
  logger?: { warn(obj: object, msg: string): void } | undefined;
}

interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  success: boolean;
}

/**
 * The job that makes attempt n of a delivery. It runs only while the delivery has made n - 1
 * attempts, and records its outcome only under the same condition: a job run twice (a worker
 * killed after sending, a lease taken over) sends again with the same delivery id, which is the
 * at-least-once promise, but never records an attempt twice or skips one.
 */
export function makeDeliveryHandler(deps: DeliveryDeps) {
  return async (job: JobRow): Promise<void> => {
    const { delivery_id: deliveryId, attempt } = job.payload as { delivery_id: string; attempt: number };
    const row = await deps.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.body', 'd.event_type', 'd.status', 'd.attempts', 'w.id as webhook_id', 'w.url'])
      .select(['w.enabled', 'w.secret_sealed'])
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
    if (row === undefined || row.status !== 'pending' || row.attempts !== attempt - 1) return;
    const ping = row.event_type === PING_EVENT;

    if (!row.enabled && !ping) {
      // A disabled webhook gets nothing until re-enabled; its deliveries can be redelivered then.
      await deps.db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', next_attempt_at: null, updated_at: deps.clock.now() })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute();
      return;
    }

    const result = await attemptOnce(deps, row);
    await record(deps, { id: row.id, webhookId: row.webhook_id, attempt, ping }, result);
  };
}

async function attemptOnce(
  deps: DeliveryDeps,
  row: { id: string; url: string; body: string; event_type: string; secret_sealed: string | null },
): Promise<AttemptResult> {
  let secret: string | undefined;
  try {
    secret = row.secret_sealed === null ? undefined : deps.box.open(row.secret_sealed);
  } catch {
    // Only a changed ENCRYPTION_KEY gets here; sending unsigned would mislead the receiver.
    return failure('the webhook secret cannot be read (was ENCRYPTION_KEY changed?)', 0);
  }
  const headers = deliveryHeaders({
    deliveryId: row.id,
    eventType: row.event_type,
    body: row.body,
    secret,
    sentAt: deps.clock.now(),
  });
  const outcome = await deps.send({ url: row.url, headers, body: row.body });
  if (outcome.kind === 'error') return failure(outcome.error, outcome.latencyMs);
  const success = isDeliverySuccess(outcome.status);
  return {
    statusCode: outcome.status,
    latencyMs: outcome.latencyMs,
    error: success
      ? null
      : `answered ${outcome.status}${outcome.status >= 300 && outcome.status < 400 ? ' (redirects are not followed)' : ''}`,
    responseBody: outcome.body,
    success,
  };
}

function failure(error: string, latencyMs: number): AttemptResult {
  return { statusCode: null, latencyMs, error, responseBody: null, success: false };
}

/**
 * One transaction: the attempt's log row, the delivery's new state, the webhook's failure count
 * (and disabling after the last attempt, spec 6.4), and the next attempt's job. A ping is the
 * dashboard's one-off test: one attempt, and it never counts against the webhook.
 */
async function record(
  deps: DeliveryDeps,
  delivery: { id: string; webhookId: string; attempt: number; ping: boolean },
  result: AttemptResult,
): Promise<void> {
  const now = deps.clock.now();
  const delay = result.success || delivery.ping ? undefined : delayAfterFailure(deps.retryDelaysMs, delivery.attempt);
  const status: DeliveryStatus = result.success ? 'delivered' : delay === undefined ? 'failed' : 'pending';
  const nextAt = delay === undefined ? null : new Date(now.getTime() + delay);
  await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({ status, attempts: delivery.attempt, next_attempt_at: nextAt, updated_at: now })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', delivery.attempt - 1)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: delivery.id,
        attempt: delivery.attempt,
        status_code: result.statusCode,
        latency_ms: Math.round(result.latencyMs),
        error: result.error,
        response_body: result.responseBody,
        created_at: now,
      })
      .execute();
    if (nextAt !== null) await enqueueJob(trx, deliveryJob(delivery.id, delivery.attempt + 1, nextAt), now);
    if (delivery.ping) return;
    if (result.success) {
      await trx.updateTable('webhooks').set({ failure_count: 0 }).where('id', '=', delivery.webhookId).execute();
      return;
    }
    await trx
      .updateTable('webhooks')
      .set((eb) => ({ failure_count: eb('failure_count', '+', 1) }))
      .where('id', '=', delivery.webhookId)
      .execute();
    if (status === 'failed') {
      await trx
        .updateTable('webhooks')
        .set({ enabled: false, disabled_at: now, updated_at: now })
        .where('id', '=', delivery.webhookId)
        .where('enabled', '=', true)
        .execute();
      deps.logger?.warn(
        { webhook_id: delivery.webhookId, delivery_id: delivery.id },
        'webhook disabled after 5 failed attempts',
      );
    }
  });
}
