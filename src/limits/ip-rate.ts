import { isIPv6 } from 'node:net';
import { type Kysely, sql } from 'kysely';
import { AppError } from '../common/errors.js';
import type { Database } from '../db/schema.js';

/**
 * Unauthenticated sign-in requests are counted per client address in fixed 10-minute windows, in
 * the database so every instance shares one budget. Ten minutes is the life of an OAuth state:
 * one address can then hold at most `limit` live states at any time, whatever it sends.
 */
export const SIGN_IN_WINDOW_MS = 10 * 60 * 1000;

export interface SignInVerdict {
  limit: number;
  /** UTC epoch seconds when the window ends. */
  reset: number;
  allowed: boolean;
}

/**
 * The budget key of a client address: IPv4 as is (IPv4-mapped IPv6 included), IPv6 by its /64,
 * since one subscriber routinely holds a whole /64 and could otherwise rotate addresses freely.
 */
export function signInAddressKey(ip: string): string {
  const bare = ip.split('%')[0] ?? ip;
  if (!isIPv6(bare)) return bare;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1] !== undefined) return mapped[1];
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => part.split(':').filter((g) => g !== '');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // A dotted IPv4 tail stands for two groups; only the first four groups matter here anyway.
  const rightLength = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const full = [...left, ...Array<string>(Math.max(0, 8 - left.length - rightLength)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Counts one sign-in request of `address`; the row lock of the upsert keeps concurrent counts exact. */
export async function countSignIn(
  db: Kysely<Database>,
  address: string,
  limit: number,
  now: Date,
): Promise<SignInVerdict> {
  const windowStart = new Date(Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS);
  const row = await db
    .insertInto('sign_in_rate_windows')
    .values({ window_start: windowStart, address: signInAddressKey(address), count: 1 })
    .onConflict((oc) =>
      oc.columns(['window_start', 'address']).doUpdateSet({ count: sql`sign_in_rate_windows.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  if (row.count === 1) {
    // An address's first request of a window clears the finished windows (a range of the key),
    // so the table holds about one window's addresses without a timer.
    await db.deleteFrom('sign_in_rate_windows').where('window_start', '<', windowStart).execute();
  }
  const reset = Math.floor((windowStart.getTime() + SIGN_IN_WINDOW_MS) / 1000);
  return { limit, reset, allowed: row.count <= limit };
}

/** 429 with Retry-After (spec 8.1's headers too); on /api/auth it renders in the reduced shape. */
export function signInRateError(verdict: SignInVerdict, now: Date): AppError {
  const retryAfter = Math.max(1, verdict.reset - Math.floor(now.getTime() / 1000));
  return new AppError(
    'rate_limit_exceeded',
    429,
    `Too many sign-in requests from this address (${verdict.limit} per 10 minutes); retry in ${retryAfter} seconds`,
    {
      headers: {
        'retry-after': String(retryAfter),
        'x-ratelimit-limit': String(verdict.limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(verdict.reset),
      },
    },
  );
}
