import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per user and fixed one-hour window; every instance increments the same row.
  await sql`
    create table request_rate_windows (
      user_id text not null references users (id) on delete cascade,
      window_start timestamptz(3) not null,
      count integer not null,
      primary key (user_id, window_start)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists request_rate_windows`.execute(db);
}
