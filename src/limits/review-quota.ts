import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../common/errors.js';
import type { Database, Mode, Plan } from '../db/schema.js';
import { REVIEW_QUOTA } from './plans.js';

type Executor = Kysely<Database> | Transaction<Database>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface QuotaWindowUsage {
  /** Reviews the plan allows in the window; null: unlimited. */
  limit: number | null;
  /** Live reviews already counted in the window (before the one being created). */
  used: number;
}

export interface ReviewQuotaUsage {
  plan: Plan;
  hour: QuotaWindowUsage;
  day: QuotaWindowUsage;
}

/** The plan an organization creates reviews under (decisions §1: the organization's own plan). */
export async function organizationPlan(db: Executor, organizationId: string): Promise<Plan> {
  const row = await db.selectFrom('organizations').select('plan').where('id', '=', organizationId).executeTakeFirst();
  if (!row) throw new Error(`organization ${organizationId} does not exist`);
  return row.plan;
}

/**
 * The live reviews of an organization in the rolling hour and the rolling day that end at `now`
 * (created in (now - length, now]), with `plan`'s limits (spec 8.2): what assertReviewQuota checks
 * against, and what `GET /v1/organizations/:id/usage` reports. Test reviews never count.
 *
 * With `unlimitedDay: 'skip'` a plan without a daily cap has only its hour read, and its day's
 * `used` is then the hour's (the check needs no more); the report counts the whole day.
 */
export async function countReviewQuota(
  db: Executor,
  input: { organizationId: string; plan: Plan; now: Date; unlimitedDay?: 'count' | 'skip' },
): Promise<ReviewQuotaUsage> {
  const { organizationId, plan, now } = input;
  const quota = REVIEW_QUOTA[plan];
  const hourStart = new Date(now.getTime() - HOUR_MS);
  const dayStart = new Date(now.getTime() - DAY_MS);
  const since = quota.day === null && input.unlimitedDay === 'skip' ? hourStart : dayStart;
  const counts = await db
    .selectFrom('reviews')
    .select((eb) => [
      eb.fn.countAll<number>().as('day'),
      eb.fn.countAll<number>().filterWhere('created_at', '>', hourStart).as('hour'),
    ])
    .where('organization_id', '=', organizationId)
    .where('mode', '=', 'live')
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return {
    plan,
    hour: { limit: quota.hour, used: Number(counts.hour) },
    day: { limit: quota.day, used: Number(counts.day) },
  };
}

/**
 * Spec 8.2 and decisions §6: refuses (429 `rate_limit_exceeded`, `Retry-After`) the creation of a
 * live review that would put its organization over its plan's rolling hour or rolling day.
 *
 * Call it inside the transaction that inserts the review, before the insert, with the default
 * READ COMMITTED isolation. It locks the organization row (`for no key update`: it serialises the
 * quota checks of one organization, yet does not block inserts that merely reference the row,
 * like test reviews or memberships) until that transaction ends, so concurrent creates for one
 * organization count one after the other and the quota is exact.
 *
 * A window holds the live reviews created in (now - length, now]: a review stops counting exactly
 * one hour (one day) after it was created. Test reviews never count and are never refused: with
 * `mode: 'test'` this returns at once without locking anything.
 *
 * `plan` defaults to the organization's plan, read under the lock.
 */
export async function assertReviewQuota(
  trx: Transaction<Database>,
  input: { organizationId: string; plan?: Plan; mode?: Mode; now: Date },
): Promise<ReviewQuotaUsage | undefined> {
  if (input.mode === 'test') return undefined;
  const { organizationId, now } = input;
  const org = await trx
    .selectFrom('organizations')
    .select('plan')
    .where('id', '=', organizationId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!org) throw new Error(`organization ${organizationId} does not exist`);
  const plan = input.plan ?? org.plan;
  const quota = REVIEW_QUOTA[plan];
  // Enterprise has no daily cap: the check needs only the last hour read.
  const usage = await countReviewQuota(trx, { organizationId, plan, now, unlimitedDay: 'skip' });

  const nowMs = now.getTime();
  const hourStart = new Date(nowMs - HOUR_MS);
  const dayStart = new Date(nowMs - DAY_MS);
  const exceeded: { window: 'hour' | 'day'; limit: number; used: number; start: Date; length: number }[] = [];
  if (usage.hour.used >= quota.hour) {
    exceeded.push({ window: 'hour', limit: quota.hour, used: usage.hour.used, start: hourStart, length: HOUR_MS });
  }
  if (quota.day !== null && usage.day.used >= quota.day) {
    exceeded.push({ window: 'day', limit: quota.day, used: usage.day.used, start: dayStart, length: DAY_MS });
  }
  if (exceeded.length === 0) return usage;

  // One more review fits once `used - limit + 1` of the window's reviews have left it, i.e. when
  // the one at index `used - limit` (oldest first) does: with `used === limit`, the oldest. Both
  // windows must have room, so the wait is the longer of the two.
  let longest: { window: 'hour' | 'day'; limit: number; waitMs: number } | undefined;
  for (const w of exceeded) {
    const row = await trx
      .selectFrom('reviews')
      .select('created_at')
      .where('organization_id', '=', organizationId)
      .where('mode', '=', 'live')
      .where('created_at', '>', w.start)
      .orderBy('created_at', 'asc')
      .offset(w.used - w.limit)
      .limit(1)
      .executeTakeFirstOrThrow();
    const waitMs = new Date(row.created_at).getTime() + w.length - nowMs;
    if (!longest || waitMs > longest.waitMs) longest = { window: w.window, limit: w.limit, waitMs };
  }
  const { window, limit, waitMs } = longest as NonNullable<typeof longest>;
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  throw new AppError(
    'rate_limit_exceeded',
    429,
    `Review quota exceeded: the organization's ${plan} plan allows ${limit} reviews per ${window}`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}
