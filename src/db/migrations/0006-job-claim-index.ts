import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // claimJob orders ready jobs by (run_at, id): with id in the index a claim reads one entry
  // instead of sorting every job due at the same instant (a fan-out queues thousands at once).
  await sql`drop index if exists jobs_ready_idx`.execute(db);
  await sql`create index jobs_ready_idx on jobs (queue, run_at, id) where status = 'queued'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists jobs_ready_idx`.execute(db);
  await sql`create index jobs_ready_idx on jobs (queue, run_at) where status = 'queued'`.execute(db);
}
