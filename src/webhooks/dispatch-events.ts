import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { createDeliveries, eventBody } from './create-deliveries.js';

/**
 * Reads the events outbox and fans each event out to the webhooks subscribed to it, in one
 * transaction per batch: deliveries and their jobs exist exactly when the event is marked
 * dispatched. `skip locked` lets several dispatchers (one per worker process) share the outbox.
 *
 * Who receives an event (decisions §1, §18): enabled webhooks of the event's mode, subscribed to
 * its type, created before it, whose owner could read it: the user who caused it or a member of
 * its organization. Attempt 1 waits the schedule's first delay (spec 6.4: none).
 */
export async function dispatchEvents(
  db: Kysely<Database>,
  now: Date,
  options: { firstDelayMs?: number; batchSize?: number } = {},
): Promise<{ events: number; deliveries: number }> {
  const batchSize = options.batchSize ?? 200;
  const firstAttemptAt = new Date(now.getTime() + (options.firstDelayMs ?? 0));
  return db.transaction().execute(async (trx) => {
    const events = await trx
      .selectFrom('events')
      .selectAll()
      .where('dispatched_at', 'is', null)
      .orderBy('seq')
      .limit(batchSize)
      .forUpdate()
      .skipLocked()
      .execute();
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const ids = events.map((e) => e.id);
    const pairs = await trx
      .selectFrom('events as e')
      .innerJoin('webhooks as w', (join) =>
        join
          .on('w.enabled', '=', true)
          .onRef('w.mode', '=', 'e.mode')
          .onRef('w.created_at', '<=', 'e.created_at')
          .on(sql<boolean>`e.type = any(w.events)`),
      )
      .select(['e.id as event_id', 'w.id as webhook_id'])
      .where('e.id', 'in', ids)
      .where((eb) =>
        eb.or([
          eb('w.user_id', '=', eb.ref('e.user_id')),
          eb.exists(
            eb
              .selectFrom('memberships as m')
              .select('m.user_id')
              .whereRef('m.organization_id', '=', 'e.organization_id')
              .whereRef('m.user_id', '=', 'w.user_id'),
          ),
        ]),
      )
      .orderBy('e.seq')
      .orderBy('w.id')
      .execute();
    const byId = new Map(events.map((e) => [e.id, e]));
    const bodies = new Map<string, string>();
    const items = pairs.flatMap((pair) => {
      const event = byId.get(pair.event_id);
      if (event === undefined) return [];
      let body = bodies.get(event.id);
      if (body === undefined) {
        body = eventBody(event);
        bodies.set(event.id, body);
      }
      return [{ webhookId: pair.webhook_id, eventId: event.id, eventType: event.type, body }];
    });
    const deliveries = await createDeliveries(trx, items, now, firstAttemptAt);
    await trx.updateTable('events').set({ dispatched_at: now }).where('id', 'in', ids).execute();
    return { events: events.length, deliveries: deliveries.length };
  });
}
