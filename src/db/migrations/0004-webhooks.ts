import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Decisions §1, §17: a webhook belongs to the user who created it, in the mode of the credential
  // that created it (test subscriptions get test events only).
  await sql`
    create table webhooks (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      mode text not null check (mode in ('live', 'test')),
      url text not null,
      events text[] not null,
      -- The signing secret, sealed with ENCRYPTION_KEY: we must read it back to sign.
      secret_sealed text,
      enabled boolean not null default true,
      -- Failed attempts in a row; reset by a success or by re-enabling.
      failure_count integer not null default 0,
      disabled_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index webhooks_owner_idx on webhooks (user_id, mode, created_at desc, id desc)`.execute(db);

  // One row per (event, webhook): the unique key makes the fan-out exactly-once however many
  // dispatchers run. The body is stored as sent, so every retry signs and sends the same bytes.
  await sql`
    create table webhook_deliveries (
      id text primary key,
      webhook_id text not null references webhooks (id) on delete cascade,
      event_id text not null,
      event_type text not null,
      body text not null,
      status text not null check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz(3),
      redelivery_of text,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create unique index webhook_deliveries_fanout_idx on webhook_deliveries (event_id, webhook_id) where redelivery_of is null`.execute(
    db,
  );
  await sql`create index webhook_deliveries_log_idx on webhook_deliveries (webhook_id, created_at desc, id desc)`.execute(
    db,
  );

  await sql`
    create table webhook_attempts (
      delivery_id text not null references webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      status_code integer,
      latency_ms integer not null,
      error text,
      response_body text,
      created_at timestamptz(3) not null default now(),
      primary key (delivery_id, attempt)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
