import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per client address and fixed window; every instance increments the same row. The
  // window leads the key so old windows are cleared by a range of the primary key.
  await sql`
    create table sign_in_rate_windows (
      window_start timestamptz(3) not null,
      address text not null,
      count integer not null,
      primary key (window_start, address)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sign_in_rate_windows`.execute(db);
}
