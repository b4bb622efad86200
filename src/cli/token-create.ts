import { createLocalUser, findUserById, findUsersByUsername } from '../auth/accounts.js';
import { createApiToken, DEFAULT_TOKEN_LIFETIME_SECONDS } from '../auth/api-tokens.js';
import { isScope, SCOPES, type Scope } from '../auth/scopes.js';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
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
  checkCliUser(options.user);
  return { scopes, expiresInSeconds };
}

export function checkCliUser(user: string): void {
  if (!/^usr_/.test(user) && !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(user)) {
    throw new UsageError('--user must be a usr_ id or a username of letters, digits and hyphens (at most 39)');
  }
}

/** The user `--user` names: a usr_ id that must exist, or a username (a new local user if none has it). */
export async function findOrCreateCliUser(db: Db, name: string): Promise<{ user: UserRow; created: boolean }> {
  if (name.startsWith('usr_')) {
    const user = await findUserById(db, name);
    // Well-formed but unknown: a failure (1), like `plan set` for an unknown id, not a usage error.
    if (user === undefined) throw new Error(`no user ${name}`);
    return { user, created: false };
  }
  const matches = await findUsersByUsername(db, name);
  if (matches.length > 1) {
    throw new UsageError(
      `Several users are named ${name}; pass the usr_ id instead (${matches.map((m) => m.id).join(', ')})`,
    );
  }
  const found = matches[0];
  if (found !== undefined) return { user: found, created: false };
  return { user: await createLocalUser(db, name), created: true };
}

/** `redline token create`: a new token for an existing user, or for a new local user by that name. */
export async function tokenCreate(db: Db, options: TokenCreateOptions, now: Date) {
  const { scopes, expiresInSeconds } = checkTokenOptions(options);
  const { user, created } = await findOrCreateCliUser(db, options.user);
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
