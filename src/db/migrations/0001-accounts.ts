import { type Kysely, sql } from 'kysely';

const plan = sql`text not null default 'free' check (plan in ('free', 'pro', 'enterprise'))`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id text primary key,
      scm_id bigint unique,
      username text not null,
      email text,
      avatar_url text,
      plan ${plan},
      github_token_sealed text,
      memberships_synced_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  // GitHub logins can be renamed and reused, so only local users (no GitHub id) need a unique name.
  await sql`create unique index users_local_username_key on users (lower(username)) where scm_id is null`.execute(db);
  await sql`create index users_username_idx on users (lower(username))`.execute(db);

  await sql`
    create table organizations (
      id text primary key,
      scm_id bigint unique,
      login text not null,
      name text,
      kind text not null check (kind in ('user', 'organization')),
      plan ${plan},
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create unique index organizations_local_login_key on organizations (lower(login)) where scm_id is null`.execute(
    db,
  );
  await sql`create index organizations_login_idx on organizations (lower(login))`.execute(db);

  await sql`
    create table memberships (
      organization_id text not null references organizations (id) on delete cascade,
      user_id text not null references users (id) on delete cascade,
      role text not null check (role in ('admin', 'member')),
      created_at timestamptz(3) not null default now(),
      primary key (organization_id, user_id)
    )`.execute(db);
  await sql`create index memberships_user_idx on memberships (user_id)`.execute(db);

  await sql`
    create table teams (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      name text not null,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create unique index teams_org_name_key on teams (organization_id, lower(name))`.execute(db);

  await sql`
    create table api_tokens (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      name text not null,
      scopes text[] not null,
      mode text not null check (mode in ('live', 'test')),
      token_hash text not null unique,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null,
      last_used_at timestamptz(3),
      revoked_at timestamptz(3)
    )`.execute(db);
  await sql`create index api_tokens_user_idx on api_tokens (user_id)`.execute(db);

  await sql`
    create table oauth_states (
      state_hash text primary key,
      code_verifier_sealed text not null,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['oauth_states', 'api_tokens', 'teams', 'memberships', 'organizations', 'users']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
