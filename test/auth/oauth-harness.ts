import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { FakeGitHub, type FakeUser } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * GitHub OAuth sign-in (spec 4.1 and 5; decisions §2 and §3) against a fake GitHub that is a real
 * HTTP server, so the service's own fetch and Octokit go over the wire exactly as in production.
 * The browser is simulated: the test reads the authorization URL, has the fake "approve" it
 * (which issues a code bound to the PKCE challenge), then follows the redirect with inject.
 */

export const PUBLIC_URL = 'http://redline.test'; // createTestApp's default
export const CALLBACK_URL = `${PUBLIC_URL}/api/auth/scm/callback`;

export type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

/** Spec 7.1: the sign-in endpoints answer `{ error: { code, message, status } }` and nothing else. */
export function expectError(res: Reply, status: number, code: string, message: RegExp) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status,
    body: { error: { code, message: expect.stringMatching(message), status } },
  });
}

export async function startSignIn(t: TestApp): Promise<URL> {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/scm' });
  expect(res.statusCode).toBe(200);
  return new URL(res.json().redirect_url);
}

export function callback(t: TestApp, query: Record<string, string>): Promise<Reply> {
  return t.app.inject({ method: 'GET', url: `/api/auth/scm/callback?${new URLSearchParams(query)}` });
}

/** The whole flow: start, approve at GitHub, follow GitHub's redirect back to the service. */
export async function signIn(t: TestApp, github: FakeGitHub, user: FakeUser): Promise<Reply> {
  const { callback: back } = github.authorize(await startSignIn(t), user);
  return t.app.inject({ method: 'GET', url: back.pathname + back.search });
}

export async function organizationLogins(t: TestApp, jwt: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/v1/organizations',
    headers: { authorization: `Bearer ${jwt}` },
  });
  expect(res.statusCode).toBe(200);
  return res
    .json()
    .data.map((o: { login: string }) => o.login)
    .sort();
}

export const decodeClaims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));

export const usersWithScmId = (t: TestApp, scmId: number) =>
  t.database.db.selectFrom('users').selectAll().where('scm_id', '=', scmId).execute();

// Two instances over one database: the github.com URL form (API on its own root, here '/api')
// and the GitHub Enterprise Server form (API under '/api/v3' of the web host).
export type Form = 'github.com' | 'enterprise';
export let forms: Record<Form, { github: FakeGitHub; t: TestApp }>;
export let github: FakeGitHub; // the github.com form, used by every test that does not say otherwise
export let t: TestApp;

/** Starts both forms (github.com and Enterprise) for the file, closes them after it, resets the fakes before each test. */
export function useOAuthApps(): void {
  beforeAll(async () => {
    github = await FakeGitHub.start({ apiBasePath: '/api' });
    t = await createTestApp({ env: github.env() });
    const enterprise = await FakeGitHub.start({ apiBasePath: '/api/v3' });
    forms = {
      'github.com': { github, t },
      enterprise: { github: enterprise, t: await createTestApp({ env: enterprise.env(), database: t.database }) },
    };
  });

  afterAll(async () => {
    await forms?.enterprise.t.close(); // leaves the shared database to t
    await t?.close();
    await Promise.all([github?.close(), forms?.enterprise.github.close()]);
  });

  beforeEach(() => {
    for (const form of Object.values(forms)) form.github.reset();
  });
}
