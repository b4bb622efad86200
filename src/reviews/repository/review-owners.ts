import type { Transaction } from 'kysely';
import { AppError } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import type { Database } from '../../db/schema.js';

/** App reviews are made in the name of this local user (no person asked for them). */
export const APP_USERNAME = 'redline[bot]';

/**
 * Test reviews belong to the creator's personal organization: test mode never asks GitHub who
 * owns the repository, and an organization found by login alone could be someone else's.
 */
export async function personalOrganization(trx: Transaction<Database>, userId: string): Promise<string> {
  const row = await trx
    .selectFrom('organizations as o')
    .innerJoin('memberships as m', 'm.organization_id', 'o.id')
    .select('o.id')
    .where('m.user_id', '=', userId)
    .where('m.role', '=', 'admin')
    .where('o.kind', '=', 'user')
    .orderBy('o.created_at')
    .executeTakeFirst();
  if (row === undefined) throw new AppError('internal_error', 500, `User ${userId} has no personal organization`);
  return row.id;
}

/** Whether the team exists in that organization. */
export async function isTeamOf(trx: Transaction<Database>, teamId: string, organizationId: string): Promise<boolean> {
  const team = await trx
    .selectFrom('teams')
    .select('id')
    .where('id', '=', teamId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return team !== undefined;
}

/** The local user app reviews belong to, made on first use. */
export async function appUserId(trx: Transaction<Database>, now: Date): Promise<string> {
  const existing = await trx
    .selectFrom('users')
    .select('id')
    .where('username', '=', APP_USERNAME)
    .where('scm_id', 'is', null)
    .orderBy('created_at')
    .executeTakeFirst();
  if (existing !== undefined) return existing.id;
  const created = await trx
    .insertInto('users')
    .values({ id: newId('usr'), username: APP_USERNAME, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}
