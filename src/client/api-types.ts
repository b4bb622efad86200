import { z } from 'zod';

/**
 * The shapes of spec 2.1-2.5 as this client reads them. The server's own schemas live with the
 * server (the action must not bundle it), so these are kept loose: unknown fields pass through,
 * and only what a caller relies on is checked, so a newer server within v1 does not break us.
 */
export const REVIEW_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export const SEVERITIES = ['critical', 'important', 'warning', 'info'] as const;

export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export type Severity = (typeof SEVERITIES)[number];

const issueCounts = z.looseObject({
  critical: z.number(),
  important: z.number(),
  warning: z.number(),
  suggestion: z.number(),
});

export const reviewSchema = z.looseObject({
  id: z.string(),
  status: z.enum(REVIEW_STATUSES),
  score: z.number().nullable(),
  summary: z.string().nullable(),
  pull_request: z.looseObject({
    url: z.string(),
    number: z.number(),
    title: z.string().optional(),
    repository: z.string().optional(),
    branch: z.string().optional(),
    author: z.string().optional(),
  }),
  stats: z
    .looseObject({
      files_changed: z.number(),
      lines_added: z.number(),
      lines_deleted: z.number(),
      comments_count: z.number(),
      issues: issueCounts,
    })
    .nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable().optional(),
  organization_id: z.string().optional(),
  team_id: z.string().nullable().optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).nullable().optional(),
  /** Whether the GitHub App posted the review to the pull request (decisions §20); older servers leave it out. */
  publication: z.enum(['pending', 'published', 'unpublished']).optional(),
});

export const createdReviewSchema = z.looseObject({
  id: z.string(),
  status: z.enum(REVIEW_STATUSES),
  pull_request: z.looseObject({ url: z.string(), number: z.number() }),
  created_at: z.string(),
});

export const reviewStatusSchema = z.looseObject({ id: z.string(), status: z.enum(REVIEW_STATUSES) });

export const commentSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  severity: z.enum(SEVERITIES),
  message: z.string(),
  file: z.string(),
  line: z.number(),
  /** The rule that found it and the stable fingerprint (decisions §20); older servers leave them out. */
  rule_id: z.string().optional(),
  fingerprint: z.string().optional(),
  suggestion: z.string().optional(),
  code_snippet: z.string().optional(),
});

export const statisticsSchema = z.looseObject({
  files_analyzed: z.number(),
  lines_analyzed: z.number(),
  complexity_avg: z.number(),
  test_coverage: z.number(),
  issues_by_type: z.record(z.string(), z.number()),
  issues_by_severity: z.record(z.string(), z.number()),
  processing_time_ms: z.number(),
  tokens_used: z.number(),
});

export const paginationSchema = z.looseObject({
  has_more: z.boolean(),
  next_cursor: z.string().nullable().optional(),
  prev_cursor: z.string().nullable().optional(),
});

export const apiTokenSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  mode: z.enum(['live', 'test']),
  created_at: z.string(),
  expires_at: z.string(),
  last_used: z.string().nullable().optional(),
});

export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() });

/** The dashboard's session (GET /api/auth/session). */
export const sessionSchema = z.looseObject({
  user: z.looseObject({ id: z.string(), username: z.string(), plan: z.string() }),
  csrf_token: z.string(),
  expires_at: z.string(),
});

export type DashboardSession = z.infer<typeof sessionSchema>;
export type ApiToken = z.infer<typeof apiTokenSchema>;
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export interface CreateTokenInput {
  name: string;
  scopes: string[];
  mode?: 'live' | 'test';
  /** Seconds, 60 to 31536000. */
  expires_in?: number;
}

/** Decisions §5: a webhook subscription; the secret itself is never returned. */
export const webhookSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  has_secret: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  disabled_at: z.string().nullable(),
  failure_count: z.number(),
});

export const webhookAttemptSchema = z.looseObject({
  attempt: z.number(),
  status_code: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
  response_body: z.string().nullable(),
  created_at: z.string(),
});

/** Decisions §5 and §18: one delivery of an event to a webhook, with every attempt. */
export const webhookDeliverySchema = z.looseObject({
  id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  next_attempt_at: z.string().nullable(),
  redelivery_of: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  attempts: z.array(webhookAttemptSchema),
});

export type Webhook = z.infer<typeof webhookSchema>;
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** Spec 4.3: the body of POST /webhooks. */
export interface CreateWebhookInput {
  url: string;
  events: string[];
  /** 16 to 256 characters; deliveries are signed with it. */
  secret?: string;
}

/** Decisions §5 and §17: PATCH /webhooks/:id; `secret: null` removes it, `enabled: true` re-enables. */
export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  secret?: string | null;
  enabled?: boolean;
}

const usageCount = z.number();

/** GET /usage: reviews per UTC day, the completed reviews' scores in ten buckets, and the totals. */
export const usageSchema = z.looseObject({
  from: z.string(),
  until: z.string(),
  days: z.array(z.looseObject({ date: z.string(), created: usageCount, completed: usageCount, failed: usageCount })),
  scores: z.array(z.looseObject({ min: z.number(), max: z.number(), count: usageCount })),
  total: z.looseObject({
    created: usageCount,
    completed: usageCount,
    failed: usageCount,
    average_score: z.number().nullable(),
  }),
});

export type Usage = z.infer<typeof usageSchema>;

/** The query of GET /usage: `days` 1-90 (default 30) and the review list's filters. */
export interface UsageQuery {
  days?: number;
  organization_id?: string;
  team_id?: string;
  repository?: string;
}

/** Decisions §5: the event names a subscription accepts (spec 6.3); a copy of the server's, which a test compares. */
export const WEBHOOK_EVENTS = [
  'review.created',
  'review.started',
  'review.in_progress',
  'review.completed',
  'review.failed',
  'review.cancelled',
  'security.alert',
  'pr.approved',
  'pr.changes_requested',
  'config.updated',
] as const;

/** A copy of the server's plans (the client imports nothing of the server; a test compares them). */
export const PLANS = ['free', 'pro', 'enterprise'] as const;

/** Decisions §1: an organization the user belongs to, and (beyond the contract) the user's role in it. */
export const organizationSchema = z.looseObject({
  id: z.string(),
  login: z.string(),
  name: z.string().nullable(),
  plan: z.enum(PLANS),
  created_at: z.string(),
  role: z.enum(['admin', 'member']),
});

/** One rolling window of the review quota; `limit` and `remaining` are null when unlimited. */
const quotaWindowSchema = z.looseObject({
  limit: z.number().nullable(),
  used: z.number(),
  remaining: z.number().nullable(),
});

/** GET /organizations/:id/usage: the plan and the live reviews of the rolling hour and day. */
export const organizationUsageSchema = z.looseObject({
  organization_id: z.string(),
  plan: z.enum(PLANS),
  review_quota: z.looseObject({ hour: quotaWindowSchema, day: quotaWindowSchema }),
});

/** GET /rate-limit: the calling user's request rate this hour; `reset` in epoch seconds. */
export const rateLimitSchema = z.looseObject({
  plan: z.enum(PLANS),
  limit: z.number(),
  used: z.number(),
  remaining: z.number(),
  reset: z.number(),
});

/** Decisions §1: a team of an organization. */
export const teamSchema = z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  created_at: z.string(),
});

export type Organization = z.infer<typeof organizationSchema>;
export type OrganizationUsage = z.infer<typeof organizationUsageSchema>;
export type QuotaWindow = z.infer<typeof quotaWindowSchema>;
export type RateLimit = z.infer<typeof rateLimitSchema>;
export type Team = z.infer<typeof teamSchema>;

/** The query of GET /teams: teams of your organizations, oldest first. */
export interface ListTeamsQuery {
  organization_id?: string;
  limit?: number;
  after?: string;
}

export type Review = z.infer<typeof reviewSchema>;
export type CreatedReview = z.infer<typeof createdReviewSchema>;
export type ReviewStatusResult = z.infer<typeof reviewStatusSchema>;
export type ReviewComment = z.infer<typeof commentSchema>;
export type ReviewStatistics = z.infer<typeof statisticsSchema>;
export type Pagination = z.infer<typeof paginationSchema>;

/** Spec 4.2: the body of POST /reviews. */
export interface CreateReviewInput {
  pull_request_url: string;
  auto_review?: boolean;
  inline_comments?: boolean;
  check_security?: boolean;
  check_performance?: boolean;
  team_id?: string;
}

/** Spec 4.2 and decisions §4: the query of GET /reviews. */
export interface ListReviewsQuery {
  limit?: number;
  after?: string;
  before?: string;
  status?: ReviewStatus;
  team_id?: string;
  repository?: string;
  created_after?: string;
  created_before?: string;
  sort?: string;
}
