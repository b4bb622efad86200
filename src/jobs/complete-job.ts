import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type OwnedJob, ownedBy } from './owned-by.js';

/**
 * Removes a finished job, but only while this claim still owns it: if the lease expired and
 * another claim took over, that run decides the outcome. Returns whether the job was ours.
 */
export async function completeJob(db: Kysely<Database>, job: OwnedJob): Promise<boolean> {
  const result = await db.deleteFrom('jobs').where(ownedBy(job)).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
