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
 * Takes a due job among `queues`: first a running one whose lease expired (its worker died or
 * hung; jobs run at least once), else the queued one due first. One statement per kind, so no
 * transaction stays open while the job runs; `skip locked` lets concurrent claimers pass over a
 * row another is taking instead of waiting for it or taking it twice. Each kind has its own
 * partial index (leases: queue, locked_until; ready: queue, run_at, id), so a claim costs the
 * same with ten jobs waiting or a hundred thousand; one query with an OR of both could use
 * neither and sorted the whole backlog on every claim.
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
    const claim = (kind: 'expired' | 'ready') =>
      db
        .with('next', (qb) => {
          const base = qb.selectFrom('jobs').select('id').where('queue', 'in', queues);
          const due =
            kind === 'expired'
              ? base.where('status', '=', 'running').where('locked_until', '<=', now).orderBy('locked_until')
              : base.where('status', '=', 'queued').where('run_at', '<=', now).orderBy('run_at').orderBy('id');
          return due.limit(1).forUpdate().skipLocked();
        })
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
    const row = (await claim('expired')) ?? (await claim('ready'));
    if (row === undefined) return undefined;
    if (row.status === 'running') return row;
  }
}
