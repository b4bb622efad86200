import type { Transaction } from 'kysely';
import { newId } from '../common/ids.js';
import type { Database, WebhookDeliveryRow } from '../db/schema.js';
import { enqueueJobs } from '../jobs/enqueue-job.js';
import { QUEUES } from '../jobs/queues.js';

/**
 * Job attempts are not delivery attempts: the handler counts those itself. These only cover a
 * handler that crashed or lost the database, so a delivery is not given up over our own trouble.
 */
const JOB_MAX_ATTEMPTS = 10;

/** The event as subscribers receive it (spec 6.3); its bytes are fixed once, at fan-out. */
export interface EventForDelivery {
  id: string;
  type: string;
  created_at: Date;
  data: unknown;
}

export function eventBody(event: EventForDelivery): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    data: event.data,
  });
}

/** The job that makes attempt `attempt` of a delivery; its id makes a second enqueue a no-op. */
export function deliveryJob(deliveryId: string, attempt: number, runAt: Date) {
  return {
    id: `whd_${deliveryId}_${attempt}`,
    queue: QUEUES.webhookDelivery,
    payload: { delivery_id: deliveryId, attempt },
    runAt,
    maxAttempts: JOB_MAX_ATTEMPTS,
  };
}

/**
 * Deliveries and their first attempt's jobs, in the caller's transaction. A fan-out delivery is
 * unique per (event, webhook), so a second dispatcher racing on the same event inserts nothing.
 */
export async function createDeliveries(
  trx: Transaction<Database>,
  items: { webhookId: string; eventId: string; eventType: string; body: string; redeliveryOf?: string }[],
  now: Date,
  firstAttemptAt: Date = now,
): Promise<WebhookDeliveryRow[]> {
  if (items.length === 0) return [];
  const rows = await trx
    .insertInto('webhook_deliveries')
    .values(
      items.map((item) => ({
        id: newId('dlv'),
        webhook_id: item.webhookId,
        event_id: item.eventId,
        event_type: item.eventType,
        body: item.body,
        status: 'pending' as const,
        next_attempt_at: firstAttemptAt,
        redelivery_of: item.redeliveryOf ?? null,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).where('redelivery_of', 'is', null).doNothing())
    .returningAll()
    .execute();
  await enqueueJobs(
    trx,
    rows.map((row) => deliveryJob(row.id, 1, firstAttemptAt)),
    now,
  );
  return rows;
}
