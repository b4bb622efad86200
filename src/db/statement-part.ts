import type { RawBuilder } from 'kysely';

/**
 * One module's share of a statement that several compose (the authenticating statement of
 * auth/authenticate-counted.ts): common table expressions (`name as (...)`) to add after the
 * statement's own, columns to add to its answer, and joins onto its rows. The fragments are
 * Kysely `sql` carrying no values: the composed statement is one fixed text, prepared once per
 * connection, its only parameter the batch's inputs.
 */
export interface StatementPart {
  ctes: readonly RawBuilder<unknown>[];
  columns: readonly RawBuilder<unknown>[];
  joins: readonly RawBuilder<unknown>[];
}
