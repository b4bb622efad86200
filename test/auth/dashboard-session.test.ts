import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSignInLink, SIGN_IN_LINK_LIFETIME_MS } from '../../src/auth/dashboard-sessions.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The dashboard's session (docs/dashboard.md): a one-time sign-in code opens it, an HttpOnly
 * cookie carries it, the API accepts it as the signed-in user with a CSRF token on changes, and
 * signing out ends it on the server.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

async function signInAs(username?: string) {
  const { user } = await t.createUser(username);
  const code = await issueSignInLink(t.database.db, user.id, t.clock.now());
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { sign_in_code: code } });
  expect(res.statusCode).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  const secret = /^redline_session=([0-9A-Za-z]+);/.exec(setCookie)?.[1] as string;
  return { user, code, res, setCookie, cookie: `redline_session=${secret}`, csrf: res.json().csrf_token as string };
}

const errorCode = (res: Reply) => res.json().error?.code;

describe('opening a session with a one-time code', () => {
  it('sets an HttpOnly SameSite=Lax cookie (not Secure over http) and answers the user and a CSRF token', async () => {
    const { user, res, setCookie } = await signInAs();
    expect(setCookie).toMatch(/^redline_session=[0-9A-Za-z]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      user: { id: user.id, username: user.username, plan: 'free' },
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: new Date(t.clock.now().getTime() + 12 * 3600_000).toISOString(),
    });
    // Only hashes are stored: neither the code nor the cookie's secret is in the database.
    const secret = setCookie.split(/[=;]/)[1] as string;
    const rows = await t.database.db
      .selectFrom('dashboard_sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('is Secure when PUBLIC_URL is https', async () => {
    const https = await createTestApp({ env: { PUBLIC_URL: 'https://redline.example' }, database: t.database });
    try {
      const { user } = await https.createUser();
      const code = await issueSignInLink(t.database.db, user.id, https.clock.now());
      const res = await https.app.inject({ method: 'POST', url: '/api/auth/session', payload: { sign_in_code: code } });
      expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await https.close();
    }
  });

  it('takes a code once: the second use is refused', async () => {
    const { code } = await signInAs();
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { sign_in_code: code } });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({
      error: { code: 'unauthorized', message: 'Sign-in link is unknown or already used', status: 401 },
    });
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a code past its ten minutes', async () => {
    const { user } = await t.createUser();
    const code = await issueSignInLink(t.database.db, user.id, t.clock.now());
    t.clock.advance(SIGN_IN_LINK_LIFETIME_MS);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { sign_in_code: code } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/expired/);
  });

  it('names the field when the body lacks the code', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('sign_in_code');
  });
});

describe('the session as a credential', () => {
  it('reads the API as the signed-in user, with every scope', async () => {
    const { cookie, user } = await signInAs();
    const res = await t.app.inject({ method: 'GET', url: '/v1/reviews', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const tokens = await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: { cookie } });
    expect(tokens.statusCode).toBe(200);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.json().user.id).toBe(user.id);
  });

  it('refuses a state-changing request without the CSRF token, and takes it with', async () => {
    const { cookie, csrf } = await signInAs();
    const body = { name: 'ci', scopes: ['review:read'] };
    const without = await t.app.inject({ method: 'POST', url: '/api/auth/tokens', headers: { cookie }, payload: body });
    expect(without.statusCode).toBe(403);
    expect(without.json().error.message).toMatch(/CSRF token in x-csrf-token/);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      // The last character changed to another (a token ending in A must not stay the same).
      headers: { cookie, 'x-csrf-token': `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}` },
      payload: body,
    });
    expect(wrong.statusCode).toBe(403);
    const withToken = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: body,
    });
    expect(withToken.statusCode).toBe(201);
    expect(withToken.json().token).toMatch(/^svc_live_/);
  });

  it('keeps object-level rules: another user cannot read a review through their session', async () => {
    const owner = await t.createUser();
    const key = await t.createToken(owner.user.id, { mode: 'test' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { authorization: `Bearer ${key}` },
      payload: { pull_request_url: 'https://github.com/acme/shop/pull/2' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const other = await signInAs();
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/reviews/${id}`,
      headers: { cookie: other.cookie, 'x-svc-mode': 'test' },
    });
    expect(res.statusCode).toBe(404);
    // The owner's own session sees it in test mode, and not in live mode.
    const code = await issueSignInLink(t.database.db, owner.user.id, t.clock.now());
    const opened = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { sign_in_code: code } });
    const cookie = `redline_session=${/redline_session=([^;]+)/.exec(String(opened.headers['set-cookie']))?.[1]}`;
    const asTest = await t.app.inject({
      method: 'GET',
      url: `/v1/reviews/${id}`,
      headers: { cookie, 'x-svc-mode': 'test' },
    });
    expect(asTest.statusCode).toBe(200);
    const asLive = await t.app.inject({ method: 'GET', url: `/v1/reviews/${id}`, headers: { cookie } });
    expect(asLive.statusCode).toBe(404);
  });

  it('refuses a key asking for the other mode, naming X-Svc-Mode', async () => {
    const { user } = await t.createUser();
    const key = await t.createToken(user.id, { mode: 'live' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/reviews',
      headers: { authorization: `Bearer ${key}`, 'x-svc-mode': 'test' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual({ field: 'X-Svc-Mode', issue: 'must be live or absent for this key' });
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v1/reviews',
      headers: { authorization: `Bearer ${key}`, 'x-svc-mode': 'x' },
    });
    expect(bad.json().error.details).toEqual({ field: 'X-Svc-Mode', issue: 'must be live or test' });
  });

  it('lets a header credential win over the cookie (no CSRF token asked of it)', async () => {
    const { cookie } = await signInAs();
    const other = await t.createUser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { cookie, authorization: `Bearer ${other.jwt}` },
      payload: { name: 'x', scopes: ['review:read'] },
    });
    expect(res.statusCode).toBe(201);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${other.jwt}` },
    });
    expect(list.json().tokens.map((k: { name: string }) => k.name)).toEqual(['x']);
  });
});

describe('signing out', () => {
  it('needs the CSRF token, then ends the session on the server and clears the cookie', async () => {
    const { cookie, csrf } = await signInAs();
    const forged = await t.app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie } });
    expect(forged.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/v1/reviews', headers: { cookie } })).statusCode).toBe(200);

    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/session',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toBe('redline_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');

    // The same cookie, replayed, opens nothing.
    const after = await t.app.inject({ method: 'GET', url: '/v1/reviews', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(errorCode(after)).toBe('invalid_api_key');
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.statusCode).toBe(401);
  });

  it('ends with its twelve hours', async () => {
    const { cookie } = await signInAs();
    t.clock.advance(12 * 3600_000);
    const res = await t.app.inject({ method: 'GET', url: '/v1/reviews', headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Session has ended; sign in again');
  });
});
