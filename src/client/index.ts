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
  Pagination,
  Review,
  ReviewComment,
  ReviewStatistics,
  ReviewStatus,
  ReviewStatusResult,
  Severity,
  UpdateWebhookInput,
  Usage,
  UsageQuery,
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
  type WebhookDeliveryPage,
  type WebhookPage,
} from './redline-client.js';
export { backoffMs, hintedDelayMs } from './retry-delay.js';
