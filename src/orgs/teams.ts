import type { Kysely } from 'kysely';
import { conflict, forbidden, notFound, unprocessable } from '../common/errors.js';
import { newId } from '../common/ids.js';
import type { Database, TeamRow } from '../db/schema.js';
import { findUserOrganization } from './organizations.js';

export interface TeamPage {
  teams: TeamRow[];
  hasMore: boolean;
}

/** Teams of the organizations the user belongs to, oldest first, `limit` at a time after a team id. */
export async function listTeams(
  db: Kysely<Database>,
  userId: string,
  options: { organizationId?: string | undefined; after?: string | undefined; limit: number },
): Promise<TeamPage> {
  let query = db
    .selectFrom('teams as t')
    .innerJoin('memberships as m', 'm.organization_id', 't.organization_id')
    .selectAll('t')
    .where('m.user_id', '=', userId);
  if (options.organizationId !== undefined) query = query.where('t.organization_id', '=', options.organizationId);
  if (options.after !== undefined) {
    const cursor = await db
      .selectFrom('teams')
      .select(['id', 'created_at'])
      .where('id', '=', options.after)
      .executeTakeFirst();
    if (cursor === undefined) throw unprocessable('after', 'is not a team id of this list');
    query = query.where((eb) =>
      eb.or([
        eb('t.created_at', '>', cursor.created_at),
        eb.and([eb('t.created_at', '=', cursor.created_at), eb('t.id', '>', cursor.id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('t.created_at')
    .orderBy('t.id')
    .limit(options.limit + 1)
    .execute();
  return { teams: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

/** The team if the user belongs to its organization; otherwise 404, as if it did not exist. */
export async function getTeam(
  db: Kysely<Database>,
  userId: string,
  teamId: string,
): Promise<TeamRow & { role: string }> {
  const row = await db
    .selectFrom('teams as t')
    .innerJoin('memberships as m', 'm.organization_id', 't.organization_id')
    .selectAll('t')
    .select('m.role')
    .where('m.user_id', '=', userId)
    .where('t.id', '=', teamId)
    .executeTakeFirst();
  if (row === undefined) throw notFound('Team');
  return row;
}

function requireAdmin(role: string) {
  if (role !== 'admin') throw forbidden('Only organization admins can manage teams');
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

export async function createTeam(
  db: Kysely<Database>,
  userId: string,
  input: { organizationId: string; name: string },
): Promise<TeamRow> {
  const org = await findUserOrganization(db, userId, input.organizationId);
  if (org === undefined) throw unprocessable('organization_id', 'is not an organization you belong to');
  requireAdmin(org.role);
  try {
    return await db
      .insertInto('teams')
      .values({ id: newId('team'), organization_id: org.id, name: input.name })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`The organization already has a team named "${input.name}"`);
    throw error;
  }
}

export async function renameTeam(db: Kysely<Database>, userId: string, teamId: string, name: string): Promise<TeamRow> {
  const team = await getTeam(db, userId, teamId);
  requireAdmin(team.role);
  try {
    return await db
      .updateTable('teams')
      .set({ name, updated_at: new Date() })
      .where('id', '=', team.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`The organization already has a team named "${name}"`);
    throw error;
  }
}

export async function deleteTeam(db: Kysely<Database>, userId: string, teamId: string): Promise<void> {
  const team = await getTeam(db, userId, teamId);
  requireAdmin(team.role);
  await db.deleteFrom('teams').where('id', '=', team.id).execute();
}
