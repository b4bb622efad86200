import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { errorText } from './error-text.js';
import { type OwnedJob, ownedBy } from './owned-by.js';

/** Gives up on a job (attempts spent): kept as `failed` with its last error, for inspection. */
export async function failJob(db: Kysely<Database>, job: OwnedJob, error: unknown, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'failed', locked_by: null, locked_until: null, last_error: errorText(error), updated_at: now })
    .where(ownedBy(job))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
