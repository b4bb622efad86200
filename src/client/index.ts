// The public face of the client: what users of `redline/client` may rely on.
export type {
  ApiToken,
  CreatedApiToken,
  CreatedReview,
  CreateReviewInput,
  CreateTokenInput,
  CreateWebhookInput,
  DashboardSession,
  ListReviewsQuery,
  ListTeamsQuery,
  Organization,
  OrganizationUsage,
  Pagination,
  QuotaWindow,
  RateLimit,
  Review,
  ReviewComment,
  ReviewStatistics,
  ReviewStatus,
  ReviewStatusResult,
  Severity,
  Team,
  UpdateWebhookInput,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
} from './api-types.js';
export { REVIEW_STATUSES, SEVERITIES } from './api-types.js';
export { type ClientErrorCode, RedlineApiError } from './redline-api-error.js';
export {
  API_VERSION,
  type CallOptions,
  type CreateReviewOptions,
  type CreateReviewResult,
  type PageQuery,
  RedlineClient,
  type RedlineClientOptions,
  type ReviewPage,
  type TeamPage,
  type WebhookDeliveryPage,
  type WebhookPage,
} from './redline-client.js';
export { backoffMs, hintedDelayMs } from './retry-delay.js';
