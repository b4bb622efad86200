import type { Kysely } from 'kysely';
import { randomBase62 } from '../common/base62.js';
import type { Database } from '../db/schema.js';

export const DEFAULT_MAX_ATTEMPTS = 5;

export interface NewJob {
  queue: string;
  payload: Record<string, unknown>;
  /** When the job becomes due; default `now`. */
  runAt?: Date;
  maxAttempts?: number;
  /**
   * A caller-chosen id makes enqueueing idempotent while the job exists (a second enqueue of the
   * same id is a no-op); a finished job is deleted, so the id can be used again afterwards.
   */
  id?: string;
}

/**
 * Adds a job. Pass the caller's transaction as `executor` so the job exists exactly when the
 * business change that needs it commits (and vanishes with its rollback). `on conflict do
 * nothing` rather than a unique violation: an error would abort the caller's whole transaction.
 */
export async function enqueueJob(
  executor: Kysely<Database>,
  job: NewJob,
  now: Date,
): Promise<{ id: string; enqueued: boolean }> {
  const row = jobRow(job, now);
  const result = await executor
    .insertInto('jobs')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return { id: row.id, enqueued: Number(result.numInsertedOrUpdatedRows ?? 0n) > 0 };
}

/** Many jobs in one statement (a fan-out); ids already queued are skipped, as in enqueueJob. */
export async function enqueueJobs(executor: Kysely<Database>, jobs: NewJob[], now: Date): Promise<void> {
  if (jobs.length === 0) return;
  await executor
    .insertInto('jobs')
    .values(jobs.map((job) => jobRow(job, now)))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

function jobRow(job: NewJob, now: Date) {
  return {
    id: job.id ?? `job_${randomBase62(22)}`,
    queue: job.queue,
    payload: JSON.stringify(job.payload),
    status: 'queued' as const,
    run_at: job.runAt ?? now,
    max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    created_at: now,
    updated_at: now,
  };
}
