import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalUser, setPlan } from '../../src/auth/accounts.js';
import { createApiToken, revokeApiToken } from '../../src/auth/api-tokens.js';
import { type Guard, makeGuard } from '../../src/auth/guard.js';
import { jwtKeys, signUserJwt } from '../../src/auth/jwt.js';
import type { Scope } from '../../src/auth/scopes.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { makeErrorHandler } from '../../src/http/error-handler.js';
import { expectFreeBudgetSharedExactly } from '../helpers/expect-rate-budget.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { type TestClock, testClock } from '../helpers/test-clock.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * Decisions §6 with the guard counting in the statement that authenticates (`rateLimit: true`):
 * the budget, headers and refusals, exact across instances.
 */
const keys = jwtKeys('a-secret-of-at-least-thirty-two-characters', 'http://localhost:3000');
let database: TestDatabase;
let clock: TestClock;
let app: FastifyInstance;
let counter = 0;

function buildGuardedApp(handle: DatabaseHandle, appClock: TestClock): FastifyInstance {
  const guarded = Fastify();
  guarded.setErrorHandler(makeErrorHandler(appClock));
  const guard: Guard = makeGuard({ db: handle.db, clock: appClock, jwtKeys: keys, rateLimit: true });
  guarded.get('/read', { onRequest: guard({ scope: 'review:read' }) }, async (request) => ({
    user: request.principal?.userId,
  }));
  return guarded;
}

async function userWithToken(scopes: Scope[] = ['review:read'], expiresInSeconds = 3600) {
  counter += 1;
  const user = await createLocalUser(database.db, `rate-${counter}`);
  const { row, token } = await createApiToken(database.db, {
    userId: user.id,
    name: 'rate',
    scopes,
    mode: 'live',
    expiresInSeconds,
    now: clock.now(),
  });
  return { user, token, tokenId: row.id };
}

const read = (headers: Record<string, string>, on: FastifyInstance = app) =>
  on.inject({ method: 'GET', url: '/read', headers });

async function counted(userId: string): Promise<number> {
  const rows = await database.db
    .selectFrom('request_rate_windows')
    .select('count')
    .where('user_id', '=', userId)
    .execute();
  return rows.reduce((sum, r) => sum + r.count, 0);
}

beforeAll(async () => {
  database = await createTestDatabase();
  // The middle of an hour, so the window cannot roll over during a test.
  clock = testClock('2026-11-22T10:30:00.000Z');
  app = buildGuardedApp(database, clock);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('a guard that counts while it authenticates', () => {
  it('answers the 101st request of a free user with 429, headers on every answer', async () => {
    const { token } = await userWithToken();
    const reset = String(Date.parse('2026-11-22T11:00:00.000Z') / 1000);
    for (let i = 1; i <= 100; i++) {
      const res = await read({ 'x-api-key': token });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(100 - i));
      expect(res.headers['x-ratelimit-reset']).toBe(reset);
    }
    const limited = await read({ 'x-api-key': token });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1800');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.json().error).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });

    clock.set('2026-11-22T11:00:00.000Z');
    expect((await read({ 'x-api-key': token })).statusCode).toBe(200);
    clock.set('2026-11-22T10:30:00.000Z');
  });

  it('shares one budget between the JWT and the tokens, following the plan', async () => {
    const { user, token } = await userWithToken();
    await setPlan(database.db, user.id, 'enterprise');
    const viaToken = await read({ 'x-api-key': token });
    expect(viaToken.headers['x-ratelimit-limit']).toBe('10000');
    expect(viaToken.headers['x-ratelimit-remaining']).toBe('9999');
    const jwt = await signUserJwt(keys, user.id, clock.now());
    const viaJwt = await read({ authorization: `Bearer ${jwt}` });
    expect(viaJwt.statusCode).toBe(200);
    expect(viaJwt.headers['x-ratelimit-remaining']).toBe('9998');
  });

  it("continues the window's count (made earlier, or by another instance)", async () => {
    const { user, token } = await userWithToken();
    await database.db
      .insertInto('request_rate_windows')
      .values({ user_id: user.id, window_start: new Date('2026-11-22T10:00:00.000Z'), count: 2 })
      .execute();
    const res = await read({ 'x-api-key': token });
    expect(res.headers['x-ratelimit-remaining']).toBe('97');
    expect(await counted(user.id)).toBe(3);
  });

  it('counts a 403 and puts the headers on it', async () => {
    const { user, token } = await userWithToken(['org:read']);
    const forbidden = await read({ 'x-api-key': token });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['x-ratelimit-remaining']).toBe('99');
    expect(await counted(user.id)).toBe(1);
  });

  it('counts nothing for a missing, unknown, revoked or expired credential', async () => {
    const anonymous = await read({});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toBeUndefined();

    const revoked = await userWithToken();
    expect(await revokeApiToken(database.db, revoked.user.id, revoked.tokenId, clock.now())).toBe(true);
    const refused = await read({ 'x-api-key': revoked.token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe('API key has been revoked');
    expect(refused.headers['x-ratelimit-limit']).toBeUndefined();
    expect(await counted(revoked.user.id)).toBe(0);

    const expiring = await userWithToken(['review:read'], 60);
    clock.set('2026-11-22T10:31:00.000Z');
    const expired = await read({ 'x-api-key': expiring.token });
    clock.set('2026-11-22T10:30:00.000Z');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toBe('API key has expired');
    expect(await counted(expiring.user.id)).toBe(0);

    const gone = await userWithToken();
    await database.db.deleteFrom('users').where('id', '=', gone.user.id).execute();
    const jwt = await signUserJwt(keys, gone.user.id, clock.now());
    expect((await read({ authorization: `Bearer ${jwt}` })).statusCode).toBe(401);
    expect((await read({ 'x-api-key': gone.token })).statusCode).toBe(401);
  });

  itOnPostgres('shares one budget exactly between two instances on one PostgreSQL', async () => {
    // A second app with a pool of its own, as a second process would have.
    const handle = await openDatabase({ url: database.url as string, poolSize: 5 });
    const second = buildGuardedApp(handle, clock);
    try {
      const { token } = await userWithToken();
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) => read({ 'x-api-key': token }, i % 2 === 0 ? app : second)),
      );
      expectFreeBudgetSharedExactly(answers);
    } finally {
      await second.close();
      await handle.close();
    }
  });
});
