import type { Kysely } from 'kysely';
import type { Database, OrganizationRow } from '../db/schema.js';

export type MemberOrganization = OrganizationRow & { role: 'admin' | 'member' };

/** Organizations the user belongs to (decisions §1), oldest first. */
export async function listUserOrganizations(db: Kysely<Database>, userId: string): Promise<MemberOrganization[]> {
  return db
    .selectFrom('organizations as o')
    .innerJoin('memberships as m', 'm.organization_id', 'o.id')
    .selectAll('o')
    .select('m.role')
    .where('m.user_id', '=', userId)
    .orderBy('o.created_at')
    .orderBy('o.id')
    .execute();
}

/** The organization if the user belongs to it; otherwise undefined, exactly as if it did not exist. */
export async function findUserOrganization(
  db: Kysely<Database>,
  userId: string,
  organizationId: string,
): Promise<MemberOrganization | undefined> {
  return db
    .selectFrom('organizations as o')
    .innerJoin('memberships as m', 'm.organization_id', 'o.id')
    .selectAll('o')
    .select('m.role')
    .where('m.user_id', '=', userId)
    .where('o.id', '=', organizationId)
    .executeTakeFirst();
}
