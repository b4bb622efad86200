import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The dashboard's browser sessions: the cookie carries a secret, only its hash is kept, so a
  // leaked table opens no session. Signing out deletes the row.
  await sql`
    create table dashboard_sessions (
      id text primary key,
      secret_hash text not null unique,
      user_id text not null references users(id) on delete cascade,
      created_at timestamptz(3) not null,
      expires_at timestamptz(3) not null
    )`.execute(db);
  await sql`create index dashboard_sessions_user on dashboard_sessions (user_id)`.execute(db);
  // One-time sign-in links (`redline dashboard-link`): hashed, single use, short-lived.
  await sql`
    create table dashboard_sign_in_links (
      code_hash text primary key,
      user_id text not null references users(id) on delete cascade,
      created_at timestamptz(3) not null,
      expires_at timestamptz(3) not null
    )`.execute(db);
  // GitHub sign-in started by the dashboard comes back to it with a session instead of a JWT.
  await sql`alter table oauth_states add column for_dashboard boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_states drop column if exists for_dashboard`.execute(db);
  await sql`drop table if exists dashboard_sign_in_links`.execute(db);
  await sql`drop table if exists dashboard_sessions`.execute(db);
}
