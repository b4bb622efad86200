import { createLocalUser, findUserById, findUsersByUsername } from '../auth/accounts.js';
import { createApiToken, DEFAULT_TOKEN_LIFETIME_SECONDS } from '../auth/api-tokens.js';
import { isScope, SCOPES, type Scope } from '../auth/scopes.js';
import type { Db } from '../db/database.js';
import { UsageError } from './usage-error.js';

export interface TokenCreateOptions {
  user: string;
  scopes: string;
  test: boolean;
  expiresIn: string | undefined;
  name: string | undefined;
}

export function parseScopes(text: string): Scope[] {
  const scopes = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--scopes must be a comma list of ${SCOPES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
    );
  }
  return scopes as Scope[];
}

export function parseExpiresIn(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TOKEN_LIFETIME_SECONDS;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 60 || seconds > 31_536_000) {
    throw new UsageError('--expires-in must be a whole number of seconds from 60 to 31536000');
  }
  return seconds;
}

/** The checks that need no database, so a usage error answers 2 even while the data is locked. */
export function checkTokenOptions(options: TokenCreateOptions): { scopes: Scope[]; expiresInSeconds: number } {
  const scopes = parseScopes(options.scopes);
  const expiresInSeconds = parseExpiresIn(options.expiresIn);
  if (!/^usr_/.test(options.user) && !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(options.user)) {
    throw new UsageError('--user must be a usr_ id or a username of letters, digits and hyphens (at most 39)');
  }
  return { scopes, expiresInSeconds };
}

/** `redline token create`: a new token for an existing user, or for a new local user by that name. */
export async function tokenCreate(db: Db, options: TokenCreateOptions, now: Date) {
  const { scopes, expiresInSeconds } = checkTokenOptions(options);
  let user = options.user.startsWith('usr_') ? await findUserById(db, options.user) : undefined;
  let created = false;
  if (options.user.startsWith('usr_')) {
    // Well-formed but unknown: a failure (1), like `plan set` for an unknown id, not a usage error.
    if (user === undefined) throw new Error(`no user ${options.user}`);
  } else {
    const matches = await findUsersByUsername(db, options.user);
    if (matches.length > 1) {
      throw new UsageError(
        `Several users are named ${options.user}; pass the usr_ id instead (${matches.map((m) => m.id).join(', ')})`,
      );
    }
    user = matches[0];
    if (user === undefined) {
      user = await createLocalUser(db, options.user);
      created = true;
    }
  }
  const { row, token } = await createApiToken(db, {
    userId: user.id,
    name: options.name ?? 'cli',
    scopes,
    mode: options.test ? 'test' : 'live',
    expiresInSeconds,
    now,
  });
  return { token, row, user, created };
}
