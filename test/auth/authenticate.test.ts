import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/auth/api-token-format.js';
import { jwtKeys, signUserJwt } from '../../src/auth/jwt.js';
import { loadConfig } from '../../src/config/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import type { Database, UserRow } from '../../src/db/schema.js';
import { buildApp } from '../../src/http/build-app.js';
import { createTestApp, type TestApp, testSecrets } from '../helpers/test-app.js';
import { type TestClock, testClock } from '../helpers/test-clock.js';
import { bearer, expectApiError, expectReducedError } from './error-bodies.js';

/**
 * How /v1 and the token endpoints check credentials (spec 5, decisions §2), through HTTP.
 * GET /v1/organizations needs `org:read`; GET /api/auth/tokens needs the sign-in JWT.
 */
let t: TestApp;
let user: UserRow;
let jwt: string;
let start: Date;

beforeAll(async () => {
  t = await createTestApp();
  ({ user, jwt } = await t.createUser());
  start = t.clock.now();
});
afterEach(() => t.clock.set(start));
afterAll(async () => t.close());

const LIVE = `svc_${'live'}_`;
const TEST = `svc_${'test'}_`;

const orgs = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/organizations', headers });
const listTokens = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers });
const refused = (message: string) => ({ status: 401, code: 'invalid_api_key', message });

/** A token issued through POST /api/auth/tokens, as a client would get one. */
async function issue(scopes: string[] = ['org:read']): Promise<{ id: string; token: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: bearer(jwt),
    payload: { name: 'auth test', scopes },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('API tokens on /v1', () => {
  it('a live token opens /v1 through Authorization: Bearer and through X-API-Key', async () => {
    const token = await t.createToken(user.id, { scopes: ['org:read'] });
    for (const headers of [bearer(token), { 'x-api-key': token }, { authorization: `bearer ${token}` }]) {
      const res = await orgs(headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((o: { login: string }) => o.login)).toEqual([user.username]);
    }
  });

  it('a test-mode token works too', async () => {
    const token = await t.createToken(user.id, { scopes: ['org:read'], mode: 'test' });
    expect(token.startsWith(TEST)).toBe(true);
    expect((await orgs({ 'x-api-key': token })).statusCode).toBe(200);
  });

  it.each<[string, () => Promise<string> | string, string]>([
    ['too short', () => `${LIVE}abc`, 'API key is malformed'],
    ['a character outside base62', () => `${LIVE}${'A'.repeat(20)}!${'A'.repeat(17)}`, 'API key is malformed'],
    [
      'a bad checksum',
      async () => {
        const token = await t.createToken(user.id);
        return token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
      },
      'API key checksum does not match',
    ],
    ['a well-formed token that was never issued', () => generateApiToken('live'), 'API key is not recognised'],
    [
      'a real live token with the test prefix',
      async () => TEST + (await t.createToken(user.id)).slice(LIVE.length),
      'API key is not recognised',
    ],
    [
      'a real test token with the live prefix',
      async () => LIVE + (await t.createToken(user.id, { mode: 'test' })).slice(TEST.length),
      'API key is not recognised',
    ],
  ])('%s answers 401 invalid_api_key', async (_name, build, message) => {
    const token = await build();
    expectApiError(await orgs({ 'x-api-key': token }), t.clock, refused(message));
    expectApiError(await orgs(bearer(token)), t.clock, refused(message));
  });

  it('a token revoked through the API answers 401 on its next request', async () => {
    const { id, token } = await issue();
    expect((await orgs(bearer(token))).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: bearer(jwt) });
    expect(del.statusCode).toBe(200);
    expectApiError(await orgs(bearer(token)), t.clock, refused('API key has been revoked'));
    expectApiError(await orgs({ 'x-api-key': token }), t.clock, refused('API key has been revoked'));
  });

  it('a token works until its expires_at and answers 401 from then on', async () => {
    const token = await t.createToken(user.id, { scopes: ['org:read'], expiresInSeconds: 60 });
    t.clock.advance(59_999);
    expect((await orgs(bearer(token))).statusCode).toBe(200);
    t.clock.advance(1);
    expectApiError(await orgs(bearer(token)), t.clock, refused('API key has expired'));
  });

  it('a token without the scope answers 403 insufficient_permissions naming it', async () => {
    const token = await t.createToken(user.id, { scopes: ['review:read', 'org:write', 'team:read'] });
    expectApiError(await orgs(bearer(token)), t.clock, {
      status: 403,
      code: 'insufficient_permissions',
      message: 'This credential lacks the required scope: org:read',
    });
  });
});

describe('credential headers', () => {
  it('accepts Authorization and X-API-Key together when they carry the same credential', async () => {
    const token = await t.createToken(user.id, { scopes: ['org:read'] });
    expect((await orgs({ ...bearer(token), 'x-api-key': token })).statusCode).toBe(200);
    expect((await listTokens({ ...bearer(jwt), 'x-api-key': jwt })).statusCode).toBe(200);
  });

  it('refuses two different credentials with 400 invalid_request', async () => {
    const one = await t.createToken(user.id, { scopes: ['org:read'] });
    const two = await t.createToken(user.id, { scopes: ['org:read'] });
    expectApiError(await orgs({ ...bearer(one), 'x-api-key': two }), t.clock, {
      status: 400,
      code: 'invalid_request',
      message: 'Authorization and X-API-Key carry different credentials; send one',
      details: { field: 'X-API-Key', issue: 'differs from the Authorization header' },
    });
    expectReducedError(await listTokens({ ...bearer(jwt), 'x-api-key': one }), {
      status: 400,
      code: 'invalid_request',
      message: 'Authorization and X-API-Key carry different credentials; send one',
    });
  });

  it('refuses an Authorization scheme other than Bearer', async () => {
    const token = await t.createToken(user.id, { scopes: ['org:read'] });
    const basic = { authorization: `Basic ${Buffer.from(`${user.username}:${token}`).toString('base64')}` };
    const message = 'Authorization header must be "Bearer <token>"';
    expectApiError(await orgs(basic), t.clock, refused(message));
    expectApiError(await orgs({ authorization: 'Bearer' }), t.clock, refused(message));
    expectReducedError(await listTokens(basic), { status: 401, code: 'unauthorized', message });
  });

  it('answers 401 when no credential is sent', async () => {
    expectApiError(await orgs({}), t.clock, refused('Missing API key'));
    expectApiError(await orgs({ 'x-api-key': '' }), t.clock, refused('Missing API key'));
    expectReducedError(await listTokens({}), { status: 401, code: 'unauthorized', message: 'Missing bearer token' });
  });
});

describe('last_used', () => {
  it('moves at most once a minute', async () => {
    const { id, token } = await issue();
    const lastUsed = async () => {
      const { tokens } = (await listTokens(bearer(jwt))).json();
      return tokens.find((row: { id: string; last_used: string | null }) => row.id === id)?.last_used;
    };
    expect(await lastUsed()).toBeNull();

    const first = t.clock.now().toISOString();
    expect((await orgs(bearer(token))).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);

    t.clock.advance(30_000);
    expect((await orgs(bearer(token))).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);

    t.clock.advance(29_999);
    expect((await orgs(bearer(token))).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);

    t.clock.advance(1_001);
    expect((await orgs(bearer(token))).statusCode).toBe(200);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });
});

/**
 * Decisions §2: a malformed token or a bad checksum is refused before any database lookup. The
 * app here runs over a database whose every connection attempt fails, and counts the attempts.
 */
describe('format checks come before the database', () => {
  let app: FastifyInstance;
  let clock: TestClock;
  let secrets: ReturnType<typeof testSecrets>;
  let connects = 0;
  const publicUrl = 'http://redline.test';

  beforeAll(async () => {
    // The failure carries internal details that must never reach a client.
    const pool = {
      connect: async (): Promise<never> => {
        connects += 1;
        throw new Error('connect ECONNREFUSED 10.9.8.7:5432 (pg_hba user redline_admin)');
      },
      end: async () => {},
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const database: DatabaseHandle = { db, kind: 'postgres', ping: async () => false, close: () => db.destroy() };
    clock = testClock();
    secrets = testSecrets();
    app = await buildApp({ config: loadConfig({ PUBLIC_URL: publicUrl }), database, secrets, clock });
    await app.ready();
  });
  afterAll(async () => app.close());

  const call = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/v1/organizations', headers });

  it('refuses malformed tokens, bad checksums and forged JWTs without a query', async () => {
    const good = generateApiToken('live');
    const badChecksum = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    expectApiError(await call(bearer(badChecksum)), clock, refused('API key checksum does not match'));
    expectApiError(await call({ 'x-api-key': `${LIVE}short` }), clock, refused('API key is malformed'));
    const foreign = await signUserJwt(jwtKeys('not the secret', publicUrl), 'usr_x', clock.now());
    expectApiError(await call(bearer(foreign)), clock, refused('API key or token is invalid or expired'));
    expect(connects).toBe(0);
  });

  it('answers a well-formed token it must look up with a bare 500', async () => {
    const before = connects;
    const keys = jwtKeys(secrets.jwtSecret, publicUrl);
    for (const credential of [generateApiToken('live'), await signUserJwt(keys, 'usr_x', clock.now())]) {
      const res = await call(bearer(credential));
      expectApiError(res, clock, { status: 500, code: 'internal_error', message: 'Internal server error' });
      expect(res.body).not.toMatch(/ECONNREFUSED|10\.9\.8\.7|redline_admin/);
    }
    expect(connects).toBeGreaterThan(before);
  });
});
