import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Timestamps are timestamptz(3): PGlite and PostgreSQL then agree to the millisecond. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Spec 8.1 and 8.2; the migrations' check constraints hold the same values. */
export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
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
  /** Started by the dashboard: the callback answers with a session cookie and a redirect. */
  for_dashboard: Generated<boolean>;
}

/** A browser session of the dashboard; the cookie holds the secret, this row its SHA-256. */
export interface DashboardSessionsTable {
  id: string;
  secret_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A one-time sign-in link printed by `redline dashboard-link`; only the code's hash is kept. */
export interface DashboardSignInLinksTable {
  code_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface RequestRateWindowsTable {
  user_id: string;
  window_start: Timestamp;
  count: number;
}

/** Unauthenticated sign-in requests per client address (IPv6 by /64) and fixed window. */
export interface SignInRateWindowsTable {
  window_start: Timestamp;
  address: string;
  count: number;
}

export type ReviewStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
/**
 * The engine's FindingType and Severity (engine/finding-types.ts, engine/severity.ts), written out
 * because db/ does not import the engine; test/architecture/vocabulary-copies.test.ts keeps them
 * equal, and the review_comments check constraints hold the same values.
 */
export type FindingType = 'security' | 'performance' | 'style' | 'bug' | 'suggestion';
export type Severity = 'critical' | 'important' | 'warning' | 'info';
type Json<T> = ColumnType<T, string, string>;

export interface ReviewOptions {
  auto_review: boolean;
  inline_comments: boolean;
  check_security: boolean;
  check_performance: boolean;
}

/**
 * Spec 2.3, written once in the transaction that stores the comments (so lists need no join and
 * the counts cannot drift from the comments).
 */
export interface ReviewStats {
  files_changed: number;
  lines_added: number;
  lines_deleted: number;
  comments_count: number;
  issues: { critical: number; important: number; warning: number; suggestion: number };
}

/** Spec 2.5, less the issue counters (derived from the comments). */
export interface Analysis {
  files_analyzed: number;
  lines_analyzed: number;
  complexity_avg: number;
  test_coverage: number;
  processing_time_ms: number;
  tokens_used: number;
}

export interface ReviewsTable {
  id: string;
  user_id: string;
  organization_id: string;
  team_id: string | null;
  mode: Mode;
  status: ReviewStatus;
  pr_url: string;
  pr_number: number;
  pr_title: string;
  repository: string;
  repository_id: string;
  branch: string;
  author: string;
  head_sha: string | null;
  options: Json<ReviewOptions>;
  attempt: ColumnType<number, number | undefined, number>;
  score: number | null;
  summary: string | null;
  stats: Json<ReviewStats> | null;
  analysis: Json<Analysis> | null;
  error_code: string | null;
  error_message: string | null;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  deadline_at: Timestamp | null;
  completed_at: Timestamp | null;
  updated_at: UpdatedAt;
  /** `app`: made by the GitHub App from a pull-request event (published back to it). */
  source: ColumnType<'api' | 'app', 'api' | 'app' | undefined, 'api' | 'app'>;
  /** The `Redline` check run on the head commit, when one was started for this review. */
  check_run_id: number | null;
  /** The `.github/redline.yml` in force (app reviews), as parsed with its defaults. */
  repository_config: Json<Record<string, unknown>> | null;
  /** The pull request's `updated_at` in the event that started an app review. */
  pr_updated_at: Timestamp | null;
  github_review_id: number | null;
  /** When the review reached GitHub (review and check run); publishing happens at most once. */
  published_at: Timestamp | null;
}

export interface GithubDeliveriesTable {
  id: string;
  event: string;
  received_at: CreatedAt;
}

export interface ReviewCommentsTable {
  id: string;
  review_id: string;
  type: FindingType;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  suggestion: string | null;
  code_snippet: string | null;
  rule_id: string | null;
  fingerprint: string | null;
  cwe: string | null;
  cvss_score: number | null;
  created_at: CreatedAt;
}

export interface EventsTable {
  id: string;
  seq: Generated<number>;
  type: string;
  mode: Mode;
  user_id: string | null;
  organization_id: string | null;
  review_id: string | null;
  data: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  dispatched_at: Timestamp | null;
}

export interface JobsTable {
  id: string;
  queue: string;
  payload: Json<Record<string, unknown>>;
  status: 'queued' | 'running' | 'failed';
  run_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: number;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface IdempotencyKeysTable {
  user_id: string;
  mode: Mode;
  key: string;
  request_hash: string;
  status: 'in_flight' | 'done';
  response_status: number | null;
  response_body: Json<unknown> | null;
  created_at: CreatedAt;
  locked_until: Timestamp | null;
  expires_at: Timestamp;
}

export interface WebhooksTable {
  id: string;
  user_id: string;
  mode: Mode;
  url: string;
  events: string[];
  secret_sealed: string | null;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  failure_count: ColumnType<number, number | undefined, number>;
  disabled_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact bytes sent on every attempt (and signed). */
  body: string;
  status: DeliveryStatus;
  /** Attempts made so far; a job for attempt n runs only while this is n - 1 (fencing). */
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  redelivery_of: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  /** At most 64 KiB of what the subscriber answered. */
  response_body: string | null;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  teams: TeamsTable;
  api_tokens: ApiTokensTable;
  oauth_states: OauthStatesTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_sign_in_links: DashboardSignInLinksTable;
  request_rate_windows: RequestRateWindowsTable;
  sign_in_rate_windows: SignInRateWindowsTable;
  reviews: ReviewsTable;
  review_comments: ReviewCommentsTable;
  events: EventsTable;
  jobs: JobsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhooks: WebhooksTable;
  github_deliveries: GithubDeliveriesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type ReviewRow = Selectable<ReviewsTable>;
export type ReviewCommentRow = Selectable<ReviewCommentsTable>;
export type JobRow = Selectable<JobsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type TeamRow = Selectable<TeamsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type NewUser = Insertable<UsersTable>;
