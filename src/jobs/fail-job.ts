import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { errorText } from './error-text.js';
import { type JobClaim, ownedBy } from './job-claim.js';

/** Gives up on a job (attempts spent): kept as `failed` with its last error, for inspection. */
export async function failJob(db: Kysely<Database>, job: JobClaim, error: unknown, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'failed', locked_by: null, locked_until: null, last_error: errorText(error), updated_at: now })
    .where(ownedBy(job))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
