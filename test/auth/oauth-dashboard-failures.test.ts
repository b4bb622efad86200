import { describe, expect, it } from 'vitest';
import { countUsers } from '../../src/auth/accounts.js';
import { createTestApp } from '../helpers/test-app.js';
import { expectReducedError } from './error-bodies.js';
import { github, PUBLIC_URL, type Reply, startSignIn, t, useOAuthApps } from './oauth-harness.js';

/**
 * A GitHub sign-in the dashboard started (`GET /api/auth/scm?dashboard=true`) that fails comes
 * back to the dashboard's sign-in page with the error's code and message in the URL fragment,
 * never a token; the same failures of a sign-in an API client started answer the JSON errors of
 * decisions §2, unchanged. The state's row says who started a flow; without a row (a missing,
 * unknown or reused state), the cookie the dashboard's start answered does.
 */
useOAuthApps();

const COOKIE = 'redline_dashboard_sign_in=1';

async function startFromDashboard(): Promise<URL> {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/scm?dashboard=true' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['set-cookie']).toBe(
    'redline_dashboard_sign_in=1; Path=/api/auth/scm/callback; Max-Age=3600; HttpOnly; SameSite=Lax',
  );
  return new URL(res.json().redirect_url);
}

const stateOf = (authorizeUrl: URL) => authorizeUrl.searchParams.get('state') ?? '';

/** GitHub's redirect back, from a browser that does (or does not) hold the dashboard's start cookie. */
const back = (query: Record<string, string>, withCookie: boolean) =>
  t.app.inject({
    method: 'GET',
    url: `/api/auth/scm/callback?${new URLSearchParams(query)}`,
    headers: withCookie ? { cookie: COOKIE } : {},
  });

/** A 303 to exactly `location`, with no body, nothing stored and no cookie issued. */
function expectBackToDashboard(res: Reply, location: string) {
  expect({
    status: res.statusCode,
    location: res.headers.location,
    cacheControl: res.headers['cache-control'],
    setCookie: res.headers['set-cookie'],
    body: res.body,
  }).toEqual({ status: 303, location, cacheControl: 'no-store', setCookie: undefined, body: '' });
  expect(res.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]+$/);
}

const DECLINED = { error: 'access_denied', error_description: 'The user has denied your application access.' };

describe('a failed GitHub sign-in started by the dashboard', () => {
  it('goes back to the sign-in page when the state is missing', async () => {
    const usersBefore = await countUsers(t.database.db);
    const res = await back({ code: 'any' }, true);
    expectBackToDashboard(res, `${PUBLIC_URL}/app/#sign-in-error=unauthorized&message=Sign-in+state+is+missing`);
    expect(github.requestsTo('access_token')).toEqual([]);
    expect(await countUsers(t.database.db)).toBe(usersBefore);
  });

  it('goes back to the sign-in page when the state is unknown', async () => {
    const res = await back({ code: 'any', state: 'A'.repeat(43) }, true);
    expectBackToDashboard(
      res,
      `${PUBLIC_URL}/app/#sign-in-error=unauthorized&message=Sign-in+state+is+unknown+or+already+used`,
    );
    expect(github.requestsTo('access_token')).toEqual([]);
  });

  it('goes back to the sign-in page when the state is used a second time', async () => {
    const authorize = await startFromDashboard();
    const { callback } = github.authorize(authorize, github.addUser({ login: 'dash-twice' }));
    const query = Object.fromEntries(callback.searchParams);
    const first = await back(query, true);
    expect({ status: first.statusCode, location: first.headers.location }).toEqual({
      status: 303,
      location: `${PUBLIC_URL}/app/`,
    });
    const again = await back(query, true);
    expectBackToDashboard(
      again,
      `${PUBLIC_URL}/app/#sign-in-error=unauthorized&message=Sign-in+state+is+unknown+or+already+used`,
    );
  });

  it('goes back to the sign-in page when the state has expired, known from its row even without the cookie', async () => {
    const authorize = await startFromDashboard();
    t.clock.advance(10 * 60 * 1000 + 1);
    const { code, state } = github.authorize(authorize, github.addUser({ login: 'dash-slow' }));
    const res = await back({ code, state }, false);
    expectBackToDashboard(
      res,
      `${PUBLIC_URL}/app/#sign-in-error=unauthorized&message=Sign-in+state+has+expired%3B+start+again`,
    );
    expect(github.requestsTo('access_token')).toEqual([]);
  });

  it('goes back to the sign-in page when the user declined at GitHub', async () => {
    const state = stateOf(await startFromDashboard());
    const res = await back({ ...DECLINED, state }, true);
    expectBackToDashboard(
      res,
      `${PUBLIC_URL}/app/#sign-in-error=unauthorized&message=GitHub+sign-in+was+not+granted+%28access_denied%3A+The+user+has+denied+your+application+access.%29`,
    );
  });

  it('goes back to the sign-in page when GitHub refuses the code', async () => {
    const state = stateOf(await startFromDashboard());
    const res = await back({ code: 'never-issued', state }, true);
    expectBackToDashboard(
      res,
      `${PUBLIC_URL}/app/#sign-in-error=unauthorized&message=GitHub+refused+the+sign-in+code+%28bad_verification_code%3A+The+code+passed+is+incorrect+or+expired.%29`,
    );
    expect(github.requestsTo('access_token')).toHaveLength(1);
  });

  it('goes back to the sign-in page when the token exchange fails at GitHub', async () => {
    github.fail('access_token', { status: 500 });
    const authorize = await startFromDashboard();
    const user = github.addUser({ login: 'dash-upstream' });
    const { code, state } = github.authorize(authorize, user);
    const usersBefore = await countUsers(t.database.db);
    const res = await back({ code, state }, true);
    expectBackToDashboard(
      res,
      `${PUBLIC_URL}/app/#sign-in-error=upstream_error&message=GitHub+answered+500+while+completing+sign-in`,
    );
    expect(await countUsers(t.database.db)).toBe(usersBefore);
  });
});

describe("the server's own refusals of a dashboard sign-in", () => {
  it('go back to the sign-in page too: GitHub sign-in not configured, too many sign-ins', async () => {
    const unconfigured = await createTestApp({ database: t.database });
    try {
      const res = await unconfigured.app.inject({
        method: 'GET',
        url: '/api/auth/scm/callback?state=s&code=c',
        headers: { cookie: COOKIE },
      });
      expectBackToDashboard(
        res,
        `${PUBLIC_URL}/app/#sign-in-error=service_unavailable&message=GitHub+sign-in+is+not+configured+on+this+server+%28GITHUB_CLIENT_ID%2C+GITHUB_CLIENT_SECRET%29`,
      );
    } finally {
      await unconfigured.close();
    }

    const strict = await createTestApp({ env: { ...github.env(), SIGN_IN_RATE_LIMIT: '1' }, database: t.database });
    try {
      strict.clock.set('2026-11-22T10:05:00.000Z');
      const from = { remoteAddress: '203.0.113.9', headers: { cookie: COOKIE } };
      const first = await strict.app.inject({ method: 'GET', url: '/api/auth/scm?dashboard=true', ...from });
      expect(first.statusCode).toBe(200);
      const res = await strict.app.inject({ method: 'GET', url: '/api/auth/scm/callback?state=s&code=c', ...from });
      expectBackToDashboard(
        res,
        `${PUBLIC_URL}/app/#sign-in-error=rate_limit_exceeded&message=Too+many+sign-in+requests+from+this+address+%281+per+10+minutes%29%3B+retry+in+300+seconds`,
      );
    } finally {
      await strict.close();
    }
  });
});

describe('the same failures of a sign-in an API client started', () => {
  it('answer the JSON errors as before, without a cookie', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/scm' });
    expect(start.headers['set-cookie']).toBeUndefined();

    expectReducedError(await back({ code: 'any' }, false), {
      status: 401,
      code: 'unauthorized',
      message: 'Sign-in state is missing',
    });
    expectReducedError(await back({ code: 'any', state: 'A'.repeat(43) }, false), {
      status: 401,
      code: 'unauthorized',
      message: 'Sign-in state is unknown or already used',
    });

    const slow = await startSignIn(t);
    t.clock.advance(10 * 60 * 1000 + 1);
    expectReducedError(await back({ code: 'any', state: stateOf(slow) }, false), {
      status: 401,
      code: 'unauthorized',
      message: 'Sign-in state has expired; start again',
    });

    expectReducedError(await back({ code: 'never-issued', state: stateOf(await startSignIn(t)) }, false), {
      status: 401,
      code: 'unauthorized',
      message: 'GitHub refused the sign-in code (bad_verification_code: The code passed is incorrect or expired.)',
    });

    github.fail('access_token', { status: 500 });
    const { code, state } = github.authorize(await startSignIn(t), github.addUser({ login: 'api-upstream' }));
    expectReducedError(await back({ code, state }, false), {
      status: 502,
      code: 'upstream_error',
      message: 'GitHub answered 500 while completing sign-in',
    });
  });

  it('answer JSON even from a browser holding the dashboard cookie: the state row decides', async () => {
    const state = stateOf(await startSignIn(t));
    expectReducedError(await back({ ...DECLINED, state }, true), {
      status: 401,
      code: 'unauthorized',
      message: 'GitHub sign-in was not granted (access_denied: The user has denied your application access.)',
    });
  });
});
