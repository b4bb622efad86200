import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import { type AppError, badRequest, invalidApiKey, unauthorized } from '../common/errors.js';
import type { Database, Mode, Plan, UserRow } from '../db/schema.js';
import { findUserById } from './accounts.js';
import { checkApiToken, hashSecret, looksLikeApiToken } from './api-token-format.js';
import { findTokenWithUser, touchApiToken } from './api-tokens.js';
import { type JwtKeys, verifyUserJwt } from './jwt.js';
import { membershipsStale, queueMembershipRefresh } from './membership-refresh.js';
import type { Principal } from './principal.js';
import { isScope, SCOPES, type Scope } from './scopes.js';

export interface AuthenticateDeps {
  db: Kysely<Database>;
  clock: Clock;
  jwtKeys: JwtKeys;
}

/**
 * Where the credential is used decides the error code (spec 7.3): the sign-in and token
 * endpoints answer `unauthorized` and accept only the JWT; everything else `invalid_api_key`.
 */
export type Surface = 'api' | 'token_management';

type Headers = Record<string, string | string[] | undefined>;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The credential from `Authorization: Bearer` or `X-API-Key`; both present and different is an error. */
export function credentialFrom(headers: Headers, fail: (message: string) => AppError): string | undefined {
  const authorization = single(headers.authorization);
  const apiKey = single(headers['x-api-key'])?.trim();
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw fail('Authorization header must be "Bearer <token>"');
    bearer = match[1];
  }
  if (bearer !== undefined && apiKey !== undefined && apiKey !== '' && bearer !== apiKey) {
    throw badRequest('Authorization and X-API-Key carry different credentials; send one', {
      field: 'X-API-Key',
      issue: 'differs from the Authorization header',
    });
  }
  return bearer ?? (apiKey === '' ? undefined : apiKey);
}

/** A token and its user, as authentication needs them; `request_count` as in CredentialLookups. */
export interface TokenLookupRow {
  id: string;
  scopes: string[];
  mode: Mode;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  user_id: string;
  username: string;
  plan: Plan;
  scm_id: number | null;
  github_token_sealed: string | null;
  memberships_synced_at: Date | null;
  request_count?: number | null;
  along?: unknown;
}

export type UserLookupRow = Pick<
  UserRow,
  'id' | 'username' | 'plan' | 'scm_id' | 'github_token_sealed' | 'memberships_synced_at'
> & { request_count?: number | null; along?: unknown };

/**
 * How a credential's rows are read. A lookup may also count the request against the user's
 * hourly budget in the same statement (authenticate-counted.ts): `request_count` is then the
 * window's count after it, or null when the credential was not good enough to count. A lookup
 * with a read along (read-along.ts) runs it for `alongKey` and answers its row as `along`.
 */
export interface CredentialLookups {
  token(tokenHash: string, now: Date, alongKey?: string): Promise<TokenLookupRow | undefined>;
  user(userId: string, now: Date, alongKey?: string): Promise<UserLookupRow | undefined>;
}

export async function authenticate(
  deps: AuthenticateDeps,
  headers: Headers,
  surface: Surface,
  sessionUserId?: string,
): Promise<Principal> {
  const lookups: CredentialLookups = {
    token: (tokenHash) => findTokenWithUser(deps.db, tokenHash),
    user: (userId) => findUserById(deps.db, userId),
  };
  return (await authenticateWith(deps, headers, surface, lookups, undefined, sessionUserId)).principal;
}

/**
 * authenticate() with the given lookups; also the request's count when they counted it, the
 * time used, and the row of the lookups' read along for `alongKey`.
 */
export async function authenticateWith(
  deps: AuthenticateDeps,
  headers: Headers,
  surface: Surface,
  lookups: CredentialLookups,
  alongKey?: string,
  sessionUserId?: string,
): Promise<{ principal: Principal; requestCount: number | null | undefined; now: Date; along: unknown }> {
  const fail = surface === 'api' ? invalidApiKey : unauthorized;
  const credential = credentialFrom(headers, fail);
  const now = deps.clock.now();
  // A dashboard session (its cookie already checked by the guard) counts only when no header
  // credential is sent: a key or JWT in the request always wins.
  if (credential === undefined && sessionUserId !== undefined) {
    return signedInUser(
      deps,
      lookups,
      sessionUserId,
      now,
      'session',
      () => fail('Session has ended; sign in again'),
      alongKey,
    );
  }
  if (credential === undefined) {
    throw fail(surface === 'api' ? 'Missing API key' : 'Missing bearer token');
  }

  if (looksLikeApiToken(credential)) {
    if (surface === 'token_management') {
      throw unauthorized('API tokens cannot manage tokens; use the JWT from sign-in');
    }
    const check = checkApiToken(credential);
    if (!check.ok) throw fail(check.reason);
    const row = await lookups.token(hashSecret(credential), now, alongKey);
    if (row === undefined) throw fail('API key is not recognised');
    if (row.revoked_at !== null) throw fail('API key has been revoked');
    if (row.expires_at.getTime() <= now.getTime()) throw fail('API key has expired');
    // The row in hand says whether a write is due: most requests skip it (the update's own
    // condition still settles two instances racing).
    if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() >= 60_000) {
      await touchApiToken(deps.db, row.id, now);
    }
    if (membershipsStale(row, now)) await queueMembershipRefresh(deps.db, row.user_id, now);
    const principal: Principal = {
      userId: row.user_id,
      username: row.username,
      plan: row.plan,
      scopes: new Set(row.scopes.filter(isScope)),
      mode: row.mode,
      via: 'api_token',
      tokenId: row.id,
    };
    return { principal, requestCount: row.request_count, now, along: row.along };
  }

  // One message for every refused JWT, so a caller cannot tell a good signature from a bad one.
  const refused = () =>
    fail(surface === 'api' ? 'API key or token is invalid or expired' : 'Token is invalid or expired');
  const userId = await verifyUserJwt(deps.jwtKeys, credential, now);
  if (userId === undefined) throw refused();
  return signedInUser(deps, lookups, userId, now, 'jwt', refused, alongKey);
}

/** The principal of a JWT or a dashboard session: the user at the keyboard. */
async function signedInUser(
  deps: AuthenticateDeps,
  lookups: CredentialLookups,
  userId: string,
  now: Date,
  via: 'jwt' | 'session',
  refused: () => AppError,
  alongKey: string | undefined,
): Promise<{ principal: Principal; requestCount: number | null | undefined; now: Date; along: unknown }> {
  const user = await lookups.user(userId, now, alongKey);
  if (user === undefined) throw refused();
  if (membershipsStale(user, now)) await queueMembershipRefresh(deps.db, user.id, now);
  const principal: Principal = {
    userId: user.id,
    username: user.username,
    plan: user.plan,
    // Decisions §2: a JWT carries every scope; it is the signed-in user at the keyboard, and so
    // is a dashboard session.
    scopes: new Set<Scope>(SCOPES),
    mode: 'live',
    via,
    tokenId: undefined,
  };
  return { principal, requestCount: user.request_count, now, along: user.along };
}
