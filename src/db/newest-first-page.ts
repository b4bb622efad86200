import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { validationError } from '../common/errors.js';
import type { Database } from './schema.js';

/** Tables listed newest first with an `after` cursor (keyset on created_at, id). */
type PagedTable = 'webhooks' | 'webhook_deliveries';

/**
 * One page of `table`'s rows matching `scope` (column = value), newest first, ties broken by id;
 * `after` is the id of the last row of the previous page and must be a row of the same list
 * (else 400 on `after` with `notInList`). One row more than the page is read to tell `hasMore`.
 */
export async function newestFirstPage<T extends PagedTable>(
  db: Kysely<Database>,
  table: T,
  scope: Partial<Record<keyof Database[T] & string, string>>,
  options: { after?: string | undefined; limit: number; notInList: string },
): Promise<{ rows: Selectable<Database[T]>[]; hasMore: boolean }> {
  // The table is a parameter: the builder is used untyped here and the rows typed on the way out.
  const untyped = db as unknown as Kysely<{ paged: { id: string; created_at: Date } }>;
  const scoped = () => {
    let query = untyped.selectFrom(table as unknown as 'paged').selectAll();
    for (const [column, value] of Object.entries(scope)) query = query.where(column as 'id', '=', value as string);
    return query;
  };
  let query = scoped();
  if (options.after !== undefined) {
    const cursor = await scoped().where('id', '=', options.after).executeTakeFirst();
    if (cursor === undefined) throw validationError('after', options.notInList);
    // Newest first: the rows that sort after the cursor in (created_at, id) descending.
    query = query.where(sql<boolean>`(created_at, id) < (${cursor.created_at}, ${cursor.id})`);
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1)
    .execute();
  return { rows: rows.slice(0, options.limit) as Selectable<Database[T]>[], hasMore: rows.length > options.limit };
}
