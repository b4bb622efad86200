import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { errorText } from './error-text.js';
import { type JobClaim, ownedBy } from './job-claim.js';

/** Puts a failed attempt back in the queue, due after `delayMs`, if this claim still owns it. */
export async function retryJob(
  db: Kysely<Database>,
  job: JobClaim,
  error: unknown,
  delayMs: number,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      run_at: new Date(now.getTime() + delayMs),
      locked_by: null,
      locked_until: null,
      last_error: errorText(error),
      updated_at: now,
    })
    .where(ownedBy(job))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
