import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalUser, setPlan } from '../../src/auth/accounts.js';
import { AppError } from '../../src/common/errors.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import type { Mode, Plan } from '../../src/db/schema.js';
import { assertReviewQuota, organizationPlan } from '../../src/limits/review-quota.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { reviewRow } from '../helpers/review-row.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;

interface Org {
  userId: string;
  organizationId: string;
}

/** Inserts rows directly, without the quota (to set up a window quickly). */
async function seed(db: Db, org: Org, times: Date[], mode: Mode = 'live'): Promise<void> {
  for (let i = 0; i < times.length; i += 500) {
    await db
      .insertInto('reviews')
      .values(times.slice(i, i + 500).map((t) => reviewRow(org, t, { mode })))
      .execute();
  }
}

/** What `POST /v1/reviews` does: the quota check and the insert in one transaction. */
async function createReview(db: Db, org: Org, now: Date, mode: Mode = 'live', plan?: Plan) {
  return db.transaction().execute(async (trx) => {
    const usage = await assertReviewQuota(trx, {
      organizationId: org.organizationId,
      now,
      mode,
      ...(plan ? { plan } : {}),
    });
    await trx
      .insertInto('reviews')
      .values(reviewRow(org, now, { mode }))
      .execute();
    return usage;
  });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.code).toBe('rate_limit_exceeded');
  expect(appError.status).toBe(429);
  return appError;
}

const at = (iso: string, offsetMs = 0) => new Date(Date.parse(iso) + offsetMs);

describe('review creation quota (spec 8.2, decisions §6)', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(async () => database.close());

  async function newOrg(plan: Plan = 'free'): Promise<Org> {
    const user = await createLocalUser(db, `quota-${randomBytes(4).toString('hex')}`);
    const membership = await db
      .selectFrom('memberships')
      .select('organization_id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    if (plan !== 'free') await setPlan(db, membership.organization_id, plan);
    return { userId: user.id, organizationId: membership.organization_id };
  }

  async function liveCount(org: Org): Promise<number> {
    const row = await db
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', org.organizationId)
      .where('mode', '=', 'live')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('refuses the 11th review in a rolling hour and allows one again when the first leaves it', async () => {
    const org = await newOrg();
    const t0 = '2026-11-22T10:00:00.000Z';
    for (let i = 0; i < 10; i++) {
      const usage = await createReview(db, org, at(t0, i * MINUTE));
      expect(usage).toEqual({ plan: 'free', hour: { limit: 10, used: i }, day: { limit: 20, used: i } });
    }

    const refused = await refusal(createReview(db, org, at(t0, 30 * MINUTE)));
    // The oldest review of the hour (10:00) leaves it at 11:00.
    expect(refused.headers['retry-after']).toBe('1800');
    expect(refused.message).toMatch(/10 reviews per hour/);
    expect((await refusal(createReview(db, org, at(t0, HOUR - 1)))).headers['retry-after']).toBe('1');
    expect(await liveCount(org)).toBe(10);

    // At 11:00 the 10:00 review no longer counts.
    await createReview(db, org, at(t0, HOUR));
    // Next to leave: the 10:01 review, at 11:01.
    expect((await refusal(createReview(db, org, at(t0, HOUR + 1000)))).headers['retry-after']).toBe('59');
    expect(await liveCount(org)).toBe(11);
  });

  it('refuses the 21st review in a rolling day even when spread over hours', async () => {
    const org = await newOrg();
    const t0 = '2026-11-22T00:00:00.000Z';
    // Two an hour for ten hours: never more than 2 in any hour.
    for (let i = 0; i < 20; i++) await createReview(db, org, at(t0, i * 30 * MINUTE));

    const refused = await refusal(createReview(db, org, at(t0, 10 * HOUR)));
    // The first review (00:00) leaves the day at 00:00 the next day: 14 hours later.
    expect(refused.headers['retry-after']).toBe(String(14 * 3600));
    expect(refused.message).toMatch(/20 reviews per day/);
    await refusal(createReview(db, org, at(t0, DAY - 1)));

    await createReview(db, org, at(t0, DAY));
    // Then the 00:30 review is the next to leave.
    expect((await refusal(createReview(db, org, at(t0, DAY + 10 * MINUTE)))).headers['retry-after']).toBe(
      String(20 * 60),
    );
    expect(await liveCount(org)).toBe(21);
  });

  it('answers the longer wait when the hour and the day are both full', async () => {
    const org = await newOrg();
    const t0 = '2026-11-22T12:00:00.000Z';
    await seed(
      db,
      org,
      Array.from({ length: 10 }, (_, i) => at(t0, -5 * HOUR + i * 1000)),
    );
    await seed(
      db,
      org,
      Array.from({ length: 10 }, (_, i) => at(t0, i * 1000)),
    );
    const refused = await refusal(createReview(db, org, at(t0, 10_000)));
    // The hour frees a slot at 13:00 (3590 s); the day only at 07:00 the next day.
    expect(refused.headers['retry-after']).toBe(String(19 * 3600 - 10));
    expect(refused.message).toMatch(/per day/);
  });

  it('does not count test reviews, and never refuses one', async () => {
    const org = await newOrg();
    const t0 = '2026-11-22T10:00:00.000Z';
    await seed(
      db,
      org,
      Array.from({ length: 30 }, (_, i) => at(t0, i * 1000)),
      'test',
    );
    for (let i = 0; i < 10; i++) await createReview(db, org, at(t0, MINUTE + i * 1000));
    await refusal(createReview(db, org, at(t0, 2 * MINUTE)));
    // The live quota is spent; a test review is still created, and checks nothing.
    expect(await createReview(db, org, at(t0, 2 * MINUTE), 'test')).toBeUndefined();
    expect(await liveCount(org)).toBe(10);
  });

  it('counts per organization: another organization has its own quota', async () => {
    const first = await newOrg();
    const second = await newOrg();
    const t0 = '2026-11-22T10:00:00.000Z';
    await seed(
      db,
      first,
      Array.from({ length: 10 }, (_, i) => at(t0, i * 1000)),
    );
    await refusal(createReview(db, first, at(t0, MINUTE)));
    // A member of the first organization creating under it counts against it too.
    const colleague = { ...first, userId: second.userId };
    await refusal(createReview(db, colleague, at(t0, MINUTE)));
    await createReview(db, second, at(t0, MINUTE));
  });

  it('follows the plan: pro 100 an hour and 500 a day', async () => {
    const org = await newOrg('pro');
    expect(await organizationPlan(db, org.organizationId)).toBe('pro');
    const t0 = '2026-11-22T10:00:00.000Z';
    await seed(
      db,
      org,
      Array.from({ length: 99 }, (_, i) => at(t0, i * 1000)),
    );
    expect(await createReview(db, org, at(t0, 10 * MINUTE))).toMatchObject({
      plan: 'pro',
      hour: { limit: 100, used: 99 },
      day: { limit: 500, used: 99 },
    });
    const refused = await refusal(createReview(db, org, at(t0, 10 * MINUTE)));
    expect(refused.headers['retry-after']).toBe(String(50 * 60));
    expect(refused.message).toMatch(/pro plan allows 100 reviews per hour/);

    const daily = await newOrg('pro');
    const d0 = '2026-11-20T00:00:00.000Z';
    // 500 over 20 hours: 25 an hour.
    await seed(
      db,
      daily,
      Array.from({ length: 500 }, (_, i) => at(d0, i * 144_000)),
    );
    const full = await refusal(createReview(db, daily, at(d0, 21 * HOUR)));
    expect(full.headers['retry-after']).toBe(String(3 * 3600));
    expect(full.message).toMatch(/500 reviews per day/);
  });

  it('follows the plan: enterprise 1000 an hour and no daily cap', async () => {
    const org = await newOrg('enterprise');
    const d0 = '2026-11-20T00:00:00.000Z';
    // 4,600 over 22 hours (about 212 an hour), then 999 in the last hour.
    await seed(
      db,
      org,
      Array.from({ length: 4600 }, (_, i) => at(d0, i * 17_000)),
    );
    const t0 = at(d0, 23 * HOUR).toISOString();
    await seed(
      db,
      org,
      Array.from({ length: 999 }, (_, i) => at(t0, i * 100)),
    );
    expect(await createReview(db, org, at(t0, 30 * MINUTE))).toMatchObject({
      plan: 'enterprise',
      hour: { limit: 1000, used: 999 },
      day: { limit: null },
    });
    const refused = await refusal(createReview(db, org, at(t0, 30 * MINUTE)));
    expect(refused.headers['retry-after']).toBe(String(30 * 60));
  });

  it('reads the plan under the lock unless told, and counts a downgrade exactly', async () => {
    const org = await newOrg('pro');
    const t0 = '2026-11-22T10:00:00.000Z';
    await seed(
      db,
      org,
      Array.from({ length: 15 }, (_, i) => at(t0, i * MINUTE)),
    );
    // Told the plan: that one applies.
    await refusal(createReview(db, org, at(t0, 20 * MINUTE), 'live', 'free'));
    await createReview(db, org, at(t0, 20 * MINUTE), 'live', 'pro');

    // Downgraded with 16 in the hour: 7 must leave before one more fits, so the wait runs until
    // the 7th oldest (10:06) leaves, at 11:06.
    await setPlan(db, org.organizationId, 'free');
    const refused = await refusal(createReview(db, org, at(t0, 30 * MINUTE)));
    expect(refused.headers['retry-after']).toBe(String(36 * 60));
  });

  itOnPostgres('is exact under concurrency: 50 simultaneous creates for a free organization make 10', async () => {
    const org = await newOrg();
    // Fifty connections of their own, one transaction on each, all at once.
    const handle = await openDatabase({ url: database.url as string, poolSize: 50 });
    try {
      const now = new Date('2026-11-22T10:00:00.000Z');
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => createReview(handle.db, org, now)));
      const created = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter(
        (r): r is PromiseRejectedResult =>
          r.status === 'rejected' && r.reason instanceof AppError && r.reason.code === 'rate_limit_exceeded',
      );
      expect(created).toHaveLength(10);
      expect(refused).toHaveLength(40);
      expect(await liveCount(org)).toBe(10);
      for (const r of refused) expect((r.reason as AppError).headers['retry-after']).toBe('3600');
    } finally {
      await handle.close();
    }
  });
});
