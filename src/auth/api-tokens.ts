import type { Kysely } from 'kysely';
import { newId } from '../common/ids.js';
import type { ApiTokenRow, Database, Mode } from '../db/schema.js';
import { generateApiToken, hashSecret } from './api-token-format.js';
import type { Scope } from './scopes.js';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 90 * 24 * 3600;

export interface CreatedToken {
  row: ApiTokenRow;
  /** The whole token: returned once, never stored. */
  token: string;
}

export async function createApiToken(
  db: Kysely<Database>,
  input: { userId: string; name: string; scopes: Scope[]; mode: Mode; expiresInSeconds: number; now: Date },
): Promise<CreatedToken> {
  const token = generateApiToken(input.mode);
  const row = await db
    .insertInto('api_tokens')
    .values({
      id: newId('tok'),
      user_id: input.userId,
      name: input.name,
      scopes: [...new Set(input.scopes)],
      mode: input.mode,
      token_hash: hashSecret(token),
      created_at: input.now,
      expires_at: new Date(input.now.getTime() + input.expiresInSeconds * 1000),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token };
}

/** The user's tokens that can still be used (not revoked), newest first. */
export async function listApiTokens(db: Kysely<Database>, userId: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** False when the token does not exist, is another user's, or was already revoked. */
export async function revokeApiToken(
  db: Kysely<Database>,
  userId: string,
  tokenId: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A token and the user it acts for, in one query: this runs on every API-token request. The user
 * always exists (tokens cascade with their user).
 */
export async function findTokenWithUser(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.id',
      't.scopes',
      't.mode',
      't.expires_at',
      't.revoked_at',
      't.last_used_at',
      'u.id as user_id',
      'u.username',
      'u.plan',
      'u.scm_id',
      'u.github_token_sealed',
      'u.memberships_synced_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Decisions §2: `last_used` moves at most once a minute per token, so reads stay cheap. */
export async function touchApiToken(db: Kysely<Database>, tokenId: string, now: Date): Promise<void> {
  const minuteAgo = new Date(now.getTime() - 60_000);
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', minuteAgo)]))
    .execute();
}
