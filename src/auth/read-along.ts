import type { FastifyRequest } from 'fastify';
import { type Expression, expressionBuilder, sql } from 'kysely';
import type { Mode } from '../db/schema.js';
import type { StatementPart } from '../db/statement-part.js';

/**
 * A one-row read that rides in the statement that authenticates and counts a request
 * (authenticate-counted.ts), so that a read route's request costs one round trip to the database
 * instead of two (a second batched statement costs its round trip, its batch and Node CPU to
 * send it). It runs for every credential good enough to count, under that credential's user and
 * mode (also when the request then gets 403 or 429), and its answer is the route's to use or
 * ignore. The module that owns the data writes the read; this file joins it to the statement.
 */
export interface ReadAlong<T> {
  /** The path parameter the read is keyed on (read before validation: any string may come). */
  param: string;
  /**
   * A query answering at most one row, built on `inputs` alone (it carries no values of its own:
   * the statement is a fixed text): a Kysely select, or `sql` of one.
   */
  read(inputs: ReadAlongInputs): Expression<unknown>;
  /** The query's columns: the row's properties. */
  columns: readonly (keyof T & string)[];
}

/** What a read along is keyed on: references into the authenticating statement's row. */
export interface ReadAlongInputs {
  /** The path parameter's value. */
  key: Expression<string>;
  /** The credential's user. */
  userId: Expression<string>;
  /** The credential's mode (a JWT's is live). */
  mode: Expression<Mode>;
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

// The authenticating statement's `found` rows (aliased `f`) carry the key as `along_key`.
const INPUTS: ReadAlongInputs = { key: sql.ref('f.along_key'), userId: sql.ref('f.user_id'), mode: sql.ref('f.mode') };
const eb = expressionBuilder();

/**
 * The read along's part of the authenticating statement: a lateral join on each counted request's
 * row, its columns named `along.<column>` and `along_hit` true when it found a row. At most one
 * row (`limit 1`): a second would repeat the request's row and shift its user's counts.
 */
export function readAlongPart(along: SomeReadAlong): StatementPart {
  return {
    ctes: [],
    columns: [
      sql`a.along_hit`,
      ...along.columns.map((column) => sql`${sql.ref(`a.${column}`)} as ${sql.id(`along.${column}`)}`),
    ],
    joins: [
      sql`left join lateral (select true as along_hit, s.* from ${eb.parens(along.read(INPUTS))} s limit 1) a on f.counts`,
    ],
  };
}

type AlongRow = Record<string, unknown> & { along_hit?: boolean | null };

/** Takes the read along's row out of a result row (its `along.` columns); undefined: none found. */
export function readAlongRow(along: SomeReadAlong): (row: AlongRow) => Record<string, unknown> | undefined {
  const names = along.columns.map((column) => [column, `along.${column}`] as const);
  return (row) => {
    if (row.along_hit !== true) return undefined;
    const out: Record<string, unknown> = {};
    for (const [column, name] of names) out[column] = row[name];
    return out;
  };
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
