import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomBase62 } from '../common/base62.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Database } from '../db/schema.js';
import { hashSecret } from './api-token-format.js';

export const STATE_LIFETIME_MS = 10 * 60 * 1000;

export interface IssuedState {
  state: string;
  codeChallenge: string;
}

/** A fresh single-use `state` and its PKCE pair; only the state's hash and the sealed verifier are kept. */
export async function issueOAuthState(
  db: Kysely<Database>,
  box: SecretBox,
  now: Date,
  forDashboard = false,
): Promise<IssuedState> {
  const state = randomBase62(43);
  const verifier = randomBase62(64);
  // Expired states are useless; clearing them here keeps the table small without a timer.
  await db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
  await db
    .insertInto('oauth_states')
    .values({
      state_hash: hashSecret(state),
      code_verifier_sealed: box.seal(verifier),
      created_at: now,
      expires_at: new Date(now.getTime() + STATE_LIFETIME_MS),
      for_dashboard: forDashboard,
    })
    .execute();
  return { state, codeChallenge: createHash('sha256').update(verifier).digest('base64url') };
}

export type ConsumedState =
  | { ok: true; codeVerifier: string; forDashboard: boolean }
  | { ok: false; reason: 'unknown' }
  // An expired state still says who started the flow, so the dashboard's failure can go back to it.
  | { ok: false; reason: 'expired'; forDashboard: boolean };

/** Deletes the state as it reads it, so a second use (or a race of two) finds nothing. */
export async function consumeOAuthState(
  db: Kysely<Database>,
  box: SecretBox,
  state: string,
  now: Date,
): Promise<ConsumedState> {
  const row = await db
    .deleteFrom('oauth_states')
    .where('state_hash', '=', hashSecret(state))
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) return { ok: false, reason: 'unknown' };
  if (row.expires_at.getTime() <= now.getTime())
    return { ok: false, reason: 'expired', forDashboard: row.for_dashboard };
  return { ok: true, codeVerifier: box.open(row.code_verifier_sealed), forDashboard: row.for_dashboard };
}
