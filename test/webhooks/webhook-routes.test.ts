import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Spec 4.3 and decisions §5: the subscription resource, its validation, scopes and ownership. */
describe('webhook subscriptions', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  let testKey: string;
  // Assembled at run time: nothing committed looks like a credential.
  const secret = ['whsec', 'example', 'value', '0123'].join('-');

  beforeAll(async () => {
    t = await createTestApp();
    const { user } = await t.createUser();
    key = await t.createToken(user.id);
    testKey = await t.createToken(user.id, { mode: 'test' });
    otherKey = await t.createToken((await t.createUser()).user.id);
  });
  afterAll(async () => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, apiKey = key) =>
    t.app.inject({ method, url, headers: { 'x-api-key': apiKey }, ...(payload ? { payload } : {}) });

  const create = async (payload: object, apiKey = key) => {
    const res = await call('POST', '/v1/webhooks', payload, apiKey);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };

  it('creates a webhook and answers the record of decisions §5, never the secret', async () => {
    const before = t.clock.now().toISOString();
    const res = await call('POST', '/v1/webhooks', {
      url: 'https://hooks.example.com/redline',
      events: ['review.completed', 'security.alert'],
      secret,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.data).toEqual({
      id: expect.stringMatching(/^whk_[0-9A-Za-z]{22}$/),
      url: 'https://hooks.example.com/redline',
      events: ['review.completed', 'security.alert'],
      enabled: true,
      has_secret: true,
      created_at: before,
      updated_at: before,
      disabled_at: null,
      failure_count: 0,
    });
    expect(res.body).not.toContain(secret);
    const row = await t.database.db
      .selectFrom('webhooks')
      .select('secret_sealed')
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(secret);
  });

  it.each([
    [{ url: 'http://hooks.example.com/x', events: ['review.completed'] }, 'url', 'must use https'],
    [{ url: 'not a url', events: ['review.completed'] }, 'url', 'must be an absolute URL'],
    [
      { url: 'https://user:pw@hooks.example.com/', events: ['review.completed'] },
      'url',
      'must not contain a user name',
    ],
    [{ url: 'https://127.0.0.1/hook', events: ['review.completed'] }, 'url', 'must not point at a loopback address'],
    [{ url: 'https://[::1]/hook', events: ['review.completed'] }, 'url', 'must not point at a loopback address'],
    [{ url: 'https://localhost/hook', events: ['review.completed'] }, 'url', 'must not point at a loopback address'],
    [{ url: 'https://10.1.2.3/hook', events: ['review.completed'] }, 'url', 'must not point at a private address'],
    [{ url: 'https://169.254.169.254/latest', events: ['review.completed'] }, 'url', 'link-local'],
    [{ url: 'https://hooks.example.com/', events: ['review.done'] }, 'events', 'must be one of'],
    [{ url: 'https://hooks.example.com/', events: [] }, 'events', 'at least one event'],
    [{ url: 'https://hooks.example.com/', events: ['pr.approved', 'pr.approved'] }, 'events', 'must not repeat'],
    [{ url: 'https://hooks.example.com/', events: ['ping'] }, 'events', 'must be one of'],
    [{ url: 'https://hooks.example.com/', events: ['review.completed'], secret: 'short' }, 'secret', '16 to 256'],
    [{ url: 'https://hooks.example.com/', events: ['review.completed'], active: true }, 'active', 'not a field'],
    [{ events: ['review.completed'] }, 'url', ''],
  ])('refuses %j naming %s', async (payload, field, issue) => {
    const res = await call('POST', '/v1/webhooks', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_error', details: { field } });
    expect(res.json().error.details.issue).toContain(issue);
  });

  it('writes nothing when it refuses', async () => {
    const { user } = await t.createUser();
    const fresh = await t.createToken(user.id);
    await call('POST', '/v1/webhooks', { url: 'http://x.example.com/', events: ['review.completed'] }, fresh);
    const list = await call('GET', '/v1/webhooks', undefined, fresh);
    expect(list.json().data).toEqual([]);
  });

  it('needs org:write to create and org:read to list', async () => {
    const { user } = await t.createUser();
    const reader = await t.createToken(user.id, { scopes: ['org:read'] });
    const denied = await call(
      'POST',
      '/v1/webhooks',
      { url: 'https://a.example.com/', events: ['pr.approved'] },
      reader,
    );
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toContain('org:write');
    expect((await call('GET', '/v1/webhooks', undefined, reader)).statusCode).toBe(200);
    const writer = await t.createToken(user.id, { scopes: ['review:read'] });
    const listDenied = await call('GET', '/v1/webhooks', undefined, writer);
    expect(listDenied.statusCode).toBe(403);
    expect(listDenied.json().error.message).toContain('org:read');
  });

  it("answers 404 for another user's webhook on every endpoint", async () => {
    const hook = await create({ url: 'https://mine.example.com/', events: ['review.failed'] });
    for (const [method, path, payload] of [
      ['GET', `/v1/webhooks/${hook.id}`],
      ['PATCH', `/v1/webhooks/${hook.id}`, { events: ['review.completed'] }],
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['GET', `/v1/webhooks/${hook.id}/deliveries`],
      ['POST', `/v1/webhooks/${hook.id}/test`],
      ['POST', `/v1/webhooks/${hook.id}/deliveries/dlv_x/redeliver`],
    ] as const) {
      const res = await call(method, path, payload, otherKey);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().error.code).toBe('resource_not_found');
    }
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).statusCode).toBe(200);
  });

  it('keeps test subscriptions apart from live ones', async () => {
    const live = await create({ url: 'https://live.example.com/', events: ['review.completed'] });
    const test = await create({ url: 'https://test.example.com/', events: ['review.completed'] }, testKey);
    expect((await call('GET', `/v1/webhooks/${live.id}`, undefined, testKey)).statusCode).toBe(404);
    expect((await call('GET', `/v1/webhooks/${test.id}`)).statusCode).toBe(404);
    const testList = (await call('GET', '/v1/webhooks', undefined, testKey)).json().data as { id: string }[];
    expect(testList.map((w) => w.id)).toEqual([test.id]);
  });

  it('changes url, events and secret, and removes the secret with null', async () => {
    const hook = await create({ url: 'https://a.example.com/', events: ['review.completed'] });
    t.clock.advance(1000);
    const res = await call('PATCH', `/v1/webhooks/${hook.id}`, {
      url: 'https://b.example.com/hook',
      events: ['review.failed', 'config.updated'],
      secret,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      url: 'https://b.example.com/hook',
      events: ['review.failed', 'config.updated'],
      has_secret: true,
      updated_at: t.clock.now().toISOString(),
      created_at: hook.created_at,
    });
    const cleared = await call('PATCH', `/v1/webhooks/${hook.id}`, { secret: null });
    expect(cleared.json().data.has_secret).toBe(false);
    const bad = await call('PATCH', `/v1/webhooks/${hook.id}`, { url: 'http://c.example.com/' });
    expect(bad.json().error.details).toEqual({
      field: 'url',
      issue: 'must use https (WEBHOOK_ALLOW_PRIVATE=true admits http for loopback receivers)',
    });
    const empty = await call('PATCH', `/v1/webhooks/${hook.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).json().data.url).toBe('https://b.example.com/hook');
  });

  it('pauses with enabled false and re-enables with enabled true', async () => {
    const hook = await create({ url: 'https://p.example.com/', events: ['review.completed'] });
    const paused = (await call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false })).json().data;
    expect(paused).toMatchObject({ enabled: false, disabled_at: t.clock.now().toISOString() });
    const resumed = (await call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true })).json().data;
    expect(resumed).toMatchObject({ enabled: true, disabled_at: null, failure_count: 0 });
  });

  it('deletes with 204, after which the webhook is gone', async () => {
    const hook = await create({ url: 'https://d.example.com/', events: ['review.completed'] });
    const res = await call('DELETE', `/v1/webhooks/${hook.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${hook.id}`)).statusCode).toBe(404);
  });

  it('lists newest first, a page at a time, with an exact has_more', async () => {
    const { user } = await t.createUser();
    const own = await t.createToken(user.id);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(10);
      ids.push((await create({ url: `https://l${i}.example.com/`, events: ['review.completed'] }, own)).id);
    }
    const first = (await call('GET', '/v1/webhooks?limit=3', undefined, own)).json();
    expect(first.data.map((w: { id: string }) => w.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(first.pagination).toEqual({ has_more: true, next_cursor: ids[2] });
    const second = (await call('GET', `/v1/webhooks?limit=3&after=${ids[2]}`, undefined, own)).json();
    expect(second.data.map((w: { id: string }) => w.id)).toEqual([ids[1], ids[0]]);
    expect(second.pagination).toEqual({ has_more: false, next_cursor: null });
    const unknown = await call('GET', '/v1/webhooks?after=whk_nope', undefined, own);
    expect(unknown.json().error.details).toEqual({ field: 'after', issue: 'is not a webhook id of this list' });
    // Another account's webhook is no cursor of this list either.
    const { user: stranger } = await t.createUser();
    const theirs = await create(
      { url: 'https://theirs.example.com/', events: ['review.completed'] },
      await t.createToken(stranger.id),
    );
    const foreign = await call('GET', `/v1/webhooks?after=${theirs.id}`, undefined, own);
    expect(foreign.statusCode).toBe(400);
  });

  it('limits an account to 25 webhooks per mode', async () => {
    const { user } = await t.createUser();
    const own = await t.createToken(user.id);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('POST', '/v1/webhooks', { url: `https://m${i}.example.com/`, events: ['review.completed'] }, own),
      ),
    );
    const count = await t.database.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(25);
    const over = await call('POST', '/v1/webhooks', { url: 'https://z.example.com/', events: ['pr.approved'] }, own);
    expect(over.statusCode).toBe(409);
  });
});
