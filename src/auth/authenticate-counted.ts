import { CompiledQuery, type Kysely } from 'kysely';
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
import { type RateVerdict, rateVerdict, rateWindowStart } from '../limits/request-rate.js';
import { batchCalls } from '../shared/batch-calls.js';
import {
  type AuthenticateDeps,
  authenticateWith,
  type CredentialLookups,
  type Surface,
  type TokenLookupRow,
  type UserLookupRow,
} from './authenticate.js';
import type { Principal } from './principal.js';
import type { SomeReadAlong } from './read-along.js';

type Headers = Record<string, string | string[] | undefined>;

// The lookups' rows (authenticate.ts) with the count always present: null when nothing was counted.
type CountedToken = TokenLookupRow & { request_count: number | null };
type CountedUser = Omit<UserLookupRow, 'id'> & { user_id: string; request_count: number | null };

// The read along's columns in the answer, and its join.
const alongColumns = (along: SomeReadAlong | undefined) =>
  along === undefined
    ? ''
    : `, a.along_hit, ${along.columns.map((column) => `a."${column}" as "along.${column}"`).join(', ')}`;
const alongJoin = (along: SomeReadAlong | undefined) =>
  along === undefined
    ? ''
    : `\nleft join lateral (select true as along_hit, s.* from (${along.sql}) s limit 1) a on f.counts`;

/**
 * Decisions §6, counted in the statement that finds the credentials of a batch of concurrent
 * requests (batchCalls): `found` holds one row per request whose credential exists, `counts`
 * when it is good enough to count (an unknown, revoked or expired token counts nothing). Each
 * user's window gains the number of its good requests in one upsert, and the requests take the
 * counts in between in the order they came: exact, as one upsert per request was. ON CONFLICT's
 * row locks serialise concurrent batches across instances; the rows are upserted in key order,
 * so two batches locking the same users cannot deadlock. A read along (read-along.ts) joins each
 * counted request's row, its columns named `along.<column>` and `along_hit` true when it found one;
 * at most one row (`limit 1`): a second would repeat the request's row and shift its user's counts.
 */
const countedBatch = (found: string, returned: readonly string[], along: SomeReadAlong | undefined) => `
with found as (${found}),
tally as (
  select user_id, window_start, count(*) as n from found where counts group by user_id, window_start
),
counted as (
  insert into request_rate_windows as w (user_id, window_start, count)
  select user_id, window_start, n from tally order by user_id, window_start
  on conflict (user_id, window_start) do update set count = w.count + excluded.count
  returning w.user_id, w.window_start, w.count
)
select f.ord, ${returned.map((column) => `f.${column}`).join(', ')},
       case when f.counts
         then (c.count - t.n + row_number() over (partition by f.user_id, f.window_start, f.counts order by f.ord))::int
       end as request_count${alongColumns(along)}
from found f
left join tally t on f.counts and t.user_id = f.user_id and t.window_start = f.window_start
left join counted c on f.counts and c.user_id = f.user_id and c.window_start = f.window_start${alongJoin(along)}`;

// The columns each statement answers with (besides ord and request_count): the lookup's row.
const USER_COLUMNS = ['user_id', 'username', 'plan', 'scm_id', 'github_token_sealed', 'memberships_synced_at'];
const ALONG_KEY: BatchColumn = { name: 'along_key', type: 'text' };

// Fixed texts, prepared once per connection: they run on every request. The scopes come as JSON:
// node-postgres parses a text[] column in JS, a json one with the native JSON.parse.
const tokensSql = (along: SomeReadAlong | undefined) =>
  prepared(
    countedBatch(
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
    ),
  );

// A JWT is always live (decisions §2): the mode a read along sees.
const usersSql = (along: SomeReadAlong | undefined) =>
  prepared(
    countedBatch(
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
    ),
  );

type AlongRow = Record<string, unknown> & { along_hit?: boolean | null };

/** Takes the read along's row out of a result row (its `along.` columns); undefined: none found. */
function alongRowOf(along: SomeReadAlong): (row: AlongRow) => Record<string, unknown> | undefined {
  const names = along.columns.map((column) => [column, `along.${column}`] as const);
  return (row) => {
    if (row.along_hit !== true) return undefined;
    const out: Record<string, unknown> = {};
    for (const [column, name] of names) out[column] = row[name];
    return out;
  };
}

/**
 * Lookups that count each request in the statement that finds its credential, and share that
 * statement between concurrent requests: one round trip for a batch of requests. With `along`,
 * the statement also runs that read for each request given a key (read-along.ts). A call waits
 * for its batch to start at most `waitMs` (DatabaseHandle.connectWaitMs).
 */
export function countingLookups(db: Kysely<Database>, waitMs?: number, along?: SomeReadAlong): CredentialLookups {
  const limit = statementWaitLimit(waitMs);
  const tokensText = tokensSql(along);
  const usersText = usersSql(along);
  // A request without a key still joins the batch; the empty key finds nothing.
  const key = (alongKey: string | undefined) => (along === undefined ? [] : [alongKey ?? '']);
  const alongRow = along === undefined ? undefined : alongRowOf(along);
  const withAlong = <T extends object>(row: T | undefined): T | undefined => {
    if (row === undefined || alongRow === undefined) return row;
    return Object.assign(row, { along: alongRow(row as AlongRow) });
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
): Promise<{ principal: Principal; verdict: RateVerdict; along: unknown }> {
  const { principal, requestCount, now, along } = await authenticateWith(deps, headers, surface, lookups, alongKey);
  // A credential that passed every check was counted by its lookup; no count would be a bug here.
  if (requestCount === null || requestCount === undefined) throw new Error('request was not counted');
  return { principal, verdict: rateVerdict(requestCount, principal.plan, rateWindowStart(now)), along };
}
