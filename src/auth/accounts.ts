import type { Kysely, Transaction } from 'kysely';
import { newId } from '../common/ids.js';
import type { Database, Plan, UserRow } from '../db/schema.js';
import type { GitHubAccount, GitHubMembership } from '../github/github-account.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The organization for a GitHub account (user or organization), created on first sight and kept
 * in step with its login. Decisions §1: organizations are GitHub accounts that own repositories.
 */
export async function ensureGitHubOrganization(
  db: Executor,
  account: { id: number; login: string; name?: string | null },
  kind: 'user' | 'organization',
  now: Date,
): Promise<string> {
  const row = await db
    .insertInto('organizations')
    .values({
      id: newId('org'),
      scm_id: account.id,
      login: account.login,
      name: account.name ?? null,
      kind,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('scm_id').doUpdateSet((eb) => ({
        login: eb.ref('excluded.login'),
        // A membership listing carries no display name: keep the one we have.
        name: account.name === undefined ? eb.ref('organizations.name') : eb.ref('excluded.name'),
        updated_at: now,
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Sign-in: create or update the user, their personal organization (admin) and, when GitHub told
 * us, their organization memberships, all in one transaction.
 */
export async function upsertGitHubUser(
  db: Kysely<Database>,
  input: {
    account: GitHubAccount;
    sealedToken: string;
    memberships: GitHubMembership[] | undefined;
    now: Date;
  },
): Promise<UserRow> {
  const { account, now } = input;
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({
        id: newId('usr'),
        scm_id: account.id,
        username: account.login,
        email: account.email,
        avatar_url: account.avatarUrl,
        github_token_sealed: input.sealedToken,
        memberships_synced_at: input.memberships ? now : null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.column('scm_id').doUpdateSet((eb) => ({
          username: eb.ref('excluded.username'),
          email: eb.ref('excluded.email'),
          avatar_url: eb.ref('excluded.avatar_url'),
          github_token_sealed: eb.ref('excluded.github_token_sealed'),
          memberships_synced_at: input.memberships ? now : eb.ref('users.memberships_synced_at'),
          updated_at: now,
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();

    const personal = await ensureGitHubOrganization(
      trx,
      { id: account.id, login: account.login, name: account.name },
      'user',
      now,
    );
    await upsertMembership(trx, personal, user.id, 'admin');

    if (input.memberships) await syncMemberships(trx, user.id, personal, input.memberships, now);
    return user;
  });
}

/**
 * Replaces the user's GitHub organization memberships with GitHub's list (the personal
 * organization and local-only organizations are kept).
 */
export async function syncMemberships(
  trx: Transaction<Database>,
  userId: string,
  personalOrganizationId: string,
  memberships: GitHubMembership[],
  now: Date,
): Promise<void> {
  const keep: string[] = [personalOrganizationId];
  for (const m of memberships) {
    const orgId = await ensureGitHubOrganization(trx, m.organization, 'organization', now);
    await upsertMembership(trx, orgId, userId, m.role);
    keep.push(orgId);
  }
  await trx
    .deleteFrom('memberships')
    .where('user_id', '=', userId)
    .where('organization_id', 'not in', keep)
    .where('organization_id', 'in', (eb) => eb.selectFrom('organizations').select('id').where('scm_id', 'is not', null))
    .execute();
  await trx.updateTable('users').set({ memberships_synced_at: now }).where('id', '=', userId).execute();
}

async function upsertMembership(db: Executor, organizationId: string, userId: string, role: 'admin' | 'member') {
  await db
    .insertInto('memberships')
    .values({ organization_id: organizationId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

/** A user with no GitHub account (operator set-up, decisions §9), with a personal organization. */
export async function createLocalUser(db: Kysely<Database>, username: string): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({ id: newId('usr'), username })
      .returningAll()
      .executeTakeFirstOrThrow();
    const org = await trx
      .insertInto('organizations')
      .values({ id: newId('org'), login: username, name: username, kind: 'user' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await upsertMembership(trx, org.id, user.id, 'admin');
    return user;
  });
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUsersByUsername(db: Executor, username: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .execute();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `redline plan set`: returns false when no such user or organization exists. */
export async function setPlan(db: Executor, id: string, plan: Plan): Promise<boolean> {
  const table = id.startsWith('usr_') ? 'users' : id.startsWith('org_') ? 'organizations' : undefined;
  if (table === undefined) return false;
  const result = await db
    .updateTable(table)
    .set({ plan, updated_at: new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
