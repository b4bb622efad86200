import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type OwnedJob, ownedBy } from './owned-by.js';

/**
 * The heartbeat of a long job: pushes its lease to `now + leaseMs`. False means another claim
 * took the job over (ours had expired), and this run should stop as soon as it can.
 */
export async function extendLease(db: Kysely<Database>, job: OwnedJob, leaseMs: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: new Date(now.getTime() + leaseMs), updated_at: now })
    .where(ownedBy(job))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
