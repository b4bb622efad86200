import { describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { auth, createReview, github, signIn, t, unique, useLiveApp } from '../reviews/live-harness.js';

/**
 * Beyond the contract (docs/api.md): `GET /v1/organizations/:id/usage` answers an organization's
 * plan and its review quota used, counted as the quota check counts: live reviews created through
 * the API in the rolling hour and day, test reviews never. GitHub is the fake of test/fakes.
 */
useLiveApp();

const HOUR = 3_600_000;
const T0 = '2026-11-20T10:00:00.000Z';

const usage = (credential: string, organizationId: string) =>
  t.app.inject({ url: `/v1/organizations/${organizationId}/usage`, headers: auth(credential) });

/** The exact body, meta included. */
const body = (res: { headers: Record<string, unknown> }, data: object) => ({
  data,
  meta: { request_id: res.headers['x-request-id'], timestamp: t.clock.now().toISOString() },
});

/** A GitHub organization the user is an admin of, a repository and a pull request, signed in at `at`. */
async function orgWithAdmin(at: string) {
  t.clock.set(at);
  const org = github.addOrg(unique('acme'));
  const repo = github.addRepo(org, unique('shop'));
  const pull = github.addPullRequest(repo, { number: 7 });
  const fake = github.addUser({ login: unique('dev'), memberships: [{ organization: org, role: 'admin' }] });
  const account = await signIn(t, github, fake);
  // A two-day key: the test moves the clock across a day.
  const key = await t.createToken(account.userId, { expiresInSeconds: 2 * 86_400 });
  const row = await t.database.db
    .selectFrom('organizations')
    .select('id')
    .where('scm_id', '=', org.id)
    .executeTakeFirstOrThrow();
  return { account, key, organizationId: row.id, url: github.pullRequestUrl(repo, pull) };
}

describe('GET /v1/organizations/:id/usage', () => {
  it('counts the live reviews of the rolling hour and day exactly as the quota check does', async () => {
    const s = await orgWithAdmin(new Date(Date.parse(T0) - 2 * HOUR).toISOString());
    const create = async (n: number) => {
      for (let i = 0; i < n; i++) {
        expect((await createReview(s.key, { pull_request_url: s.url, auto_review: false })).statusCode).toBe(201);
      }
    };
    const before = await usage(s.key, s.organizationId);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual(
      body(before, {
        organization_id: s.organizationId,
        plan: 'free',
        review_quota: { hour: { limit: 10, used: 0, remaining: 10 }, day: { limit: 20, used: 0, remaining: 20 } },
      }),
    );

    await create(3); // at 08:00: in the day, out of the hour by 10:00
    t.clock.set(T0);
    await create(2);
    const now = await usage(s.key, s.organizationId);
    expect(now.json()).toEqual(
      body(now, {
        organization_id: s.organizationId,
        plan: 'free',
        review_quota: { hour: { limit: 10, used: 2, remaining: 8 }, day: { limit: 20, used: 5, remaining: 15 } },
      }),
    );

    // remaining is what the check lets through: 8 more, then 429.
    await create(8);
    const full = await usage(s.key, s.organizationId);
    expect(full.json().data.review_quota).toEqual({
      hour: { limit: 10, used: 10, remaining: 0 },
      day: { limit: 20, used: 13, remaining: 7 },
    });
    expect((await createReview(s.key, { pull_request_url: s.url })).statusCode).toBe(429);

    // Enterprise: no daily cap, and the day still counts all of its reviews.
    await setPlan(t.database.db, s.organizationId, 'enterprise');
    const enterprise = await usage(s.key, s.organizationId);
    expect(enterprise.json()).toEqual(
      body(enterprise, {
        organization_id: s.organizationId,
        plan: 'enterprise',
        review_quota: {
          hour: { limit: 1000, used: 10, remaining: 990 },
          day: { limit: null, used: 13, remaining: null },
        },
      }),
    );

    // The reviews of 08:00 leave the day at 08:00 the next day.
    t.clock.set(new Date(Date.parse(T0) + 22 * HOUR + 1));
    expect((await usage(s.key, s.organizationId)).json().data.review_quota).toEqual({
      hour: { limit: 1000, used: 0, remaining: 1000 },
      day: { limit: null, used: 10, remaining: null },
    });
  });

  it('never counts test reviews', async () => {
    const s = await orgWithAdmin(T0);
    const testKey = await t.createToken(s.account.userId, { mode: 'test' });
    // A test review goes to the user's own organization (decisions §2), and is free.
    const created = await createReview(testKey, { pull_request_url: s.url });
    expect(created.statusCode).toBe(201);
    const personal = (
      await t.database.db
        .selectFrom('organizations')
        .select('id')
        .where('login', '=', s.account.fake.login)
        .executeTakeFirstOrThrow()
    ).id;
    expect(await t.database.db.selectFrom('reviews').select('organization_id').execute()).toContainEqual({
      organization_id: personal,
    });
    const res = await usage(s.account.jwt, personal);
    expect(res.json()).toEqual(
      body(res, {
        organization_id: personal,
        plan: 'free',
        review_quota: { hour: { limit: 10, used: 0, remaining: 10 }, day: { limit: 20, used: 0, remaining: 20 } },
      }),
    );
  });

  it('answers 404 to a user outside the organization, as GET /v1/organizations/:id does', async () => {
    const s = await orgWithAdmin(T0);
    const { jwt } = await t.createUser();
    for (const url of [`/v1/organizations/${s.organizationId}/usage`, `/v1/organizations/${s.organizationId}`]) {
      const res = await t.app.inject({ url, headers: auth(jwt) });
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 404,
        body: {
          error: {
            type: 'not_found_error',
            code: 'resource_not_found',
            status: 404,
            message: 'Organization not found',
          },
          meta: { request_id: res.headers['x-request-id'], timestamp: t.clock.now().toISOString() },
        },
      });
    }
    const unknown = await usage(jwt, 'org_doesnotexist');
    expect(unknown.statusCode).toBe(404);
  });

  it('needs org:read', async () => {
    const s = await orgWithAdmin(T0);
    const key = await t.createToken(s.account.userId, { scopes: ['review:read', 'team:read'] });
    const res = await usage(key, s.organizationId);
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 403,
      body: {
        error: {
          type: 'permission_error',
          code: 'insufficient_permissions',
          status: 403,
          message: 'This credential lacks the required scope: org:read',
        },
        meta: { request_id: res.headers['x-request-id'], timestamp: t.clock.now().toISOString() },
      },
    });
  });
});
