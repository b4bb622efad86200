import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { until } from '../helpers/until.js';

/** Spec 8.4 and decisions §6: Idempotency-Key on POST /v1/reviews, through the API (test mode). */
describe('POST /v1/reviews with Idempotency-Key', () => {
  let t: TestApp;
  let userId: string;
  let key: string;
  let counter = 0;

  const newUser = async () => {
    const { user } = await t.createUser();
    await setPlan(t.database.db, user.id, 'enterprise');
    // Long-lived: the expiry test moves the clock a day on.
    const token = await t.createToken(user.id, { mode: 'test', expiresInSeconds: 7 * 86_400 });
    return { userId: user.id, key: token };
  };

  const post = (payload: unknown, idempotencyKey?: string, apiKey = key) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: {
        'x-api-key': apiKey,
        ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
      },
      payload: payload as Record<string, unknown>,
    });

  const body = (number: number, extra: Record<string, unknown> = {}) => ({
    pull_request_url: `https://github.com/acme/shop/pull/${number}`,
    ...extra,
  });

  /** A key never used before in this file. */
  const freshKey = () => `key-${++counter}-${Date.now()}`;

  const reviewCount = async (user = userId) => {
    const row = await t.database.db
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', user)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ userId, key } = await newUser());
  });
  afterAll(async () => t?.close());

  it('replays the same request: 201, byte-identical body, Idempotent-Replayed and the original request id', async () => {
    const before = await reviewCount();
    const k = freshKey();
    const first = await post(body(10), k);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const firstBody = first.json();
    expect(first.headers['x-request-id']).toBe(firstBody.meta.request_id);

    t.clock.advance(1000);
    const second = await post(body(10), k);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['x-request-id']).toBe(second.json().meta.request_id);
    expect(second.headers['x-request-id']).toBe(firstBody.meta.request_id);
    expect(await reviewCount()).toBe(before + 1);
  });

  it('treats the same body with its fields in another order as the same request', async () => {
    const k2 = freshKey();
    const a = await post({ pull_request_url: body(11).pull_request_url, auto_review: false }, k2);
    const b = await post({ auto_review: false, pull_request_url: body(11).pull_request_url }, k2);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body).toBe(a.body);
  });

  it('answers 422 conflict for the same key with a different body', async () => {
    const k = freshKey();
    expect((await post(body(12), k)).statusCode).toBe(201);
    const before = await reviewCount();
    const other = await post(body(13), k);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('conflict');
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    const options = await post(body(12, { check_security: false }), k);
    expect(options.statusCode).toBe(422);
    expect(await reviewCount()).toBe(before);
    // The original still replays.
    const again = await post(body(12), k);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    ['256 characters', 'k'.repeat(256)],
    ['a tab', 'abc\tdef'],
    ['a non-ASCII character', 'clé'],
    ['a DEL character', 'abc\x7f'],
  ])('rejects a key with %s: 400 field Idempotency-Key, nothing created', async (_, badKey) => {
    const before = await reviewCount();
    const res = await post(body(14), badKey);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_error', details: { field: 'Idempotency-Key' } });
    expect(await reviewCount()).toBe(before);
  });

  it('accepts a key of 255 printable characters, spaces and punctuation included', async () => {
    const k = `${freshKey()} ~!@#$%^&*()`.padEnd(255, 'x');
    expect(k).toHaveLength(255);
    const first = await post(body(15), k);
    expect(first.statusCode, first.body).toBe(201);
    const second = await post(body(15), k);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
  });

  it('does not store a validation failure: the same key then works with a valid body', async () => {
    const k = freshKey();
    const before = await reviewCount();
    const bad = await post({ pull_request_url: 'https://example.com/not/a/pr' }, k);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_pr_url');
    // Repeating the failure is not a replay.
    const badAgain = await post({ pull_request_url: 'https://example.com/not/a/pr' }, k);
    expect(badAgain.statusCode).toBe(400);
    expect(badAgain.headers['idempotent-replayed']).toBeUndefined();
    // Nor is a schema failure (no pull_request_url at all).
    const schema = await post({ auto_review: true }, k);
    expect(schema.statusCode).toBe(400);
    expect(schema.json().error.code).toBe('validation_error');

    const good = await post(body(16), k);
    expect(good.statusCode, good.body).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
    expect(await reviewCount()).toBe(before + 1);
    const replay = await post(body(16), k);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(good.body);
  });

  it('20 parallel creates with one key make exactly one review', async () => {
    const k = freshKey();
    const before = await reviewCount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(body(17), k)));
    expect(await reviewCount()).toBe(before + 1);
    const created = answers.filter((r) => r.statusCode === 201);
    for (const r of answers) {
      expect([201, 409], r.body).toContain(r.statusCode);
      if (r.statusCode === 409) expect(r.json().error.code).toBe('conflict');
    }
    const originals = created.filter((r) => r.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    for (const r of created) expect(r.body).toBe(originals[0]?.body);
    // Once settled, the key replays that one review.
    const after = await post(body(17), k);
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.body).toBe(originals[0]?.body);
  });

  it('scopes keys per user: two users with the same key both create', async () => {
    const other = await newUser();
    const k = freshKey();
    const mine = await post(body(18), k);
    const theirs = await post(body(18), k, other.key);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
    expect(await reviewCount(other.userId)).toBe(1);
    // And a different body under the same key is no conflict for the other user.
    const third = await newUser();
    expect((await post(body(19), k, third.key)).statusCode).toBe(201);
  });

  it('expires a key 24 hours after its first use', async () => {
    const k = freshKey();
    const first = await post(body(20), k);
    expect(first.statusCode).toBe(201);
    const before = await reviewCount();

    t.clock.advance(24 * 3_600_000 - 1);
    const replay = await post(body(20), k);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);

    t.clock.advance(2); // 24 h + 1 ms after the first use
    const fresh = await post(body(20), k);
    expect(fresh.statusCode, fresh.body).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.json().data.id).not.toBe(first.json().data.id);
    expect(await reviewCount()).toBe(before + 1);
    // The key now replays the new review.
    const again = await post(body(20), k);
    expect(again.body).toBe(fresh.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('creates a review each time without a key', async () => {
    const before = await reviewCount();
    expect((await post(body(21))).statusCode).toBe(201);
    expect((await post(body(21))).statusCode).toBe(201);
    expect(await reviewCount()).toBe(before + 2);
  });
});

/**
 * A request cut by a database outage leaves no key in flight behind it: its release, refused by
 * the same outage, is retried in the background, so the client's retry after the outage creates
 * the review instead of meeting 409 "still in progress" for the rest of the key's one-minute lease.
 */
describe('Idempotency-Key across a database outage', () => {
  let t: TestApp;
  // Statements the "outage" refuses next, by kind and table (one entry per statement).
  const refuse: string[] = [];
  const statement = (node: RootOperationNode) => {
    const table = JSON.stringify(node).match(/"identifier":\{"kind":"IdentifierNode","name":"([a-z_]+)"/)?.[1];
    return `${node.kind} ${table}`;
  };
  const outage: KyselyPlugin = {
    transformQuery(args) {
      const index = refuse.indexOf(statement(args.node));
      if (index >= 0) {
        refuse.splice(index, 1);
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    const database = await createTestDatabase();
    t = await createTestApp({ database: { ...database, db: database.db.withPlugin(outage) } });
  });
  afterAll(async () => t?.close());

  it('releases the key once the database is back, and the retry creates the review', async () => {
    const { user } = await t.createUser();
    const apiKey = await t.createToken(user.id, { mode: 'test' });
    const request = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/reviews',
        headers: { 'x-api-key': apiKey, 'idempotency-key': 'outage-1' },
        payload: { pull_request_url: 'https://github.com/acme/shop/pull/31' },
      });
    const keyRows = () =>
      t.database.db.selectFrom('idempotency_keys').select('status').where('key', '=', 'outage-1').execute();

    // The review's insert fails, and so do the first two tries to release the key.
    refuse.push('InsertQueryNode reviews', 'DeleteQueryNode idempotency_keys', 'DeleteQueryNode idempotency_keys');
    const cut = await request();
    expect(cut.statusCode, cut.body).toBe(503);
    expect(cut.json().error.code).toBe('service_unavailable');
    expect(await keyRows()).toEqual([{ status: 'in_flight' }]);

    await until('the key to be released', async () => (await keyRows()).length === 0);
    expect(refuse).toEqual([]);
    const retried = await request();
    expect(retried.statusCode, retried.body).toBe(201);
    expect(await keyRows()).toEqual([{ status: 'done' }]);
    const reviews = await t.database.db.selectFrom('reviews').select('id').where('user_id', '=', user.id).execute();
    expect(reviews).toEqual([{ id: retried.json().data.id }]);
  });
});
