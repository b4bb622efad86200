import { CompiledQuery, type Kysely, sql } from 'kysely';
import { batchCalls } from '../common/batch-calls.js';
import {
  type BatchColumn,
  type BatchRow,
  batchInputsFrom,
  batchInputsParameter,
  inInputOrder,
} from '../db/batch-inputs.js';
import { prepared } from '../db/database.js';
import { statementWaitLimit } from '../db/database-unavailable.js';
import type { Database } from '../db/schema.js';
import { REQUEST_COUNT_PART } from '../limits/request-count-part.js';
import { type RateVerdict, rateVerdict, rateWindowStart } from '../limits/request-rate.js';
import {
  type AuthenticateDeps,
  authenticateWith,
  type CredentialLookups,
  type Surface,
  type TokenLookupRow,
  type UserLookupRow,
} from './authenticate.js';
import type { Principal } from './principal.js';
import { readAlongPart, readAlongRow, type SomeReadAlong } from './read-along.js';

type Headers = Record<string, string | string[] | undefined>;

// The lookups' rows (authenticate.ts) with the count always present: null when nothing was counted.
type CountedToken = TokenLookupRow & { request_count: number | null };
type CountedUser = Omit<UserLookupRow, 'id'> & { user_id: string; request_count: number | null };

/**
 * The statement a batch of requests runs (batchCalls): `found` (this file's lookup of the
 * credentials, one row per request whose credential exists), then each part's common table
 * expressions, answering `ord`, the lookup's `returned` columns and each part's columns, with
 * each part's joins onto `found f`. The parts: the request count (limits/request-count-part.ts,
 * always) and a read along (read-along.ts) when the route has one. Composed and compiled once,
 * it is a fixed text whose one parameter, $1, is the batch's inputs (db/batch-inputs.ts).
 */
function countedBatch(
  db: Kysely<Database>,
  found: string,
  returned: readonly string[],
  along: SomeReadAlong | undefined,
): string {
  const parts = along === undefined ? [REQUEST_COUNT_PART] : [REQUEST_COUNT_PART, readAlongPart(along)];
  const ctes = [sql`found as (${sql.raw(found)})`, ...parts.flatMap((part) => part.ctes)];
  const columns = [sql`f.ord`, ...returned.map((column) => sql.ref(`f.${column}`)), ...parts.flatMap((p) => p.columns)];
  const joins = parts.flatMap((part) => part.joins);
  const statement = sql`with ${sql.join(ctes, sql`,\n`)}
select ${sql.join(columns)}
from found f
${sql.join(joins, sql`\n`)}`.compile(db);
  // Kysely would number a fragment's value $1, the batch's inputs' place: a part carries none.
  if (statement.parameters.length > 0) throw new Error('a part of the counting statement carries a value');
  return prepared(statement.sql);
}

// The columns each statement answers with (besides ord and the parts'): the lookup's row.
const USER_COLUMNS = ['user_id', 'username', 'plan', 'scm_id', 'github_token_sealed', 'memberships_synced_at'];
const ALONG_KEY: BatchColumn = { name: 'along_key', type: 'text' };

// Fixed texts, prepared once per connection: they run on every request. The scopes come as JSON:
// node-postgres parses a text[] column in JS, a json one with the native JSON.parse.
const tokensSql = (db: Kysely<Database>, along: SomeReadAlong | undefined) =>
  countedBatch(
    db,
    `
  select q.ord, q.window_start, t.id, to_json(t.scopes) as scopes, t.mode, t.expires_at, t.revoked_at, t.last_used_at,
         u.id as user_id, u.username, u.plan, u.scm_id, u.github_token_sealed, u.memberships_synced_at,
         (t.revoked_at is null and t.expires_at > q.now) as counts${along === undefined ? '' : ', q.along_key'}
  from ${batchInputsFrom([
    { name: 'token_hash', type: 'text' },
    { name: 'window_start', type: 'timestamptz' },
    { name: 'now', type: 'timestamptz' },
    ...(along === undefined ? [] : [ALONG_KEY]),
  ])}
  join api_tokens t on t.token_hash = q.token_hash
  join users u on u.id = t.user_id`,
    ['id', 'scopes', 'mode', 'expires_at', 'revoked_at', 'last_used_at', ...USER_COLUMNS],
    along,
  );

// A JWT is always live (decisions §2): the mode a read along sees.
const usersSql = (db: Kysely<Database>, along: SomeReadAlong | undefined) =>
  countedBatch(
    db,
    `
  select q.ord, q.window_start, u.id as user_id, u.username, u.plan, u.scm_id, u.github_token_sealed,
         u.memberships_synced_at, true as counts${along === undefined ? '' : `, q.along_key, 'live'::text as mode`}
  from ${batchInputsFrom([
    { name: 'user_id', type: 'text' },
    { name: 'window_start', type: 'timestamptz' },
    ...(along === undefined ? [] : [ALONG_KEY]),
  ])}
  join users u on u.id = q.user_id`,
    USER_COLUMNS,
    along,
  );

/**
 * Lookups that count each request in the statement that finds its credential, and share that
 * statement between concurrent requests: one round trip for a batch of requests. With `along`,
 * the statement also runs that read for each request given a key (read-along.ts). A call waits
 * for its batch to start at most `waitMs` (DatabaseHandle.connectWaitMs).
 */
export function countingLookups(db: Kysely<Database>, waitMs?: number, along?: SomeReadAlong): CredentialLookups {
  const limit = statementWaitLimit(waitMs);
  const tokensText = tokensSql(db, along);
  const usersText = usersSql(db, along);
  // A request without a key still joins the batch; the empty key finds nothing.
  const key = (alongKey: string | undefined) => (along === undefined ? [] : [alongKey ?? '']);
  const alongRow = along === undefined ? undefined : readAlongRow(along);
  const withAlong = <T extends object>(row: T | undefined): T | undefined => {
    if (row === undefined || alongRow === undefined) return row;
    return Object.assign(row, { along: alongRow(row as Record<string, unknown>) });
  };
  const tokens = batchCalls<{ tokenHash: string; now: Date; alongKey: string | undefined }, CountedToken | undefined>(
    async (calls) => {
      const inputs = calls.map((call) => [
        call.tokenHash,
        rateWindowStart(call.now).getTime(),
        call.now.getTime(),
        ...key(call.alongKey),
      ]);
      const result = await db.executeQuery<BatchRow<CountedToken>>(
        CompiledQuery.raw(tokensText, [batchInputsParameter(inputs)]),
      );
      return inInputOrder(result.rows, calls.length);
    },
    limit,
  );
  const users = batchCalls<{ userId: string; now: Date; alongKey: string | undefined }, CountedUser | undefined>(
    async (calls) => {
      const inputs = calls.map((call) => [call.userId, rateWindowStart(call.now).getTime(), ...key(call.alongKey)]);
      const result = await db.executeQuery<BatchRow<CountedUser>>(
        CompiledQuery.raw(usersText, [batchInputsParameter(inputs)]),
      );
      return inInputOrder(result.rows, calls.length);
    },
    limit,
  );
  return {
    token: async (tokenHash, now, alongKey) => withAlong(await tokens({ tokenHash, now, alongKey })),
    async user(userId, now, alongKey) {
      const row = withAlong(await users({ userId, now, alongKey }));
      return row === undefined ? undefined : { ...row, id: row.user_id };
    },
  };
}

/**
 * authenticate(), counting the request against the user's hourly budget (decisions §6) in the
 * statement that finds the credential (`lookups` from countingLookups), and the budget's
 * verdict. Counted only when the credential is good, before any scope check: a 403 counts too.
 * `along` is the row of the lookups' read along for `alongKey`, if they have one.
 */
export async function authenticateCounted(
  deps: AuthenticateDeps,
  lookups: CredentialLookups,
  headers: Headers,
  surface: Surface,
  alongKey?: string,
  sessionUserId?: string,
): Promise<{ principal: Principal; verdict: RateVerdict; along: unknown }> {
  const { principal, requestCount, now, along } = await authenticateWith(
    deps,
    headers,
    surface,
    lookups,
    alongKey,
    sessionUserId,
  );
  // A credential that passed every check was counted by its lookup; no count would be a bug here.
  if (requestCount === null || requestCount === undefined) throw new Error('request was not counted');
  return { principal, verdict: rateVerdict(requestCount, principal.plan, rateWindowStart(now)), along };
}
