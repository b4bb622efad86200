import type { FastifyRequest } from 'fastify';

/**
 * A one-row read that rides in the statement that authenticates and counts a request
 * (authenticate-counted.ts), so that a read route's request costs one round trip to the database
 * instead of two: on GET /v1/reviews/:id a second batched statement cost its round trip and
 * 5-15 us of Node CPU (bench/README, 2026-11-25). It runs for every credential good enough to
 * count, under that credential's user and mode (also when the request then gets 403 or 429), and
 * its answer is the route's to use or ignore.
 */
export interface ReadAlong<T> {
  /** The path parameter the read is keyed on (read before validation: any string may come). */
  param: string;
  /**
   * A subquery answering at most one row, from `f.along_key` (the parameter's value) and the
   * credential's `f.user_id` and `f.mode` (text).
   */
  sql: string;
  /** The subquery's columns: the row's properties. */
  columns: readonly (keyof T & string)[];
}

/** Any read along, whatever its row: its columns are then just strings. */
export type SomeReadAlong = ReadAlong<never>;

/** What a read along found for a request: `row` undefined when it found nothing. */
export interface ReadAlongResult {
  along: SomeReadAlong;
  key: string;
  row: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    readAlong: ReadAlongResult | undefined;
  }
}

/** The key a read along takes for this request, or undefined when it cannot run for it. */
export function readAlongKey(along: SomeReadAlong, request: FastifyRequest): string | undefined {
  const value = (request.params as Record<string, unknown> | undefined)?.[along.param];
  // PostgreSQL's text cannot hold a NUL, and the error would fail every request of the batch.
  return typeof value === 'string' && !value.includes('\u0000') ? value : undefined;
}

/**
 * The read along's answer for `key` on this request: `{ row }` (undefined when nothing was
 * found), or undefined when it did not run for this key (no counting guard, another read, a
 * key it could not take); the caller then reads for itself.
 */
export function readAlongFor<T>(
  request: FastifyRequest,
  along: ReadAlong<T>,
  key: string,
): { row: T | undefined } | undefined {
  const result = request.readAlong;
  if (result === undefined || result.along !== along || result.key !== key) return undefined;
  return { row: result.row as T | undefined };
}
