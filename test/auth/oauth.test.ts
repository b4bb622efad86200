import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countUsers } from '../../src/auth/accounts.js';
import { SecretBox } from '../../src/common/secret-box.js';
import { closedPortUrl, type FakeEndpoint, type FakeFailure, FakeGitHub, type FakeUser } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * GitHub OAuth sign-in (spec 4.1 and 5; decisions §2 and §3) against a fake GitHub that is a real
 * HTTP server, so the service's own fetch and Octokit go over the wire exactly as in production.
 * The browser is simulated: the test reads the authorization URL, has the fake "approve" it
 * (which issues a code bound to the PKCE challenge), then follows the redirect with inject.
 */

const PUBLIC_URL = 'http://redline.test'; // createTestApp's default
const CALLBACK_URL = `${PUBLIC_URL}/api/auth/scm/callback`;

type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

/** Spec 7.1: the sign-in endpoints answer `{ error: { code, message, status } }` and nothing else. */
function expectError(res: Reply, status: number, code: string, message: RegExp) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status,
    body: { error: { code, message: expect.stringMatching(message), status } },
  });
}

async function startSignIn(t: TestApp): Promise<URL> {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/scm' });
  expect(res.statusCode).toBe(200);
  return new URL(res.json().redirect_url);
}

function callback(t: TestApp, query: Record<string, string>): Promise<Reply> {
  return t.app.inject({ method: 'GET', url: `/api/auth/scm/callback?${new URLSearchParams(query)}` });
}

/** The whole flow: start, approve at GitHub, follow GitHub's redirect back to the service. */
async function signIn(t: TestApp, github: FakeGitHub, user: FakeUser): Promise<Reply> {
  const { callback: back } = github.authorize(await startSignIn(t), user);
  return t.app.inject({ method: 'GET', url: back.pathname + back.search });
}

async function organizationLogins(t: TestApp, jwt: string): Promise<string[]> {
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

const decodeClaims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));

const usersWithScmId = (t: TestApp, scmId: number) =>
  t.database.db.selectFrom('users').selectAll().where('scm_id', '=', scmId).execute();

// Two instances over one database: the github.com URL form (API on its own root, here '/api')
// and the GitHub Enterprise Server form (API under '/api/v3' of the web host).
type Form = 'github.com' | 'enterprise';
let forms: Record<Form, { github: FakeGitHub; t: TestApp }>;
let github: FakeGitHub; // the github.com form, used by every test that does not say otherwise
let t: TestApp;

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

describe('successful sign-in', () => {
  it.each<Form>(['github.com', 'enterprise'])('runs end to end on the %s URL form', async (form) => {
    const { github, t } = forms[form];
    const user = github.addUser({ login: `octo-${form.replace('.', '-')}`, name: 'Octo Cat' });

    // The authorization URL is on GitHub's web host (GITHUB_SERVER_URL), never the API host.
    const redirect = await startSignIn(t);
    expect(redirect.origin + redirect.pathname).toBe(`${github.serverUrl}/login/oauth/authorize`);
    const authorizeQuery = Object.fromEntries(redirect.searchParams);
    expect(authorizeQuery).toEqual({
      client_id: github.clientId,
      redirect_uri: CALLBACK_URL,
      scope: 'read:user user:email read:org repo',
      state: expect.stringMatching(/^[A-Za-z0-9]{32,}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), // base64url SHA-256
      code_challenge_method: 'S256',
    });

    const { code, callback: back } = github.authorize(redirect, user);
    expect(back.origin + back.pathname).toBe(CALLBACK_URL);
    const res = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      token: expect.any(String),
      user: {
        id: expect.stringMatching(/^usr_/),
        scm_id: user.id,
        username: user.login,
        email: user.email,
        avatar_url: user.avatar_url,
      },
    });

    // Decisions §2: iss = PUBLIC_URL, aud = redline, sub = the user, one hour.
    const claims = decodeClaims(body.token);
    expect(claims).toMatchObject({ iss: PUBLIC_URL, aud: 'redline', sub: body.user.id });
    expect(claims.iat).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(claims.exp - claims.iat).toBe(3600);

    // The JWT is accepted where a JWT is required and where any credential is.
    const tokens = await t.app.inject({
      method: 'GET',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json()).toEqual({ tokens: [] });
    expect(await organizationLogins(t, body.token)).toEqual([user.login]);

    // What GitHub received: the code exchange, then the API under this form's base path.
    const accessToken = github.issuedTokens.at(-1)?.token;
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /login/oauth/access_token',
      `GET ${github.apiBasePath}/user`,
      `GET ${github.apiBasePath}/user/memberships/orgs`,
    ]);
    const [exchange, getUser, listMemberships] = github.requests;
    expect(exchange?.headers.accept).toBe('application/json');
    expect(exchange?.form).toEqual({
      client_id: github.clientId,
      client_secret: github.clientSecret,
      code,
      redirect_uri: CALLBACK_URL,
      code_verifier: expect.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/), // RFC 7636 §4.1
    });
    const verifier = exchange?.form?.code_verifier ?? '';
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(authorizeQuery.code_challenge);
    expect(getUser?.headers.authorization).toBe(`token ${accessToken}`);
    expect(listMemberships?.headers.authorization).toBe(`token ${accessToken}`);
    expect(listMemberships?.query).toEqual({ state: 'active', per_page: '100' });
  });

  it('takes the primary verified address from /user/emails when the profile e-mail is private', async () => {
    const user = github.addUser({
      login: 'private-mail',
      email: null,
      emails: [
        { email: 'noreply@users.example.test', primary: false, verified: true, visibility: null },
        { email: 'unverified@example.test', primary: false, verified: false, visibility: null },
        { email: 'main@example.test', primary: true, verified: true, visibility: 'private' },
      ],
    });
    const res = await signIn(t, github, user);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('main@example.test');
    expect(github.requestsTo('emails')).toHaveLength(1);
  });

  it('follows the organization memberships GitHub lists, across pages, and drops the ones it stops listing', async () => {
    const acme = github.addOrg('acme');
    const widgets = github.addOrg('widgets');
    const user = github.addUser({
      login: 'member-mo',
      memberships: [
        { organization: acme, role: 'admin' },
        { organization: widgets, role: 'member' },
        { organization: github.addOrg('invited'), role: 'member', state: 'pending' }, // not a member yet
      ],
    });
    github.maxPerPage = 1; // one membership per page: Octokit must follow the Link header
    const first = await signIn(t, github, user);
    expect(first.statusCode).toBe(200);
    expect(github.requestsTo('memberships').map((r) => r.query.page)).toEqual([undefined, '2']);
    expect(await organizationLogins(t, first.json().token)).toEqual(['acme', 'member-mo', 'widgets']);

    // Decisions §1: GitHub organization admins are admins in Redline; the personal account is the user's.
    const roles = await t.database.db
      .selectFrom('memberships as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.login', 'm.role'])
      .where('m.user_id', '=', first.json().user.id)
      .orderBy('o.login')
      .execute();
    expect(roles).toEqual([
      { login: 'acme', role: 'admin' },
      { login: 'member-mo', role: 'admin' },
      { login: 'widgets', role: 'member' },
    ]);

    user.memberships = user.memberships.filter((m) => m.organization !== widgets);
    const second = await signIn(t, github, user);
    expect(second.statusCode).toBe(200);
    expect(await organizationLogins(t, second.json().token)).toEqual(['acme', 'member-mo']);
  });

  it('keeps the same user when the same GitHub account signs in again, taking its new login and avatar', async () => {
    const user = github.addUser({ login: 'before-rename' });
    const first = await signIn(t, github, user);
    expect(first.statusCode).toBe(200);

    user.login = 'after-rename';
    user.avatar_url = 'https://avatars.example.test/u/new-picture';
    const second = await signIn(t, github, user);
    expect(second.statusCode).toBe(200);
    expect(second.json().user).toEqual({ ...first.json().user, username: 'after-rename', avatar_url: user.avatar_url });
    expect(await usersWithScmId(t, user.id)).toHaveLength(1);
    // The personal organization follows the rename too.
    expect(await organizationLogins(t, second.json().token)).toEqual(['after-rename']);
  });

  it('still signs in when GitHub will not list memberships, keeping the personal organization', async () => {
    github.fail('memberships', { status: 403, body: { message: 'Resource not accessible by integration' } });
    const res = await signIn(t, github, github.addUser({ login: 'no-read-org' }));
    expect(res.statusCode).toBe(200);
    expect(await organizationLogins(t, res.json().token)).toEqual(['no-read-org']);
  });
});

describe('state (decisions §2: random, single use, ten minutes)', () => {
  /** A refused callback issues nothing: GitHub is not asked for a token and no user is created. */
  async function expectRefused(user: FakeUser, act: () => Promise<Reply>, message: RegExp) {
    const usersBefore = await countUsers(t.database.db);
    expectError(await act(), 401, 'unauthorized', message);
    expect(github.requestsTo('access_token')).toEqual([]);
    expect(await usersWithScmId(t, user.id)).toEqual([]);
    expect(await countUsers(t.database.db)).toBe(usersBefore);
  }

  it('refuses a callback without state', async () => {
    const user = github.addUser({ login: 'no-state' });
    const { code } = github.authorize(await startSignIn(t), user);
    await expectRefused(user, () => callback(t, { code }), /state is missing/);
  });

  it('refuses a state the service never issued', async () => {
    const user = github.addUser({ login: 'forged-state' });
    const { code } = github.authorize(await startSignIn(t), user);
    await expectRefused(user, () => callback(t, { code, state: 'A'.repeat(43) }), /unknown or already used/);
  });

  it('refuses a state used a second time, even with a fresh code', async () => {
    const redirect = await startSignIn(t);
    const first = github.authorize(redirect, github.addUser({ login: 'first-use' }));
    expect((await callback(t, { code: first.code, state: first.state })).statusCode).toBe(200);
    github.reset();

    // Someone replays the callback URL's state with a code of their own for the same challenge.
    const replayer = github.addUser({ login: 'replayer' });
    const { code } = github.authorize(redirect, replayer);
    await expectRefused(replayer, () => callback(t, { code, state: first.state }), /unknown or already used/);
  });

  it('refuses a state older than ten minutes', async () => {
    const user = github.addUser({ login: 'slow-user' });
    const redirect = await startSignIn(t);
    t.clock.advance(10 * 60 * 1000 + 1);
    const { code, state } = github.authorize(redirect, user);
    await expectRefused(user, () => callback(t, { code, state }), /expired/);
  });

  it('refuses the sign-in when the user declined at GitHub', async () => {
    const user = github.addUser({ login: 'declined' });
    const state = (await startSignIn(t)).searchParams.get('state') ?? '';
    const declined = { error: 'access_denied', error_description: 'The user has denied your application access.' };
    await expectRefused(user, () => callback(t, { ...declined, state }), /access_denied/);
  });
});

describe('GitHub failures answer 401 or 502, never 500', () => {
  it('answers 401 when GitHub refuses the code (bad_verification_code)', async () => {
    const state = (await startSignIn(t)).searchParams.get('state') ?? '';
    expectError(await callback(t, { code: 'never-issued', state }), 401, 'unauthorized', /bad_verification_code/);
    expect(github.requestsTo('access_token')).toHaveLength(1);
  });

  it('answers 401 when GitHub rejects the access token on /user', async () => {
    github.fail('user', { status: 401, body: { message: 'Bad credentials' } });
    const user = github.addUser({ login: 'revoked-at-once' });
    expectError(await signIn(t, github, user), 401, 'unauthorized', /rejected the access token/);
    expect(await usersWithScmId(t, user.id)).toEqual([]);
  });

  it.each<[string, FakeEndpoint, FakeFailure]>([
    ['the token endpoint answers 500', 'access_token', { status: 500 }],
    ['the token endpoint drops the connection', 'access_token', { drop: true }],
    ['the token endpoint answers HTML', 'access_token', { status: 200, body: '<html>Unicorn!</html>' }],
    ['the token endpoint answers without a token', 'access_token', { status: 200, body: { token_type: 'bearer' } }],
    ['/user answers 500', 'user', { status: 500 }],
    ['/user drops the connection', 'user', { drop: true }],
  ])('answers 502 upstream_error when %s', async (_, endpoint, failure) => {
    github.fail(endpoint, failure);
    const user = github.addUser({ login: `upstream-${endpoint}` });
    expectError(await signIn(t, github, user), 502, 'upstream_error', /GitHub/);
    expect(await usersWithScmId(t, user.id)).toEqual([]);
  });

  it('answers 502 upstream_error, not 401, when GitHub refuses the client secret (our set-up, not the user)', async () => {
    const env = { ...github.env(), GITHUB_CLIENT_SECRET: randomBytes(20).toString('hex') };
    const misconfigured = await createTestApp({ env, database: t.database });
    try {
      const user = github.addUser({ login: 'victim-of-config' });
      const res = await signIn(misconfigured, github, user);
      expectError(res, 502, 'upstream_error', /incorrect_client_credentials.*GITHUB_CLIENT_SECRET/);
      expect(await usersWithScmId(t, user.id)).toEqual([]);
    } finally {
      await misconfigured.close();
    }
  });

  it('answers 502 upstream_error when GitHub cannot be reached', async () => {
    const nowhere = await closedPortUrl();
    const env = { ...github.env(), GITHUB_SERVER_URL: nowhere, GITHUB_API_URL: `${nowhere}/api` };
    const offline = await createTestApp({ env, database: t.database });
    try {
      const state = (await startSignIn(offline)).searchParams.get('state') ?? '';
      expectError(await callback(offline, { code: 'any', state }), 502, 'upstream_error', /could not be reached/);
    } finally {
      await offline.close();
    }
  });
});

it('answers 503 on both endpoints when OAuth is not configured', async () => {
  const unconfigured = await createTestApp({ database: t.database });
  try {
    const start = await unconfigured.app.inject({ method: 'GET', url: '/api/auth/scm' });
    expectError(start, 503, 'service_unavailable', /not configured/);
    expectError(await callback(unconfigured, { code: 'c', state: 's' }), 503, 'service_unavailable', /not configured/);
  } finally {
    await unconfigured.close();
  }
});

it('keeps the GitHub access token (and pending states) only sealed at rest', async () => {
  const user = github.addUser({ login: 'vault' });
  const res = await signIn(t, github, user);
  expect(res.statusCode).toBe(200);
  const accessToken = github.issuedTokens.at(-1)?.token ?? '';
  expect(accessToken.length).toBeGreaterThan(20); // one the fake issued, not a placeholder
  expect(res.body).not.toContain(accessToken);
  // A sign-in left half-way keeps a row in oauth_states: its state must not be there in clear either.
  const pendingState = (await startSignIn(t)).searchParams.get('state') ?? '';

  const db = t.database.db;
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const tables = rows.map((r) => r.table_name);
  expect(tables).toEqual(expect.arrayContaining(['users', 'oauth_states', 'organizations', 'memberships']));
  for (const table of tables) {
    const dump = JSON.stringify((await sql`select * from ${sql.table(table)}`.execute(db)).rows);
    expect(dump, table).not.toContain(accessToken);
    expect(dump, table).not.toContain(pendingState);
  }
  expect(await db.selectFrom('oauth_states').select('state_hash').execute()).not.toEqual([]);

  // Sealed, not lost: the service can open it again with ENCRYPTION_KEY to act for the user.
  const [row] = await usersWithScmId(t, user.id);
  expect(row?.github_token_sealed).toMatch(/^v1\./);
  expect(new SecretBox(t.secrets.encryptionKey).open(row?.github_token_sealed ?? '')).toBe(accessToken);
});

describe('membership refresh (decisions §1: read at sign-in, refreshed at most hourly)', () => {
  it('re-reads GitHub memberships in the background once they are an hour old, not before', async () => {
    const t = await createTestApp({ env: github.env() });
    try {
      const early = github.addOrg('early-org');
      const late = github.addOrg('late-org');
      const user = github.addUser({ login: 'refresher', memberships: [{ organization: early, role: 'member' }] });
      const jwt = (await signIn(t, github, user)).json().token as string;
      // The sign-in JWT lasts an hour; an API token carries on past it.
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/auth/tokens',
        headers: { authorization: `Bearer ${jwt}` },
        payload: { name: 'long', scopes: ['org:read'] },
      });
      const key = created.json().token as string;
      expect(await organizationLogins(t, jwt)).toEqual(['early-org', 'refresher']);
      const membershipReads = () => github.requestsTo('memberships').length;
      const readsAtSignIn = membershipReads();

      // GitHub now lists another organization and no longer the first one.
      user.memberships = [{ organization: late, role: 'admin' }];
      t.clock.advance(59 * 60_000);
      expect(await organizationLogins(t, key)).toEqual(['early-org', 'refresher']);
      expect(await t.runJobs()).toBe(0);
      expect(membershipReads()).toBe(readsAtSignIn);

      t.clock.advance(60_000);
      // This request queues the refresh and answers at once from what we have.
      expect(await organizationLogins(t, key)).toEqual(['early-org', 'refresher']);
      await organizationLogins(t, key);
      expect(await t.runJobs()).toBe(1);
      expect(membershipReads()).toBe(readsAtSignIn + 1);
      expect(await organizationLogins(t, key)).toEqual(['late-org', 'refresher']);
      const role = await t.database.db
        .selectFrom('memberships as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .select('m.role')
        .where('o.login', '=', 'late-org')
        .executeTakeFirstOrThrow();
      expect(role.role).toBe('admin');
    } finally {
      await t.close();
    }
  });
});
