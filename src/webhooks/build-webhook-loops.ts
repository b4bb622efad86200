import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/schema.js';
import type { BackgroundLoop } from '../jobs/background-loop.js';
import { type JobHandler, type JobLogger, JobRunner } from '../jobs/job-runner.js';
import { PeriodicTask } from '../jobs/periodic-task.js';
import { QUEUES } from '../jobs/queues.js';
import { dispatchEvents } from './dispatch-events.js';

export interface WebhookLoopsOptions {
  db: Kysely<Database>;
  clock: Clock;
  /** The webhook delivery queue's handler (makeDeliveryHandler, as buildJobHandlers makes it). */
  deliver: JobHandler;
  /** The wait before a delivery's first attempt (the first of WEBHOOK_RETRY_DELAYS_MS). */
  firstDelayMs: number;
  /** Deliveries in flight at once in this process (each waits up to 10 s on a slow subscriber). */
  concurrency: number;
  workerId: string;
  leaseMs: number;
  logger?: JobLogger;
  /** How often the outbox is read when idle. */
  dispatchEveryMs?: number;
}

/**
 * The delivery side of a worker process: one outbox reader and `concurrency` delivery loops on
 * the webhook queue (apart from review processing, so a slow subscriber never delays a review).
 */
export function buildWebhookLoops(options: WebhookLoopsOptions): BackgroundLoop[] {
  const { db, clock } = options;
  const deliverers = Array.from(
    { length: options.concurrency },
    (_, i) =>
      new JobRunner({
        name: `webhooks-${i + 1}`,
        db,
        clock,
        workerId: `${options.workerId}:webhooks-${i + 1}`,
        leaseMs: options.leaseMs,
        handlers: { [QUEUES.webhookDelivery]: options.deliver },
        ...(options.logger ? { logger: options.logger } : {}),
      }),
  );
  const { firstDelayMs } = options;
  const dispatcher = new PeriodicTask({
    name: 'webhook-dispatch',
    everyMs: options.dispatchEveryMs ?? 200,
    ...(options.logger ? { logger: options.logger } : {}),
    task: async () => {
      let created = 0;
      for (;;) {
        const batch = await dispatchEvents(db, clock.now(), { firstDelayMs });
        created += batch.deliveries;
        if (batch.events === 0) break;
      }
      if (created > 0) for (const deliverer of deliverers) deliverer.wake();
    },
  });
  return [dispatcher, ...deliverers];
}
