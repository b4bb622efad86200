import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { signInAddressKey } from '../../src/limits/ip-rate.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The sign-in endpoints are open to anyone and GET /api/auth/scm writes a row per call: each
 * client address has a budget per 10-minute window, shared by both endpoints and all instances.
 */
const LIMIT = 3;
const env = {
  GITHUB_CLIENT_ID: ['rate', 'client'].join('-'),
  GITHUB_CLIENT_SECRET: ['rate', 'secret', 'value'].join('-'),
  SIGN_IN_RATE_LIMIT: String(LIMIT),
};

describe('sign-in rate per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env });
  });
  afterAll(async () => t.close());

  const start = (remoteAddress: string, headers: Record<string, string> = {}, app = t) =>
    app.app.inject({ method: 'GET', url: '/api/auth/scm', remoteAddress, headers });
  const states = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('oauth_states')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers past the budget with 429 in the reduced shape and Retry-After, writing no state', async () => {
    // 10:05: the window 10:00-10:10 has 300 seconds left.
    t.clock.set('2026-11-22T10:05:00.000Z');
    for (let i = 0; i < LIMIT; i++) expect((await start('203.0.113.7')).statusCode).toBe(200);
    const before = await states();
    const limited = await start('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('300');
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-22T10:10:00.000Z') / 1000));
    expect(limited.headers['x-request-id']).toMatch(/^req_/);
    expect(limited.json()).toEqual({
      error: {
        code: 'rate_limit_exceeded',
        message: `Too many sign-in requests from this address (${LIMIT} per 10 minutes); retry in 300 seconds`,
        status: 429,
      },
    });
    expect(await states()).toBe(before);

    // The callback shares the budget (it is the same sign-in), before it looks at its query.
    const callback = await t.app.inject({
      method: 'GET',
      url: '/api/auth/scm/callback?state=x&code=y',
      remoteAddress: '203.0.113.7',
    });
    expect(callback.statusCode).toBe(429);

    // Another address has its own budget; the next window starts afresh.
    expect((await start('203.0.113.8')).statusCode).toBe(200);
    t.clock.set('2026-11-22T10:10:00.000Z');
    expect((await start('203.0.113.7')).statusCode).toBe(200);
  });

  it('clears finished windows as a new one begins', async () => {
    t.clock.set('2026-11-22T11:00:00.000Z');
    await start('198.51.100.1');
    const windows = await t.database.db.selectFrom('sign_in_rate_windows').select('window_start').execute();
    expect(windows.map((w) => w.window_start.toISOString())).toEqual(['2026-11-22T11:00:00.000Z']);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', async () => {
    t.clock.set('2026-11-22T12:05:00.000Z');
    for (let i = 0; i < LIMIT; i++) {
      expect((await start(`2001:db8:1:2:${i}::1`)).statusCode).toBe(200);
    }
    expect((await start('2001:db8:1:2:ffff::9')).statusCode).toBe(429);
    expect((await start('2001:db8:1:3::1')).statusCode).toBe(200);
    expect(signInAddressKey('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(signInAddressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(signInAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(signInAddressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    t.clock.set('2026-11-22T13:05:00.000Z');
    for (let i = 0; i < LIMIT; i++) {
      expect((await start('192.0.2.50', { 'x-forwarded-for': `198.51.100.${i}` })).statusCode).toBe(200);
    }
    expect((await start('192.0.2.50', { 'x-forwarded-for': '198.51.100.99' })).statusCode).toBe(429);

    const proxied = await createTestApp({ env: { ...env, TRUST_PROXY_HOPS: '1' }, database: t.database });
    try {
      proxied.clock.set('2026-11-22T13:05:00.000Z');
      // Behind one trusted proxy each forwarded client has its own budget, the proxy none.
      for (let i = 0; i < LIMIT + 1; i++) {
        expect((await start('192.0.2.50', { 'x-forwarded-for': `198.51.100.${i}` }, proxied)).statusCode).toBe(200);
      }
      // A client cannot pick its address by prepending to the header: the proxy's own entry counts.
      const spoofed = await start('192.0.2.50', { 'x-forwarded-for': '10.9.9.9, 198.51.100.0' }, proxied);
      expect(spoofed.statusCode).toBe(200);
      for (let i = 0; i < LIMIT - 2; i++) await start('192.0.2.50', { 'x-forwarded-for': '198.51.100.0' }, proxied);
      expect((await start('192.0.2.50', { 'x-forwarded-for': '10.9.9.9, 198.51.100.0' }, proxied)).statusCode).toBe(
        429,
      );
    } finally {
      await proxied.close();
    }
  });

  itOnPostgres('shares one budget between two instances on one PostgreSQL', async () => {
    const url = t.database.url as string;
    const handle = await openDatabase({ url, poolSize: 5 });
    const second = await createTestApp({ env, database: { ...handle, url } });
    try {
      t.clock.set('2026-11-22T14:05:00.000Z');
      second.clock.set(t.clock.now());
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => start('192.0.2.99', {}, i % 2 === 0 ? t : second)),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(LIMIT);
      expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10 - LIMIT);
    } finally {
      await second.close();
      await handle.close();
    }
  });
});
