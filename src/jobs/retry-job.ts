import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { errorText } from './error-text.js';
import { type OwnedJob, ownedBy } from './owned-by.js';

/**
 * Puts a failed attempt back in the queue, due after `delayMs`, if this claim still owns it.
 * `refundAttempt`: the attempt does not count (the database went away under it, not the job's
 * own failure). Only the owner refunds, once its run has ended, so the next claim's attempts
 * value can belong to no run still going: the fencing of ownedBy holds.
 */
export async function retryJob(
  db: Kysely<Database>,
  job: OwnedJob,
  error: unknown,
  delayMs: number,
  now: Date,
  options: { refundAttempt?: boolean } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({
      ...(options.refundAttempt ? { attempts: eb('attempts', '-', 1) } : {}),
      status: 'queued',
      run_at: new Date(now.getTime() + delayMs),
      locked_by: null,
      locked_until: null,
      last_error: errorText(error),
      updated_at: now,
    }))
    .where(ownedBy(job))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
