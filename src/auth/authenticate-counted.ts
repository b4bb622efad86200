import { CompiledQuery, type Kysely } from 'kysely';
import { prepared } from '../db/database.js';
import type { Database } from '../db/schema.js';
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

type Headers = Record<string, string | string[] | undefined>;

// The lookups' rows (authenticate.ts) with the count always present: null when nothing was counted.
type CountedToken = TokenLookupRow & { request_count: number | null };
type CountedUser = Omit<UserLookupRow, 'id'> & { user_id: string; request_count: number | null };

// Decisions §6 in the statement that finds the credential: the window's row is upserted from the
// row found, so an unknown, revoked or expired token counts nothing, exactly as when the count
// was a statement of its own; ON CONFLICT's row lock keeps concurrent counts exact across
// instances. Fixed text, prepared once per connection: it runs on every request.
const COUNT = `
  insert into request_rate_windows as w (user_id, window_start, count)
  select c.user_id, $2, 1 from c
  on conflict (user_id, window_start) do update set count = w.count + 1
  returning w.count`;

const TOKEN_SQL = prepared(`
with c as (
  select t.id, t.scopes, t.mode, t.expires_at, t.revoked_at, t.last_used_at,
         u.id as user_id, u.username, u.plan, u.scm_id, u.github_token_sealed, u.memberships_synced_at
  from api_tokens t join users u on u.id = t.user_id
  where t.token_hash = $1 and t.revoked_at is null and t.expires_at > $3
), counted as (${COUNT})
select t.id, t.scopes, t.mode, t.expires_at, t.revoked_at, t.last_used_at,
       u.id as user_id, u.username, u.plan, u.scm_id, u.github_token_sealed, u.memberships_synced_at,
       (select count from counted) as request_count
from api_tokens t join users u on u.id = t.user_id
where t.token_hash = $1`);

const USER_SQL = prepared(`
with c as (select id as user_id from users where id = $1), counted as (${COUNT})
select u.id as user_id, u.username, u.plan, u.scm_id, u.github_token_sealed, u.memberships_synced_at,
       (select count from counted) as request_count
from users u
where u.id = $1`);

/** Lookups that count the request in the same statement: one round trip instead of two. */
export const countingLookups: CredentialLookups = {
  async token(db: Kysely<Database>, tokenHash: string, now: Date) {
    const result = await db.executeQuery<CountedToken>(
      CompiledQuery.raw(TOKEN_SQL, [tokenHash, rateWindowStart(now), now]),
    );
    return result.rows[0];
  },
  async user(db: Kysely<Database>, userId: string, now: Date) {
    const result = await db.executeQuery<CountedUser>(CompiledQuery.raw(USER_SQL, [userId, rateWindowStart(now)]));
    const row = result.rows[0];
    return row === undefined ? undefined : { ...row, id: row.user_id };
  },
};

/**
 * authenticate(), counting the request against the user's hourly budget (decisions §6) in the
 * same statement, and the budget's verdict. Counted only when the credential is good, before
 * any scope check, as before: a 403 counts too.
 */
export async function authenticateCounted(
  deps: AuthenticateDeps,
  headers: Headers,
  surface: Surface,
): Promise<{ principal: Principal; verdict: RateVerdict }> {
  const { principal, requestCount, now } = await authenticateWith(deps, headers, surface, countingLookups);
  // A credential that passed every check was counted by its lookup; no count would be a bug here.
  if (requestCount === null || requestCount === undefined) throw new Error('request was not counted');
  return { principal, verdict: rateVerdict(requestCount, principal.plan, rateWindowStart(now)) };
}
