import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Decisions §1: `GET /v1/organizations` and `/v1/organizations/:id` answer the organizations the
 * user belongs to; beyond the contract (docs/api.md), each carries the caller's own `role`, so an
 * admin and a plain member of the same organization read the same organization with their role.
 */
describe('organizations with the caller role', () => {
  let t: TestApp;
  let admin: { jwt: string };
  let member: { jwt: string };
  let shared: { id: string; created_at: string };
  let own: { id: string; created_at: string };

  const get = (jwt: string, url: string) => t.app.inject({ url, headers: { authorization: `Bearer ${jwt}` } });
  const meta = (res: { headers: Record<string, unknown> }) => ({
    request_id: res.headers['x-request-id'],
    timestamp: t.clock.now().toISOString(),
  });
  const personalOrganization = async (userId: string) => {
    const row = await t.database.db
      .selectFrom('organizations as o')
      .innerJoin('memberships as m', 'm.organization_id', 'o.id')
      .select(['o.id', 'o.created_at'])
      .where('m.user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { id: row.id, created_at: row.created_at.toISOString() };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.createUser('ada');
    const m = await t.createUser('max');
    shared = await personalOrganization(a.user.id);
    own = await personalOrganization(m.user.id);
    // Max joins Ada's organization as a plain member; he is the admin of his own.
    await t.database.db
      .insertInto('memberships')
      .values({ organization_id: shared.id, user_id: m.user.id, role: 'member' })
      .execute();
    admin = { jwt: a.jwt };
    member = { jwt: m.jwt };
  });
  afterAll(async () => t.close());

  it('answers each caller their own role in the list', async () => {
    const adaOrg = { id: shared.id, login: 'ada', name: 'ada', plan: 'free', created_at: shared.created_at };
    const maxOrg = { id: own.id, login: 'max', name: 'max', plan: 'free', created_at: own.created_at };
    const byName = (a: { login: string }, b: { login: string }) => a.login.localeCompare(b.login);

    const asAdmin = await get(admin.jwt, '/v1/organizations');
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toEqual({
      data: [{ ...adaOrg, role: 'admin' }],
      pagination: { has_more: false, next_cursor: null },
      meta: meta(asAdmin),
    });

    const asMember = await get(member.jwt, '/v1/organizations');
    expect(asMember.statusCode).toBe(200);
    const body = asMember.json();
    // Oldest first; both were made in the same test, so the order is checked apart from the roles.
    expect({ ...body, data: [...body.data].sort(byName) }).toEqual({
      data: [
        { ...adaOrg, role: 'member' },
        { ...maxOrg, role: 'admin' },
      ],
      pagination: { has_more: false, next_cursor: null },
      meta: meta(asMember),
    });
  });

  it('answers each caller their own role for one organization', async () => {
    const adaOrg = { id: shared.id, login: 'ada', name: 'ada', plan: 'free', created_at: shared.created_at };
    const asAdmin = await get(admin.jwt, `/v1/organizations/${shared.id}`);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toEqual({ data: { ...adaOrg, role: 'admin' }, meta: meta(asAdmin) });

    const asMember = await get(member.jwt, `/v1/organizations/${shared.id}`);
    expect(asMember.statusCode).toBe(200);
    expect(asMember.json()).toEqual({ data: { ...adaOrg, role: 'member' }, meta: meta(asMember) });

    // Ada is not a member of Max's organization: 404, as if it did not exist (decisions §1).
    expect((await get(admin.jwt, `/v1/organizations/${own.id}`)).statusCode).toBe(404);
  });
});
