import { type Kysely, sql } from 'kysely';
import type { Database, JobRow } from '../db/schema.js';

export interface ClaimOptions {
  queues: string[];
  workerId: string;
  leaseMs: number;
  /** From the injected clock, not SQL now(): tests move time, and every instance judges leases alike. */
  now: Date;
}

/**
 * Takes the job due first among `queues`: a queued one whose time has come, or a running one
 * whose lease expired (its worker died or hung; jobs run at least once). One statement, so no
 * transaction stays open while the job runs; `skip locked` lets concurrent claimers pass over a
 * row another is taking instead of waiting for it or taking it twice.
 *
 * A job whose lease expired on its last attempt is marked failed in the same statement instead
 * of run again, and the claim moves on to the next job.
 */
export async function claimJob(db: Kysely<Database>, options: ClaimOptions): Promise<JobRow | undefined> {
  const { queues, workerId, leaseMs, now } = options;
  if (queues.length === 0) return undefined;
  const lockedUntil = new Date(now.getTime() + leaseMs);
  for (;;) {
    const exhausted = sql<boolean>`(jobs.status = 'running' and jobs.attempts >= jobs.max_attempts)`;
    const row = await db
      .with('next', (qb) =>
        qb
          .selectFrom('jobs')
          .select('id')
          .where('queue', 'in', queues)
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
              eb.and([eb('status', '=', 'running'), eb('locked_until', '<=', now)]),
            ]),
          )
          .orderBy('run_at')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .updateTable('jobs')
      .from('next')
      .whereRef('jobs.id', '=', 'next.id')
      .set({
        status: sql`case when ${exhausted} then 'failed' else 'running' end`,
        attempts: sql`case when ${exhausted} then jobs.attempts else jobs.attempts + 1 end`,
        locked_by: sql`case when ${exhausted} then null else ${workerId} end`,
        locked_until: sql`case when ${exhausted} then null else ${lockedUntil}::timestamptz end`,
        last_error: sql`case when ${exhausted} then ${'lease expired on the last attempt: the worker stopped responding'} else jobs.last_error end`,
        updated_at: now,
      })
      .returningAll('jobs')
      .executeTakeFirst();
    if (row === undefined) return undefined;
    if (row.status === 'running') return row;
  }
}
