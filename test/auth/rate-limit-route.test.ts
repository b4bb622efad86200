import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Beyond the contract (docs/api.md): `GET /v1/rate-limit` answers the calling user's request rate
 * as the rate limiter counts it (decisions §6: per user, fixed UTC hour, every credential), and,
 * like GitHub's rate_limit endpoint, is not counted itself.
 */
let t: TestApp;
const T0 = '2026-11-20T10:15:00.000Z';
// 11:00 UTC, when the window of 10:15 ends.
const RESET = Date.parse('2026-11-20T11:00:00.000Z') / 1000;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(T0);
});
afterAll(async () => t?.close());

const rateLimit = (headers: Record<string, string>) => t.app.inject({ url: '/v1/rate-limit', headers });

function expectBody(res: LightMyRequestResponse, data: object) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status: 200,
    body: { data, meta: { request_id: res.headers['x-request-id'], timestamp: t.clock.now().toISOString() } },
  });
}

const headersOf = (res: LightMyRequestResponse) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
  reset: res.headers['x-ratelimit-reset'],
});

describe('GET /v1/rate-limit', () => {
  it("answers the user's count across credentials, without counting itself", async () => {
    const { user, jwt } = await t.createUser();
    // Any scope will do: this key has only review:read.
    const key = await t.createToken(user.id, { scopes: ['review:read'] });
    const first = await rateLimit({ 'x-api-key': key });
    expectBody(first, { plan: 'free', limit: 100, used: 0, remaining: 100, reset: RESET });
    expect(headersOf(first)).toEqual({ limit: '100', remaining: '100', reset: String(RESET) });

    // Three counted requests, one refused for its scope (it counts too), with two credentials.
    const counted = [
      await t.app.inject({ url: '/v1/reviews', headers: { 'x-api-key': key } }),
      await t.app.inject({ url: '/v1/reviews', headers: { authorization: `Bearer ${jwt}` } }),
      await t.app.inject({ url: '/v1/organizations', headers: { 'x-api-key': key } }),
    ];
    expect(counted.map((r) => r.statusCode)).toEqual([200, 200, 403]);
    const last = counted.at(-1) as LightMyRequestResponse;

    const credentials: Record<string, string>[] = [{ 'x-api-key': key }, { authorization: `Bearer ${jwt}` }];
    for (const headers of credentials) {
      const res = await rateLimit(headers);
      expectBody(res, { plan: 'free', limit: 100, used: 3, remaining: 97, reset: RESET });
      // The same numbers as the last counted answer's headers.
      expect(headersOf(res)).toEqual(headersOf(last));
    }
  });

  it('follows the plan, answers when the budget is spent, and starts again with the next hour', async () => {
    const { user } = await t.createUser();
    await setPlan(t.database.db, user.id, 'pro');
    const key = await t.createToken(user.id);
    expectBody(await rateLimit({ 'x-api-key': key }), {
      plan: 'pro',
      limit: 1000,
      used: 0,
      remaining: 1000,
      reset: RESET,
    });

    await setPlan(t.database.db, user.id, 'free');
    const answers: number[] = [];
    for (let i = 0; i < 101; i++) {
      answers.push((await t.app.inject({ url: '/v1/organizations', headers: { 'x-api-key': key } })).statusCode);
    }
    expect(answers.filter((s) => s === 200)).toHaveLength(100);
    expect(answers.at(-1)).toBe(429);
    // The refused request was counted as well (decisions §6), so used passes the limit.
    const spent = await rateLimit({ 'x-api-key': key });
    expectBody(spent, { plan: 'free', limit: 100, used: 101, remaining: 0, reset: RESET });

    t.clock.set('2026-11-20T11:00:00.000Z');
    try {
      expectBody(await rateLimit({ 'x-api-key': key }), {
        plan: 'free',
        limit: 100,
        used: 0,
        remaining: 100,
        reset: RESET + 3600,
      });
    } finally {
      t.clock.set(T0);
    }
  });

  it('needs a credential', async () => {
    const res = await rateLimit({});
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 401,
      body: {
        error: {
          type: 'authentication_error',
          code: 'invalid_api_key',
          status: 401,
          message: 'Missing API key',
        },
        meta: { request_id: res.headers['x-request-id'], timestamp: T0 },
      },
    });
  });
});
