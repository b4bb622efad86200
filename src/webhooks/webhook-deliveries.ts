import type { Kysely } from 'kysely';
import { conflict, notFound } from '../common/errors.js';
import { newId } from '../common/ids.js';
import { newestFirstPage } from '../db/newest-first-page.js';
import type { Database, WebhookAttemptRow, WebhookDeliveryRow, WebhookRow } from '../db/schema.js';
import { createDeliveries, eventBody } from './create-deliveries.js';
import { PING_EVENT } from './event-names.js';

export interface DeliveryWithAttempts {
  delivery: WebhookDeliveryRow;
  attempts: WebhookAttemptRow[];
}

/** A webhook's deliveries, newest first, each with its attempts (decisions §5's deliveries log). */
export async function listDeliveries(
  db: Kysely<Database>,
  webhook: WebhookRow,
  options: { after?: string | undefined; limit: number },
): Promise<{ deliveries: DeliveryWithAttempts[]; hasMore: boolean }> {
  const { rows: page, hasMore } = await newestFirstPage(
    db,
    'webhook_deliveries',
    { webhook_id: webhook.id },
    { ...options, notInList: 'is not a delivery id of this list' },
  );
  const attempts =
    page.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            page.map((d) => d.id),
          )
          .orderBy('attempt')
          .execute();
  return {
    deliveries: page.map((delivery) => ({
      delivery,
      attempts: attempts.filter((a) => a.delivery_id === delivery.id),
    })),
    hasMore,
  };
}

/**
 * Sends a finished delivery's event again as a new delivery (new id, its own attempts; the body,
 * and so the event id in it, is the same). A pending one is still being tried: 409.
 */
export async function redeliver(
  db: Kysely<Database>,
  webhook: WebhookRow,
  deliveryId: string,
  now: Date,
): Promise<DeliveryWithAttempts> {
  if (!webhook.enabled) throw conflict('This webhook is disabled; enable it (PATCH enabled: true) before redelivering');
  return db.transaction().execute(async (trx) => {
    const original = await trx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .where('webhook_id', '=', webhook.id)
      .executeTakeFirst();
    if (original === undefined) throw notFound('Delivery');
    if (original.status === 'pending') throw conflict('This delivery is still being attempted');
    const [delivery] = await createDeliveries(
      trx,
      [
        {
          webhookId: webhook.id,
          eventId: original.event_id,
          eventType: original.event_type,
          body: original.body,
          redeliveryOf: original.id,
        },
      ],
      now,
    );
    if (delivery === undefined) throw new Error('redelivery was not created');
    return { delivery, attempts: [] };
  });
}

/** Decisions §5: the dashboard's test event, `ping`, sent to this webhook alone, once. */
export async function sendPing(db: Kysely<Database>, webhook: WebhookRow, now: Date): Promise<DeliveryWithAttempts> {
  return db.transaction().execute(async (trx) => {
    const event = {
      id: newId('evt'),
      type: PING_EVENT,
      created_at: now,
      data: { webhook_id: webhook.id, url: webhook.url, events: webhook.events },
    };
    // Recorded as already dispatched: the outbox reader must not fan it out to anyone else.
    await trx
      .insertInto('events')
      .values({
        id: event.id,
        type: event.type,
        mode: webhook.mode,
        user_id: webhook.user_id,
        data: JSON.stringify(event.data),
        created_at: now,
        dispatched_at: now,
      })
      .execute();
    const [delivery] = await createDeliveries(
      trx,
      [{ webhookId: webhook.id, eventId: event.id, eventType: event.type, body: eventBody(event) }],
      now,
    );
    if (delivery === undefined) throw new Error('ping delivery was not created');
    return { delivery, attempts: [] };
  });
}
