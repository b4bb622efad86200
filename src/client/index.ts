// The public face of the client: what users of `redline/client` may rely on.
export type {
  ApiToken,
  CreatedApiToken,
  CreatedReview,
  CreateReviewInput,
  CreateTokenInput,
  DashboardSession,
  ListReviewsQuery,
  Pagination,
  Review,
  ReviewComment,
  ReviewStatistics,
  ReviewStatus,
  ReviewStatusResult,
  Severity,
} from './api-types.js';
export { REVIEW_STATUSES, SEVERITIES } from './api-types.js';
export { type ClientErrorCode, RedlineApiError } from './redline-api-error.js';
export {
  API_VERSION,
  type CallOptions,
  type CreateReviewOptions,
  type CreateReviewResult,
  RedlineClient,
  type RedlineClientOptions,
  type ReviewPage,
} from './redline-client.js';
export { backoffMs, hintedDelayMs } from './retry-delay.js';
