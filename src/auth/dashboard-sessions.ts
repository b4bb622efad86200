import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomBase62 } from '../common/base62.js';
import { newId } from '../common/ids.js';
import type { Database } from '../db/schema.js';
import { hashSecret } from './api-token-format.js';

/** A session lasts a working day; signing out ends it sooner. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** A sign-in link is for the next few minutes, once. */
export const SIGN_IN_LINK_LIFETIME_MS = 10 * 60 * 1000;
export const SESSION_COOKIE = 'redline_session';
export const CSRF_HEADER = 'x-csrf-token';

export interface DashboardSession {
  id: string;
  userId: string;
  expiresAt: Date;
}

/** A one-time sign-in code for a user; only its hash is stored. */
export async function issueSignInLink(db: Kysely<Database>, userId: string, now: Date): Promise<string> {
  const code = randomBase62(43);
  // Expired links are useless; clearing them here keeps the table small without a timer.
  await db.deleteFrom('dashboard_sign_in_links').where('expires_at', '<', now).execute();
  await db
    .insertInto('dashboard_sign_in_links')
    .values({
      code_hash: hashSecret(code),
      user_id: userId,
      created_at: now,
      expires_at: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS),
    })
    .execute();
  return code;
}

export type ConsumedLink = { ok: true; userId: string } | { ok: false; reason: 'unknown' | 'expired' };

/** Deletes the link as it reads it, so a second use (or a race of two) finds nothing. */
export async function consumeSignInLink(db: Kysely<Database>, code: string, now: Date): Promise<ConsumedLink> {
  const row = await db
    .deleteFrom('dashboard_sign_in_links')
    .where('code_hash', '=', hashSecret(code))
    .returning(['user_id', 'expires_at'])
    .executeTakeFirst();
  if (row === undefined) return { ok: false, reason: 'unknown' };
  if (row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, userId: row.user_id };
}

/** A new session for the user; `secret` goes in the cookie and is not kept. */
export async function createSession(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<{ session: DashboardSession; secret: string }> {
  const secret = randomBase62(43);
  const session = { id: newId('ses'), userId, expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS) };
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<', now).execute();
  await db
    .insertInto('dashboard_sessions')
    .values({
      id: session.id,
      secret_hash: hashSecret(secret),
      user_id: userId,
      created_at: now,
      expires_at: session.expiresAt,
    })
    .execute();
  return { session, secret };
}

/** The live session the cookie's secret opens, if any. */
export async function findSession(
  db: Kysely<Database>,
  secret: string,
  now: Date,
): Promise<DashboardSession | undefined> {
  const row = await db
    .selectFrom('dashboard_sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('secret_hash', '=', hashSecret(secret))
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, userId: row.user_id, expiresAt: row.expires_at };
}

/** Signing out: the row goes, so the cookie opens nothing even if it was copied. */
export async function deleteSession(db: Kysely<Database>, secret: string): Promise<boolean> {
  const result = await db
    .deleteFrom('dashboard_sessions')
    .where('secret_hash', '=', hashSecret(secret))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The CSRF token of a session: derived from its secret, so nothing more is stored, and unknown
 * to another site (the cookie is HttpOnly; the page learns the token from GET /api/auth/session).
 */
export function csrfTokenFor(secret: string): string {
  return createHash('sha256').update(`csrf:${secret}`).digest('base64url');
}

export function csrfTokenMatches(secret: string, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const expected = Buffer.from(csrfTokenFor(secret));
  const given = Buffer.from(sent);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The value of one cookie in a Cookie header (RFC 6265 pairs); undefined when absent. */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (text === undefined) return undefined;
  for (const pair of text.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    if (pair.slice(0, at).trim() === name) {
      const value = pair.slice(at + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/** The Set-Cookie value: HttpOnly, SameSite=Lax, and Secure when the server is reached over https. */
export function sessionCookie(secret: string, maxAgeSeconds: number, publicUrl: string): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${secret}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

export function clearedSessionCookie(publicUrl: string): string {
  return sessionCookie('', 0, publicUrl);
}
