import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { openDatabase } from '../../src/db/database.js';
import { expectFreeBudgetSharedExactly } from '../helpers/expect-rate-budget.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Decisions §6: a fixed hourly window per user, shared by every credential and every instance. */
describe('request rate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // The middle of an hour, so the window cannot roll over during the test.
    t.clock.set('2026-11-22T10:30:00.000Z');
  });
  afterAll(async () => t.close());

  const get = (key: string) => t.app.inject({ method: 'GET', url: '/v1/organizations', headers: { 'x-api-key': key } });

  it('answers the 101st request of a free user with 429, headers on every answer', async () => {
    const { user } = await t.createUser();
    const token = await t.createToken(user.id, { scopes: ['org:read'] });
    const reset = String(Date.parse('2026-11-22T11:00:00.000Z') / 1000);
    for (let i = 1; i <= 100; i++) {
      const res = await get(token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(100 - i));
      expect(res.headers['x-ratelimit-reset']).toBe(reset);
    }
    const limited = await get(token);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1800');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-reset']).toBe(reset);
    expect(limited.json().error).toMatchObject({ code: 'rate_limit_exceeded', status: 429, type: 'rate_limit_error' });

    // A new window starts on the hour.
    t.clock.set('2026-11-22T11:00:00.000Z');
    expect((await get(token)).statusCode).toBe(200);
    t.clock.set('2026-11-22T10:30:00.000Z');
  });

  it('counts every credential of the user against one budget and follows the plan', async () => {
    const { user, jwt } = await t.createUser();
    await setPlan(t.database.db, user.id, 'pro');
    const token = await t.createToken(user.id, { scopes: ['org:read'] });
    const viaToken = await get(token);
    expect(viaToken.headers['x-ratelimit-limit']).toBe('1000');
    expect(viaToken.headers['x-ratelimit-remaining']).toBe('999');
    const viaJwt = await t.app.inject({
      method: 'GET',
      url: '/v1/organizations',
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(viaJwt.headers['x-ratelimit-remaining']).toBe('998');
  });

  it('puts the headers on authenticated errors too, and none on unauthenticated ones', async () => {
    const { user } = await t.createUser();
    const token = await t.createToken(user.id, { scopes: ['review:read'] });
    const forbidden = await get(token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['x-ratelimit-remaining']).toBe('99');
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/organizations' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toBeUndefined();
  });

  itOnPostgres('shares one budget between two instances on one PostgreSQL', async () => {
    // A second app with a pool of its own, as a second process would have.
    const url = t.database.url as string;
    const handle = await openDatabase({ url, poolSize: 5 });
    const second = await createTestApp({ database: { ...handle, url } });
    try {
      const { user } = await t.createUser();
      const token = await t.createToken(user.id, { scopes: ['org:read'] });
      second.clock.set(t.clock.now());
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          (i % 2 === 0 ? t : second).app.inject({
            method: 'GET',
            url: '/v1/organizations',
            headers: { 'x-api-key': token },
          }),
        ),
      );
      expectFreeBudgetSharedExactly(answers);
    } finally {
      await second.close();
      await handle.close();
    }
  });
});
