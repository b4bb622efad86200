import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalUser } from '../../src/auth/accounts.js';
import { hashSecret } from '../../src/auth/api-token-format.js';
import { createApiToken, revokeApiToken } from '../../src/auth/api-tokens.js';
import { countingLookups } from '../../src/auth/authenticate-counted.js';
import type { ReadAlong } from '../../src/auth/read-along.js';
import { openDatabase } from '../../src/db/database.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * Decisions §6 when concurrent requests share one counting statement: each good credential's
 * request gets its own count, in the order the requests came, the window gains exactly their
 * number, and a credential that is not good counts nothing: as one upsert per request did.
 */
let database: TestDatabase;
const NOW = new Date('2026-11-22T10:30:00.000Z');
let counter = 0;

async function userWithToken(expiresInSeconds = 3600) {
  counter += 1;
  const user = await createLocalUser(database.db, `batch-${counter}`);
  const { row, token } = await createApiToken(database.db, {
    userId: user.id,
    name: 'batch',
    scopes: ['review:read'],
    mode: 'live',
    expiresInSeconds,
    now: NOW,
  });
  return { user, hash: hashSecret(token), tokenId: row.id };
}

async function windows(userId: string): Promise<Array<{ window_start: Date; count: number }>> {
  return database.db
    .selectFrom('request_rate_windows')
    .select(['window_start', 'count'])
    .where('user_id', '=', userId)
    .orderBy('window_start')
    .execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('counting lookups shared by concurrent requests', () => {
  it('gives each request of a batch its own count, in order, and counts nothing for a bad credential', async () => {
    const lookups = countingLookups(database.db);
    const a = await userWithToken();
    const b = await userWithToken();
    const revoked = await userWithToken();
    await revokeApiToken(database.db, revoked.user.id, revoked.tokenId, NOW);
    const expired = await userWithToken(60);
    // B already made two requests this hour.
    await database.db
      .insertInto('request_rate_windows')
      .values({ user_id: b.user.id, window_start: new Date('2026-11-22T10:00:00.000Z'), count: 2 })
      .execute();

    const later = new Date(NOW.getTime() + 120_000);
    const sent = [a, b, revoked, a, { hash: hashSecret('unknown'), user: a.user }, expired, b, a];
    const rows = await Promise.all(sent.map((s) => lookups.token(s.hash, later)));

    expect(rows.map((row) => row && [row.user_id, row.request_count])).toEqual([
      [a.user.id, 1],
      [b.user.id, 3],
      [revoked.user.id, null],
      [a.user.id, 2],
      undefined,
      [expired.user.id, null],
      [b.user.id, 4],
      [a.user.id, 3],
    ]);
    // The rows are the token's, with nothing of the batch's own columns.
    expect(rows[2]?.revoked_at).toEqual(NOW);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'expires_at',
        'github_token_sealed',
        'id',
        'last_used_at',
        'memberships_synced_at',
        'mode',
        'plan',
        'request_count',
        'revoked_at',
        'scm_id',
        'scopes',
        'user_id',
        'username',
      ].sort(),
    );
    const hour = new Date('2026-11-22T10:00:00.000Z');
    expect(await windows(a.user.id)).toEqual([{ window_start: hour, count: 3 }]);
    expect(await windows(b.user.id)).toEqual([{ window_start: hour, count: 4 }]);
    expect(await windows(revoked.user.id)).toEqual([]);
    expect(await windows(expired.user.id)).toEqual([]);
  });

  it("numbers only a user's good requests when the same batch also carries that user's revoked key", async () => {
    const lookups = countingLookups(database.db);
    const good = await userWithToken();
    const { row, token } = await createApiToken(database.db, {
      userId: good.user.id,
      name: 'old',
      scopes: ['review:read'],
      mode: 'live',
      expiresInSeconds: 3600,
      now: NOW,
    });
    await revokeApiToken(database.db, good.user.id, row.id, NOW);
    const revokedHash = hashSecret(token);
    const sent = [revokedHash, good.hash, revokedHash, good.hash, good.hash];
    const rows = await Promise.all(sent.map((hash) => lookups.token(hash, NOW)));
    // The revoked key's rows take no number and do not shift the good ones'.
    expect(rows.map((found) => found?.request_count)).toEqual([null, 1, null, 2, 3]);
    expect((await windows(good.user.id)).map((w) => w.count)).toEqual([3]);
  });

  it('counts each request of a batch in the window of its own time', async () => {
    const lookups = countingLookups(database.db);
    const { user, hash } = await userWithToken(7200);
    const before = new Date('2026-11-22T10:59:59.999Z');
    const after = new Date('2026-11-22T11:00:00.000Z');
    const rows = await Promise.all([before, after, before, after, after].map((at) => lookups.token(hash, at)));
    expect(rows.map((row) => row?.request_count)).toEqual([1, 1, 2, 2, 3]);
    expect(await windows(user.id)).toEqual([
      { window_start: new Date('2026-11-22T10:00:00.000Z'), count: 2 },
      { window_start: new Date('2026-11-22T11:00:00.000Z'), count: 3 },
    ]);
  });

  it('counts the signed-in user of each request, and finds nobody for an unknown id', async () => {
    const lookups = countingLookups(database.db);
    const { user: one } = await userWithToken();
    const { user: two } = await userWithToken();
    const ids = [one.id, two.id, 'usr_nobody', one.id];
    const rows = await Promise.all(ids.map((id) => lookups.user(id, NOW)));
    expect(rows.map((row) => row && [row.id, row.username, row.request_count])).toEqual([
      [one.id, one.username, 1],
      [two.id, two.username, 1],
      undefined,
      [one.id, one.username, 2],
    ]);
    expect((await windows(one.id)).map((w) => w.count)).toEqual([2]);
  });

  describe('with a read along', () => {
    // Any one-row read keyed on the request: here another user's name, seen with the credential's mode.
    const NAME_ALONG: ReadAlong<{ username: string; seen_as: string }> = {
      param: 'id',
      read: ({ key, mode }) => sql`select n.username, ${mode} as seen_as from users n where n.id = ${key}`,
      columns: ['username', 'seen_as'],
    };

    it('answers each counted request the row for its own key, and counts as without', async () => {
      const lookups = countingLookups(database.db, undefined, NAME_ALONG);
      const a = await userWithToken();
      const b = await userWithToken();
      const revoked = await userWithToken();
      await revokeApiToken(database.db, revoked.user.id, revoked.tokenId, NOW);
      const sent = [
        [a, b.user.id],
        [a, a.user.id],
        [b, 'usr_nobody'],
        [a, undefined],
        [revoked, a.user.id],
        [b, 'it\'s "quoted", {braced}'],
        [a, b.user.id],
      ] as const;
      const rows = await Promise.all(sent.map(([subject, key]) => lookups.token(subject.hash, NOW, key)));
      expect(rows.map((row) => [row?.request_count, row?.along])).toEqual([
        [1, { username: b.user.username, seen_as: 'live' }],
        [2, { username: a.user.username, seen_as: 'live' }],
        [1, undefined],
        [3, undefined],
        // A credential that does not count reads nothing either.
        [null, undefined],
        [2, undefined],
        [4, { username: b.user.username, seen_as: 'live' }],
      ]);
      expect((await windows(a.user.id)).map((w) => w.count)).toEqual([4]);
      expect((await windows(b.user.id)).map((w) => w.count)).toEqual([2]);
      expect(await windows(revoked.user.id)).toEqual([]);
    });

    it('reads along for a signed-in user, who is always live', async () => {
      const lookups = countingLookups(database.db, undefined, NAME_ALONG);
      const { user: one } = await userWithToken();
      const { user: two } = await userWithToken();
      const rows = await Promise.all([
        lookups.user(one.id, NOW, two.id),
        lookups.user(two.id, NOW, 'usr_nobody'),
        lookups.user('usr_nobody', NOW, one.id),
      ]);
      expect(rows.map((row) => row && [row.id, row.request_count, row.along])).toEqual([
        [one.id, 1, { username: two.username, seen_as: 'live' }],
        [two.id, 1, undefined],
        undefined,
      ]);
    });

    it('refuses a read along carrying a value of its own: the statement is one fixed text', () => {
      const valued: ReadAlong<{ n: number }> = { param: 'id', read: () => sql`select ${7} as n`, columns: ['n'] };
      expect(() => countingLookups(database.db, undefined, valued)).toThrow('carries a value');
    });

    it('leaves rows without a read along as they were', async () => {
      const { hash } = await userWithToken();
      const row = await countingLookups(database.db).token(hash, NOW, 'usr_anything');
      expect(row?.request_count).toBe(1);
      expect(row).not.toHaveProperty('along');
    });
  });

  itOnPostgres('keeps counts exact between two instances whose batches lock the same users in any order', async () => {
    // A second pool, as a second process has: its batches run concurrently with this one's.
    const other = await openDatabase({ url: database.url as string, poolSize: 5 });
    try {
      const here = countingLookups(database.db);
      const there = countingLookups(other.db);
      const users = [await userWithToken(), await userWithToken(), await userWithToken()];
      const rounds = 20;
      const answers = await Promise.all(
        Array.from({ length: rounds }, () =>
          Promise.all([
            ...users.map((u) => here.token(u.hash, NOW)),
            ...[...users].reverse().map((u) => there.token(u.hash, NOW)),
          ]),
        ),
      );
      const countsOf = (userId: string) =>
        answers
          .flat()
          .filter((row) => row?.user_id === userId)
          .map((row) => row?.request_count)
          .sort((a, b) => (a ?? 0) - (b ?? 0));
      for (const { user } of users) {
        expect(countsOf(user.id)).toEqual(Array.from({ length: 2 * rounds }, (_, i) => i + 1));
        expect((await windows(user.id)).map((w) => w.count)).toEqual([2 * rounds]);
      }
    } finally {
      await other.close();
    }
  });
});
