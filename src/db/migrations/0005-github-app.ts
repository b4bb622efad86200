import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Decisions §7: a redelivered X-GitHub-Delivery has no second effect. The row and the job that
  // handles the event are written in one transaction.
  await sql`
    create table github_deliveries (
      id text primary key,
      event text not null,
      received_at timestamptz(3) not null default now()
    )`.execute(db);

  // Reviews made by the GitHub App, and the publishing of any review to its pull request.
  await sql`alter table reviews add column source text not null default 'api' check (source in ('api', 'app'))`.execute(
    db,
  );
  await sql`alter table reviews add column check_run_id bigint`.execute(db);
  // The repository configuration (.github/redline.yml) the review runs and is published under.
  await sql`alter table reviews add column repository_config jsonb`.execute(db);
  // The pull request's updated_at in the event: a late event of an older push must not replace
  // the review of a newer one (GitHub does not promise delivery order).
  await sql`alter table reviews add column pr_updated_at timestamptz(3)`.execute(db);
  await sql`alter table reviews add column github_review_id bigint`.execute(db);
  await sql`alter table reviews add column published_at timestamptz(3)`.execute(db);
  await sql`create index reviews_pull_request_idx on reviews (pr_url, created_at) where source = 'app'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reviews_pull_request_idx`.execute(db);
  for (const column of [
    'published_at',
    'github_review_id',
    'pr_updated_at',
    'repository_config',
    'check_run_id',
    'source',
  ]) {
    await sql`alter table reviews drop column if exists ${sql.ref(column)}`.execute(db);
  }
  await sql`drop table if exists github_deliveries`.execute(db);
}
