import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { backoffPause } from '../common/backoff-pause.js';
import { AppError, validationError } from '../common/errors.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import type { Database, Mode } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** Spec 8.4: a key replays its response for 24 hours after the request that first used it. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long an in-flight reservation blocks its key. A request that crashed (process killed)
 * never finishes nor abandons its key; after this lease another request takes the key over.
 */
export const IDEMPOTENCY_LOCK_MS = 60_000;

const FIELD = 'Idempotency-Key';
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/**
 * Decisions §6: 1 to 255 printable ASCII characters. Returns the key, or undefined when the
 * header is absent; anything else answers 400 `validation_error` with details.field
 * `Idempotency-Key`.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
    throw validationError(FIELD, 'must be 1 to 255 printable ASCII characters');
  }
  return header;
}

/** JSON with object keys sorted at every depth: equal values give equal text, whatever the key order. */
function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object') {
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return canonicalJson(withJson.toJSON());
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && typeof v !== 'function')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A stable hash (SHA-256, hex) of a request body: key order does not matter, array order does.
 * `endpoint` (say `POST /v1/reviews`) goes into the hash too, so one key reused on another
 * endpoint counts as a different request (422), not as a replay of the first.
 */
export function requestHash(body: unknown, endpoint?: string): string {
  const hash = createHash('sha256');
  if (endpoint !== undefined) hash.update(`${endpoint}\n`);
  return hash.update(canonicalJson(body)).digest('hex');
}

/**
 * Decisions §6: validation failures, 429s and 5xx are not stored (the in-flight reservation is
 * abandoned instead), nor is a 409: the client may retry those with the same key. Anything else
 * the endpoint answered is the request's outcome and is stored.
 */
export function isStoredStatus(status: number): boolean {
  if (status >= 500) return false;
  return status !== 400 && status !== 409 && status !== 422 && status !== 429;
}

export type IdempotencyBegin = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

interface KeyScope {
  userId: string;
  mode: Mode;
  key: string;
}

/**
 * Reserves the key (user, mode, key) for a request whose body hashes to `requestHash`, in one
 * committed statement of its own (so pass the database, never a transaction: other requests must
 * see the reservation at once). Answers:
 * - `new`: the key is now in flight for this request (for IDEMPOTENCY_LOCK_MS); the caller must
 *   either finishIdempotentRequest (in the transaction that does the work) or
 *   abandonIdempotentRequest. An unknown key, an expired one (24 h after its first use) and one
 *   whose in-flight lease ran out (a crashed request) all answer `new`;
 * - `replay`: the same request already ran: answer `status` and `body` again, as stored, with
 *   `Idempotent-Replayed: true`.
 * Throws 422 `conflict` when the key was used with another body (in flight or done), and 409
 * `conflict` when the same request is still in flight.
 */
export async function beginIdempotentRequest(
  db: Kysely<Database>,
  input: KeyScope & { requestHash: string; now: Date },
): Promise<IdempotencyBegin> {
  const { userId, mode, key, now } = input;
  // Another request may finish, abandon or expire the key between our two statements; a few
  // rounds settle it (each one ends unless the key changed hands in between).
  for (let attempt = 0; attempt < 5; attempt++) {
    const reserved = await db
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        mode,
        key,
        request_hash: input.requestHash,
        status: 'in_flight',
        response_status: null,
        response_body: null,
        created_at: now,
        locked_until: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'mode', 'key'])
          .doUpdateSet((eb) => ({
            request_hash: eb.ref('excluded.request_hash'),
            status: eb.ref('excluded.status'),
            response_status: null,
            response_body: null,
            locked_until: eb.ref('excluded.locked_until'),
            expires_at: eb.ref('excluded.expires_at'),
          }))
          // Take over an expired key, or a reservation whose request died.
          .where((eb) =>
            eb.or([
              eb('idempotency_keys.expires_at', '<=', now),
              eb.and([eb('idempotency_keys.status', '=', 'in_flight'), eb('idempotency_keys.locked_until', '<=', now)]),
            ]),
          ),
      )
      .returning('key')
      .executeTakeFirst();
    if (reserved) return { kind: 'new' };

    const row = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'response_status', 'response_body', 'locked_until', 'expires_at'])
      .where('user_id', '=', userId)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) continue; // abandoned meanwhile: reserve it
    if (new Date(row.expires_at).getTime() <= now.getTime()) continue;
    if (row.request_hash !== input.requestHash) {
      throw new AppError('conflict', 422, 'This Idempotency-Key was already used with a different request', {
        details: { field: FIELD, issue: 'was already used with a different request body' },
      });
    }
    if (row.status === 'done') {
      return { kind: 'replay', status: row.response_status as number, body: decodeBody(row.response_body) };
    }
    if (row.locked_until !== null && new Date(row.locked_until).getTime() <= now.getTime()) continue;
    break;
  }
  throw new AppError('conflict', 409, 'A request with this Idempotency-Key is still in progress', {
    details: { field: FIELD, issue: 'a request with this key is still in progress' },
  });
}

/**
 * Stores the response of the request that reserved the key. Call it inside the transaction that
 * did the work (created the review), so the response is stored if and only if the work commits.
 * (For a stored outcome with no transaction, like a 404, the database itself will do.)
 *
 * Throws 409 `conflict` when the reservation is gone: its lease ran out and another request took
 * the key over (and maybe finished first). The caller's transaction then rolls back, so one key
 * never does the work twice.
 */
export async function finishIdempotentRequest(
  trx: Executor,
  input: KeyScope & { requestHash: string; status: number; body: unknown },
): Promise<void> {
  const result = await trx
    .updateTable('idempotency_keys')
    .set({
      status: 'done',
      response_status: input.status,
      // Kept as JSON text inside jsonb: a jsonb object would reorder the keys of the body, and a
      // replay must answer the very same body.
      response_body: JSON.stringify(JSON.stringify(input.body ?? null)),
      locked_until: null,
    })
    .where('user_id', '=', input.userId)
    .where('mode', '=', input.mode)
    .where('key', '=', input.key)
    .where('status', '=', 'in_flight')
    .where('request_hash', '=', input.requestHash)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    throw new AppError('conflict', 409, 'Another request with this Idempotency-Key took it over', {
      details: { field: FIELD, issue: 'a request with this key is still in progress' },
    });
  }
}

/**
 * Releases the reservation of a request that failed in a way that is not stored (validation
 * error, 429, 5xx: see isStoredStatus), so the client can retry with the same key at once.
 * Only an in-flight reservation of this very request is deleted, never a stored response.
 */
export async function abandonIdempotentRequest(
  db: Executor,
  input: KeyScope & { requestHash?: string },
): Promise<void> {
  let query = db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', input.userId)
    .where('mode', '=', input.mode)
    .where('key', '=', input.key)
    .where('status', '=', 'in_flight');
  if (input.requestHash !== undefined) query = query.where('request_hash', '=', input.requestHash);
  await query.execute();
}

/** The first pause before trying again a release the database could not take (then doubled, to 5 s). */
const RELEASE_PAUSE_MS = 500;

/**
 * abandonIdempotentRequest for a request that failed because the database went away: the
 * release itself then fails too, and the key would answer 409 until its lease ran out (a minute)
 * to a client retrying after the outage. The release is tried now and, while the database stays
 * away, again in the background with growing pauses until it is taken or the lease (`lockedUntil`,
 * from `now()`) has run out anyway. Resolves after the first try; other errors are thrown.
 */
export async function abandonIdempotentRequestWhenPossible(
  db: Kysely<Database>,
  input: KeyScope & { requestHash: string; lockedUntil: Date },
  now: () => Date,
): Promise<void> {
  const release = () => abandonIdempotentRequest(db, input);
  try {
    await release();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    const retry = (round: number) => {
      const pause = backoffPause(RELEASE_PAUSE_MS, round + 1);
      if (now().getTime() + pause >= input.lockedUntil.getTime()) return;
      setTimeout(() => {
        release().catch((again: unknown) => {
          if (isDatabaseUnavailable(again)) retry(round + 1);
        });
      }, pause).unref();
    };
    retry(0);
  }
}

/** Deletes expired keys (their responses are no longer replayed); returns how many. */
export async function pruneIdempotencyKeys(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

function decodeBody(stored: unknown): unknown {
  return typeof stored === 'string' ? JSON.parse(stored) : stored;
}
