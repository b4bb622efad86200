import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table reviews (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      organization_id text not null references organizations (id) on delete cascade,
      team_id text references teams (id) on delete set null,
      mode text not null check (mode in ('live', 'test')),
      status text not null check (status in ('pending', 'in_progress', 'completed', 'failed', 'cancelled')),
      pr_url text not null,
      pr_number integer not null,
      pr_title text not null,
      repository text not null,
      -- GitHub's repository id (live), or 'test:<owner>/<name>' (test mode): the id of event payloads.
      repository_id text not null,
      branch text not null,
      author text not null,
      head_sha text,
      options jsonb not null,
      -- Bumped by start and retry: a job carries the attempt it was queued for, and results of an
      -- older attempt (or of a cancelled review) are dropped instead of published.
      attempt integer not null default 0,
      score integer check (score between 0 and 100),
      summary text,
      stats jsonb,
      analysis jsonb,
      error_code text,
      error_message text,
      created_at timestamptz(3) not null default now(),
      started_at timestamptz(3),
      deadline_at timestamptz(3),
      completed_at timestamptz(3),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index reviews_user_idx on reviews (user_id, mode, created_at desc, id desc)`.execute(db);
  await sql`create index reviews_org_idx on reviews (organization_id, mode, created_at desc, id desc)`.execute(db);
  await sql`create index reviews_quota_idx on reviews (organization_id, created_at) where mode = 'live'`.execute(db);
  await sql`create index reviews_deadline_idx on reviews (deadline_at) where status = 'in_progress'`.execute(db);

  await sql`
    create table review_comments (
      id text primary key,
      review_id text not null references reviews (id) on delete cascade,
      type text not null check (type in ('security', 'performance', 'style', 'bug', 'suggestion')),
      severity text not null check (severity in ('critical', 'important', 'warning', 'info')),
      message text not null,
      file text not null,
      line integer not null,
      suggestion text,
      code_snippet text,
      rule_id text,
      fingerprint text,
      cwe text,
      cvss_score real,
      created_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index review_comments_review_idx on review_comments (review_id, file, line, id)`.execute(db);

  // The transactional outbox: each state change writes its event here in the same transaction;
  // the webhook delivery worker (step 4) reads it.
  await sql`
    create table events (
      id text primary key,
      seq bigserial not null unique,
      type text not null,
      mode text not null check (mode in ('live', 'test')),
      user_id text references users (id) on delete set null,
      organization_id text references organizations (id) on delete set null,
      review_id text references reviews (id) on delete set null,
      data jsonb not null,
      created_at timestamptz(3) not null default now(),
      dispatched_at timestamptz(3)
    )`.execute(db);
  await sql`create index events_undispatched_idx on events (seq) where dispatched_at is null`.execute(db);

  await sql`
    create table jobs (
      id text primary key,
      queue text not null,
      payload jsonb not null,
      status text not null check (status in ('queued', 'running', 'failed')),
      run_at timestamptz(3) not null,
      attempts integer not null default 0,
      max_attempts integer not null,
      locked_by text,
      locked_until timestamptz(3),
      last_error text,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index jobs_ready_idx on jobs (queue, run_at) where status = 'queued'`.execute(db);
  await sql`create index jobs_lease_idx on jobs (queue, locked_until) where status = 'running'`.execute(db);

  await sql`
    create table idempotency_keys (
      user_id text not null references users (id) on delete cascade,
      mode text not null check (mode in ('live', 'test')),
      key text not null,
      request_hash text not null,
      status text not null check (status in ('in_flight', 'done')),
      response_status integer,
      response_body jsonb,
      created_at timestamptz(3) not null default now(),
      locked_until timestamptz(3),
      expires_at timestamptz(3) not null,
      primary key (user_id, mode, key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['idempotency_keys', 'jobs', 'events', 'review_comments', 'reviews']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
