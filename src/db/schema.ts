import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Timestamps are timestamptz(3): PGlite and PostgreSQL then agree to the millisecond. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type Plan = 'free' | 'pro' | 'enterprise';
export type Mode = 'live' | 'test';

export interface UsersTable {
  id: string;
  /** The GitHub user id; null for local users made by `redline token create`. */
  scm_id: ColumnType<number | null, number | null | undefined, number | null>;
  username: string;
  email: string | null;
  avatar_url: string | null;
  plan: ColumnType<Plan, Plan | undefined, Plan>;
  /** The GitHub access token, sealed with ENCRYPTION_KEY (never stored in clear). */
  github_token_sealed: string | null;
  memberships_synced_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface OrganizationsTable {
  id: string;
  scm_id: ColumnType<number | null, number | null | undefined, number | null>;
  login: string;
  name: string | null;
  kind: 'user' | 'organization';
  plan: ColumnType<Plan, Plan | undefined, Plan>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MembershipsTable {
  organization_id: string;
  user_id: string;
  role: 'admin' | 'member';
  created_at: CreatedAt;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  scopes: string[];
  mode: Mode;
  /** SHA-256 of the whole token, hex. */
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface OauthStatesTable {
  /** SHA-256 of the state sent to GitHub, hex: a leaked table cannot complete a sign-in. */
  state_hash: string;
  code_verifier_sealed: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface RequestRateWindowsTable {
  user_id: string;
  window_start: Timestamp;
  count: number;
}

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  teams: TeamsTable;
  api_tokens: ApiTokensTable;
  oauth_states: OauthStatesTable;
  request_rate_windows: RequestRateWindowsTable;
}

export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type TeamRow = Selectable<TeamsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type NewUser = Insertable<UsersTable>;

// Re-exported so modules name one Generated type if they add serial columns later.
export type { Generated };
