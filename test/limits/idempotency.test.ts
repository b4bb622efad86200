import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalUser } from '../../src/auth/accounts.js';
import { AppError } from '../../src/common/errors.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import type { Mode } from '../../src/db/schema.js';
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  finishIdempotentRequest,
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  isStoredStatus,
  parseIdempotencyKey,
  pruneIdempotencyKeys,
  requestHash,
} from '../../src/limits/idempotency.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const T0 = '2026-11-22T10:00:00.000Z';
const at = (offsetMs = 0) => new Date(Date.parse(T0) + offsetMs);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('did not throw');
}

describe('Idempotency-Key values (decisions §6)', () => {
  it('accepts 1 to 255 printable ASCII characters, and no header at all', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    for (const key of [
      'a',
      'x'.repeat(255),
      'order 42 / retry #1 ~!@$%^&*()',
      '550e8400-e29b-41d4-a716-446655440000',
    ]) {
      expect(parseIdempotencyKey(key)).toBe(key);
    }
  });

  it('refuses anything else with 400 validation_error on the header', () => {
    for (const key of ['', 'x'.repeat(256), 'café', 'tab\there', 'new\nline', '\u007f', ['a', 'b']]) {
      const error = thrown(() => parseIdempotencyKey(key));
      expect(error.status).toBe(400);
      expect(error.code).toBe('validation_error');
      expect(error.details?.field).toBe('Idempotency-Key');
    }
  });
});

describe('requestHash', () => {
  it('ignores key order at every depth, and nothing else', () => {
    const a = { pull_request_url: 'https://github.com/a/b/pull/1', options: { x: 1, y: [1, { p: 1, q: 2 }] } };
    const b = { options: { y: [1, { q: 2, p: 1 }], x: 1 }, pull_request_url: 'https://github.com/a/b/pull/1' };
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash({ options: { y: [{ q: 2, p: 1 }, 1], x: 1 }, pull_request_url: a.pull_request_url })).not.toBe(
      requestHash(a),
    );
    expect(requestHash({ n: 1 })).not.toBe(requestHash({ n: '1' }));
    expect(requestHash({ n: 1 })).not.toBe(requestHash({ n: 1, m: null }));
    // An absent property and an undefined one are the same JSON.
    expect(requestHash({ n: 1, m: undefined })).toBe(requestHash({ n: 1 }));
    expect(requestHash(a, 'POST /v1/reviews')).not.toBe(requestHash(a, 'POST /v1/webhooks'));
    expect(requestHash(a, 'POST /v1/reviews')).toBe(requestHash(b, 'POST /v1/reviews'));
  });
});

describe('isStoredStatus', () => {
  it('stores outcomes, not validation failures, conflicts, 429s and 5xx', () => {
    for (const status of [200, 201, 202, 204, 404]) expect(isStoredStatus(status)).toBe(true);
    for (const status of [400, 409, 422, 429, 500, 502, 503]) expect(isStoredStatus(status)).toBe(false);
  });
});

describe('idempotent requests (spec 8.4, decisions §6)', () => {
  let database: TestDatabase;
  let db: Db;
  let userId: string;
  let otherUserId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    userId = (await createLocalUser(db, `idem-${randomBytes(4).toString('hex')}`)).id;
    otherUserId = (await createLocalUser(db, `idem-${randomBytes(4).toString('hex')}`)).id;
  });
  afterAll(async () => database.close());

  const newKey = () => `key-${randomBytes(6).toString('hex')}`;
  const body = { pull_request_url: 'https://github.com/acme/widgets/pull/7', auto_review: true };
  const hash = requestHash(body, 'POST /v1/reviews');
  const otherHash = requestHash({ ...body, auto_review: false }, 'POST /v1/reviews');
  // Keys in an order jsonb would not keep (it sorts by length): the replay must keep it.
  const response = {
    meta: { timestamp: T0, request_id: 'req_1' },
    data: { status: 'pending', id: 'rev_1', z: [3, 1, 2], a: { y: 1, b: null } },
  };

  const begin = (key: string, options: { user?: string; mode?: Mode; hash?: string; now?: Date } = {}) =>
    beginIdempotentRequest(db, {
      userId: options.user ?? userId,
      mode: options.mode ?? 'live',
      key,
      requestHash: options.hash ?? hash,
      now: options.now ?? at(),
    });
  const finish = (key: string, options: { status?: number; body?: unknown; hash?: string } = {}) =>
    db.transaction().execute((trx) =>
      finishIdempotentRequest(trx, {
        userId,
        mode: 'live',
        key,
        requestHash: options.hash ?? hash,
        status: options.status ?? 201,
        body: options.body ?? response,
      }),
    );
  const row = (key: string, user = userId, mode: Mode = 'live') =>
    db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', user)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .executeTakeFirst();

  it('replays the stored status and body exactly', async () => {
    const key = newKey();
    expect(await begin(key)).toEqual({ kind: 'new' });
    await finish(key);
    const replay = await begin(key, { now: at(10 * 60_000) });
    expect(replay).toEqual({ kind: 'replay', status: 201, body: response });
    if (replay.kind !== 'replay') throw new Error('not a replay');
    expect(JSON.stringify(replay.body)).toBe(JSON.stringify(response));
    // Another time, still the same.
    expect(await begin(key, { now: at(IDEMPOTENCY_TTL_MS - 1) })).toEqual(replay);
  });

  it('replays a stored error answer too', async () => {
    const key = newKey();
    await begin(key);
    const notFound = { error: { code: 'resource_not_found', status: 404 } };
    await finish(key, { status: 404, body: notFound });
    expect(await begin(key)).toEqual({ kind: 'replay', status: 404, body: notFound });
  });

  it('answers 422 conflict when the key was used with another body, in flight or done', async () => {
    const key = newKey();
    await begin(key);
    const inFlight = await failure(begin(key, { hash: otherHash }));
    expect(inFlight).toMatchObject({ status: 422, code: 'conflict', details: { field: 'Idempotency-Key' } });
    await finish(key);
    const done = await failure(begin(key, { hash: otherHash }));
    expect(done).toMatchObject({ status: 422, code: 'conflict' });
    // The stored response is untouched.
    expect(await begin(key)).toMatchObject({ kind: 'replay', status: 201 });
  });

  it('answers 409 conflict while the same request is in flight, and takes over an abandoned one after its lock', async () => {
    const key = newKey();
    await begin(key);
    expect(await failure(begin(key))).toMatchObject({ status: 409, code: 'conflict' });
    expect(await failure(begin(key, { now: at(IDEMPOTENCY_LOCK_MS - 1) }))).toMatchObject({ status: 409 });
    // The first request died: its lease ran out, the retry takes the key.
    expect(await begin(key, { now: at(IDEMPOTENCY_LOCK_MS) })).toEqual({ kind: 'new' });
    expect((await row(key))?.locked_until).toEqual(at(2 * IDEMPOTENCY_LOCK_MS));
    expect(await failure(begin(key, { now: at(IDEMPOTENCY_LOCK_MS + 1) }))).toMatchObject({ status: 409 });
    await finish(key);
    expect(await begin(key, { now: at(IDEMPOTENCY_LOCK_MS + 2) })).toMatchObject({ kind: 'replay' });
  });

  it('lets a taken-over request that finishes late fail rather than store a second response', async () => {
    const key = newKey();
    await begin(key);
    await begin(key, { now: at(IDEMPOTENCY_LOCK_MS) });
    await finish(key, { body: { data: 'second' } });
    // The first, slow request finishes now: its transaction must roll back.
    expect(await failure(finish(key, { body: { data: 'first' } }))).toMatchObject({ status: 409, code: 'conflict' });
    expect(await begin(key, { now: at(IDEMPOTENCY_LOCK_MS + 1) })).toEqual({
      kind: 'replay',
      status: 201,
      body: { data: 'second' },
    });
  });

  it('forgets a key 24 hours after its first use', async () => {
    const key = newKey();
    await begin(key);
    await finish(key);
    expect(await begin(key, { now: at(IDEMPOTENCY_TTL_MS - 1) })).toMatchObject({ kind: 'replay' });
    // Expired: a new request, even with another body.
    expect(await begin(key, { now: at(IDEMPOTENCY_TTL_MS), hash: otherHash })).toEqual({ kind: 'new' });
    expect(await row(key)).toMatchObject({
      status: 'in_flight',
      request_hash: otherHash,
      response_status: null,
      response_body: null,
      expires_at: at(2 * IDEMPOTENCY_TTL_MS),
    });
  });

  it('scopes keys to the user and the mode', async () => {
    const key = newKey();
    await begin(key);
    await finish(key);
    expect(await begin(key, { user: otherUserId, hash: otherHash })).toEqual({ kind: 'new' });
    expect(await begin(key, { mode: 'test', hash: otherHash })).toEqual({ kind: 'new' });
    expect(await begin(key)).toMatchObject({ kind: 'replay', status: 201 });
    expect(await failure(begin(key, { user: otherUserId, hash: otherHash }))).toMatchObject({ status: 409 });
  });

  it('stores nothing when the transaction that finishes the request rolls back', async () => {
    const key = newKey();
    await begin(key);
    await expect(
      db.transaction().execute(async (trx) => {
        await finishIdempotentRequest(trx, {
          userId,
          mode: 'live',
          key,
          requestHash: hash,
          status: 201,
          body: response,
        });
        throw new Error('the review insert failed');
      }),
    ).rejects.toThrow('the review insert failed');
    expect(await row(key)).toMatchObject({ status: 'in_flight', response_status: null, response_body: null });
    expect(await failure(begin(key))).toMatchObject({ status: 409 });
    // The failure is not stored: the caller abandons the key and the client may retry at once.
    await abandonIdempotentRequest(db, { userId, mode: 'live', key, requestHash: hash });
    expect(await row(key)).toBeUndefined();
    expect(await begin(key, { hash: otherHash })).toEqual({ kind: 'new' });
  });

  it('abandons only an in-flight reservation of the same request', async () => {
    const key = newKey();
    await begin(key);
    await abandonIdempotentRequest(db, { userId, mode: 'live', key, requestHash: otherHash });
    expect(await row(key)).toBeDefined();
    await abandonIdempotentRequest(db, { userId, mode: 'test', key });
    expect(await row(key)).toBeDefined();
    await finish(key);
    await abandonIdempotentRequest(db, { userId, mode: 'live', key });
    expect(await begin(key)).toMatchObject({ kind: 'replay', status: 201 });
  });

  it('prunes expired keys only', async () => {
    const expired = newKey();
    const live = newKey();
    await begin(expired, { now: at(-IDEMPOTENCY_TTL_MS) });
    await begin(live, { now: at(-IDEMPOTENCY_TTL_MS + 1) });
    const before = await db.selectFrom('idempotency_keys').select('key').where('expires_at', '<=', at()).execute();
    expect(await pruneIdempotencyKeys(db, at())).toBe(before.length);
    expect(await row(expired)).toBeUndefined();
    expect(await row(live)).toBeDefined();
  });

  itOnPostgres('hands a key to exactly one of 20 simultaneous requests; the others answer 409', async () => {
    const key = newKey();
    const handle = await openDatabase({ url: database.url as string, poolSize: 20 });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          beginIdempotentRequest(handle.db, { userId, mode: 'live', key, requestHash: hash, now: at() }),
        ),
      );
      const fresh = results.filter((r) => r.status === 'fulfilled' && r.value.kind === 'new');
      const busy = results.filter(
        (r) => r.status === 'rejected' && r.reason instanceof AppError && r.reason.status === 409,
      );
      expect(fresh).toHaveLength(1);
      expect(busy).toHaveLength(19);
    } finally {
      await handle.close();
    }
  });
});
