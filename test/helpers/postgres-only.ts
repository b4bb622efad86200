import { describe, it } from 'vitest';

/**
 * Registers a test only in the PostgreSQL run (DATABASE_URL set): it needs several connections
 * or processes, which embedded PGlite (one session) cannot have. The embedded run does not list
 * it at all rather than report it skipped; CI runs both.
 */
export function itOnPostgres(name: string, fn: () => Promise<void>, timeout?: number): void {
  if (process.env.DATABASE_URL) it(name, fn, timeout);
}

/** A whole suite for the PostgreSQL run only (see itOnPostgres). */
export function describeOnPostgres(name: string, fn: () => void): void {
  if (process.env.DATABASE_URL) describe(name, fn);
}
