import type { BatchOptions } from '../common/batch-calls.js';

/**
 * SQLSTATEs of a server that is away rather than of a query that is wrong: class 08 (connection
 * exception), 57P01-57P03 (shut down by an administrator, crashed, cannot connect now: starting
 * up or shutting down) and 53300 (too many connections).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Node's socket errors while reaching the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres reports a dropped or refused connection with plain messages and no code; these
 * are its words (pg's client.js, its query_timeout, and pg-pool's connect timeout).
 */
const PG_MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Client was closed and is not queryable/,
  /^Query read timeout$/,
];

/**
 * Whether `error` says the database cannot be reached at the moment (stopped, restarting, the
 * network or the connection limit), as opposed to a fault of ours. Callers answer 503 and retry
 * later instead of 500. Follows `cause` and AggregateError's `errors` (Node reports a connect
 * that failed on every address as an AggregateError).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error instanceof StatementWaitTimeout) return true;
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (UNAVAILABLE_STATES.has(code) || NETWORK_CODES.has(code)) return true;
  }
  if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}

/**
 * A call of a shared statement (batchCalls) that waited for its batch to start as long as a
 * statement of its own may wait for a connection (the pool's connect time-out): the database is
 * as away, or as busy, as when the pool has no connection to give, and the caller answers 503.
 */
export class StatementWaitTimeout extends Error {
  constructor(waitedMs: number) {
    super(`timeout exceeded waiting ${waitedMs} ms for a shared statement to start`);
    this.name = 'StatementWaitTimeout';
  }
}

/** batchCalls' options for a shared statement: calls wait for their batch at most `waitMs` (none: no limit). */
export function statementWaitLimit(waitMs: number | undefined): Pick<BatchOptions, 'maxWaitMs' | 'waitTimeout'> {
  return waitMs === undefined ? {} : { maxWaitMs: waitMs, waitTimeout: () => new StatementWaitTimeout(waitMs) };
}
