import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Decisions §1: teams belong to one organization; members read them, admins manage them. */
describe('teams', () => {
  let t: TestApp;
  let admin: { id: string; jwt: string; orgId: string };
  let member: { id: string; jwt: string };
  let outsider: { id: string; jwt: string };

  const call = (jwt: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${jwt}` }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.createUser();
    const m = await t.createUser();
    const o = await t.createUser();
    const org = await t.database.db
      .selectFrom('memberships')
      .select('organization_id')
      .where('user_id', '=', a.user.id)
      .executeTakeFirstOrThrow();
    // The member joins the admin's organization as a plain member.
    await t.database.db
      .insertInto('memberships')
      .values({ organization_id: org.organization_id, user_id: m.user.id, role: 'member' })
      .execute();
    admin = { id: a.user.id, jwt: a.jwt, orgId: org.organization_id };
    member = { id: m.user.id, jwt: m.jwt };
    outsider = { id: o.user.id, jwt: o.jwt };
  });
  afterAll(async () => t.close());

  it('lets an admin create, rename and delete a team, and members read it', async () => {
    const created = await call(admin.jwt, 'POST', '/v1/teams', { organization_id: admin.orgId, name: ' Platform ' });
    expect(created.statusCode).toBe(201);
    const team = created.json().data;
    expect(Object.keys(team).sort()).toEqual(['created_at', 'id', 'name', 'organization_id']);
    expect(team).toMatchObject({ organization_id: admin.orgId, name: 'Platform' });
    expect(team.id).toMatch(/^team_/);

    const read = await call(member.jwt, 'GET', `/v1/teams/${team.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(team);

    const renamed = await call(admin.jwt, 'PATCH', `/v1/teams/${team.id}`, { name: 'Infra' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.name).toBe('Infra');

    const deleted = await call(admin.jwt, 'DELETE', `/v1/teams/${team.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call(admin.jwt, 'GET', `/v1/teams/${team.id}`)).statusCode).toBe(404);
  });

  it('refuses members who are not admins with 403 and outsiders with 404', async () => {
    const team = (await call(admin.jwt, 'POST', '/v1/teams', { organization_id: admin.orgId, name: 'Web' })).json()
      .data;

    const byMember = await call(member.jwt, 'PATCH', `/v1/teams/${team.id}`, { name: 'Mine' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().error.code).toBe('insufficient_permissions');

    for (const [method, payload] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const res = await call(outsider.jwt, method, `/v1/teams/${team.id}`, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('resource_not_found');
    }
    const intoForeignOrg = await call(outsider.jwt, 'POST', '/v1/teams', { organization_id: admin.orgId, name: 'Spy' });
    expect(intoForeignOrg.statusCode).toBe(422);
    expect(intoForeignOrg.json().error).toMatchObject({
      code: 'validation_error',
      details: { field: 'organization_id' },
    });
  });

  it('answers 409 for a duplicate name in the same organization, case-insensitively', async () => {
    expect(
      (await call(admin.jwt, 'POST', '/v1/teams', { organization_id: admin.orgId, name: 'Data' })).statusCode,
    ).toBe(201);
    const again = await call(admin.jwt, 'POST', '/v1/teams', { organization_id: admin.orgId, name: 'DATA' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('conflict');
  });

  it('validates names and pages through the list with exact has_more', async () => {
    const bad = await call(admin.jwt, 'POST', '/v1/teams', { organization_id: admin.orgId, name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'validation_error', details: { field: 'name' } });

    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const name of names) await call(admin.jwt, 'POST', '/v1/teams', { organization_id: admin.orgId, name });
    const all = (await call(member.jwt, 'GET', `/v1/teams?organization_id=${admin.orgId}&limit=100`)).json();
    expect(all.pagination).toEqual({ has_more: false, next_cursor: null });

    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await call(member.jwt, 'GET', `/v1/teams?limit=2${after ? `&after=${after}` : ''}`)).json();
      seen.push(...page.data.map((team: { id: string }) => team.id));
      if (!page.pagination.has_more) break;
      after = page.pagination.next_cursor;
      expect(after).toBe(page.data.at(-1).id);
    }
    expect(seen).toEqual(all.data.map((team: { id: string }) => team.id));
    expect((await call(outsider.jwt, 'GET', '/v1/teams')).json().data).toEqual([]);
  });

  it('needs team:read to read and team:write to manage', async () => {
    const token = await t.createToken(admin.id, { scopes: ['team:read'] });
    const list = await t.app.inject({ method: 'GET', url: '/v1/teams', headers: { 'x-api-key': token } });
    expect(list.statusCode).toBe(200);
    const create = await t.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: { 'x-api-key': token },
      payload: { organization_id: admin.orgId, name: 'Nope' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().error.message).toContain('team:write');
  });
});
