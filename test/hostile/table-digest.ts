import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/schema.js';

/**
 * One digest of every row of every table but `exclude`, in one statement: two equal digests mean
 * nothing was inserted, changed or deleted in between. The table list is read from the catalog,
 * so a table a later migration adds is watched too.
 */
export async function tableDigest(db: Kysely<Database>, exclude: readonly string[]): Promise<string> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const watched = tables.map((t) => t.name).filter((name) => !exclude.includes(name));
  const parts = watched.map(
    (name) =>
      sql`select ${name}::text as name, count(*)::text as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.table(name)} t`,
  );
  const { rows } = await sql<{
    name: string;
    rows: string;
    digest: string;
  }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return rows.map((r) => `${r.name}:${r.rows}:${r.digest}`).join(' ');
}
