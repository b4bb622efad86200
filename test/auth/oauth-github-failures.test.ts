import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/common/secret-box.js';
import { closedPortUrl, type FakeEndpoint, type FakeFailure } from '../fakes/fake-github.js';
import { createTestApp } from '../helpers/test-app.js';
import {
  callback,
  expectError,
  github,
  signIn,
  startSignIn,
  t,
  useOAuthApps,
  usersWithScmId,
} from './oauth-harness.js';

useOAuthApps();

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
