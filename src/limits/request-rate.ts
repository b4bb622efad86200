import type { Kysely } from 'kysely';
import { AppError } from '../common/errors.js';
import type { Database, Plan } from '../db/schema.js';
import { REQUESTS_PER_HOUR } from './plans.js';

const WINDOW_MS = 3_600_000;

export interface RateVerdict {
  limit: number;
  remaining: number;
  /** UTC epoch seconds when the window ends. */
  reset: number;
  allowed: boolean;
}

/** The fixed UTC hour a request at `now` is counted in. */
export function rateWindowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
}

/** The verdict on a request that made the window's count `count`. */
export function rateVerdict(count: number, plan: Plan, windowStart: Date): RateVerdict {
  const limit = REQUESTS_PER_HOUR[plan];
  const reset = Math.floor((windowStart.getTime() + WINDOW_MS) / 1000);
  return { limit, remaining: Math.max(0, limit - count), reset, allowed: count <= limit };
}

/** A user's request budget of the current window, as counted so far (GET /v1/rate-limit). */
export interface RequestRateUsage extends Omit<RateVerdict, 'allowed'> {
  plan: Plan;
  /** Requests counted in the window so far. */
  used: number;
}

/**
 * Reads, without counting anything, how much of the hourly budget the user has used: the count
 * the rate limiter keeps for the window `now` falls in (rateWindowStart; no row yet is 0), and
 * the limit, remaining and reset the next counted request's verdict starts from.
 */
export async function readRequestRate(
  db: Kysely<Database>,
  input: { userId: string; plan: Plan; now: Date },
): Promise<RequestRateUsage> {
  const windowStart = rateWindowStart(input.now);
  const row = await db
    .selectFrom('request_rate_windows')
    .select('count')
    .where('user_id', '=', input.userId)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  const used = Number(row?.count ?? 0);
  const { limit, remaining, reset } = rateVerdict(used, input.plan, windowStart);
  return { plan: input.plan, limit, used, remaining, reset };
}

export function rateLimitHeaders(verdict: Pick<RateVerdict, 'limit' | 'remaining' | 'reset'>): Record<string, string> {
  return {
    'x-ratelimit-limit': String(verdict.limit),
    'x-ratelimit-remaining': String(verdict.remaining),
    'x-ratelimit-reset': String(verdict.reset),
  };
}

export function rateLimitError(verdict: RateVerdict, now: Date): AppError {
  const retryAfter = Math.max(1, verdict.reset - Math.floor(now.getTime() / 1000));
  return new AppError('rate_limit_exceeded', 429, `Rate limit of ${verdict.limit} requests per hour exceeded`, {
    headers: { ...rateLimitHeaders(verdict), 'retry-after': String(retryAfter) },
  });
}

/** Old windows are useless; a worker (or any caller) may clear them now and then. */
export async function pruneRateWindows(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('request_rate_windows')
    .where('window_start', '<', new Date(now.getTime() - 2 * WINDOW_MS))
    .execute();
}
