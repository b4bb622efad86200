import { z } from 'zod';
import {
  type ApiToken,
  apiTokenSchema,
  type CreatedApiToken,
  type CreatedReview,
  type CreateReviewInput,
  type CreateTokenInput,
  type CreateWebhookInput,
  commentSchema,
  createdApiTokenSchema,
  createdReviewSchema,
  type DashboardSession,
  type ListReviewsQuery,
  type ListTeamsQuery,
  type Organization,
  type OrganizationUsage,
  organizationSchema,
  organizationUsageSchema,
  type Pagination,
  paginationSchema,
  type RateLimit,
  type Review,
  type ReviewComment,
  type ReviewStatistics,
  type ReviewStatusResult,
  rateLimitSchema,
  reviewSchema,
  reviewStatusSchema,
  sessionSchema,
  statisticsSchema,
  type Team,
  teamSchema,
  type UpdateWebhookInput,
  type Usage,
  type UsageQuery,
  usageSchema,
  type Webhook,
  type WebhookDelivery,
  webhookDeliverySchema,
  webhookSchema,
} from './api-types.js';
import { RedlineApiError } from './redline-api-error.js';
import { backoffMs, hintedDelayMs } from './retry-delay.js';

/** The `X-Svc-Version` this client is written against (decisions §3). */
export const API_VERSION = '2026-11-01';

export interface RedlineClientOptions {
  /** The API's `{base_url}`, ending in `/v1`. */
  baseUrl: string;
  /**
   * A `svc_live_` / `svc_test_` token (or a sign-in JWT). Absent in the dashboard, where the
   * browser sends its session cookie (same origin) and `headers` carries the CSRF token.
   */
  apiKey?: string;
  /** Sent on every request (the dashboard's X-CSRF-Token). */
  headers?: Record<string, string>;
  /** Sent as `X-Svc-Version`; defaults to API_VERSION. */
  apiVersion?: string;
  /** Per attempt, answer body included; default 30 s. */
  timeoutMs?: number;
  /** Further attempts after the first; default 3. */
  maxRetries?: number;
  /** A wait longer than this is not waited out: the error is thrown instead; default one hour. */
  maxRetryDelayMs?: number;
  userAgent?: string;
  fetch?: typeof fetch;
  /** Injected so tests need not wait; must reject when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Epoch milliseconds; injected so tests can place X-RateLimit-Reset. */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface CreateReviewOptions extends CallOptions {
  /** Spec 8.4, decisions §6: a repeat with the same key within 24 hours answers the first response. */
  idempotencyKey?: string;
}

export interface CreateReviewResult {
  review: CreatedReview;
  /** True when the API replayed a stored answer (`Idempotent-Replayed: true`). */
  replayed: boolean;
  requestId: string | undefined;
}

export interface ReviewPage {
  data: Review[];
  pagination: Pagination;
}

export interface WebhookPage {
  data: Webhook[];
  pagination: Pagination;
}

export interface TeamPage {
  data: Team[];
  pagination: Pagination;
}

export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  pagination: Pagination;
}

/** The query of the webhook lists: newest first; `after` is the previous page's `next_cursor`. */
export interface PageQuery {
  limit?: number;
  after?: string;
}

interface RequestSpec<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** After the base URL (`/reviews`), or from the server's root when it starts with /api/. */
  path: string;
  /** The answer is the object itself, not `{ data }` (the token endpoints, spec 4.1). */
  unwrapped?: boolean;
  /** A 204 answer: nothing to parse. */
  noContent?: boolean;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The schema of `data`. */
  schema: S;
}

interface RawAnswer {
  ok: boolean;
  status: number;
  headers: Headers;
  text: string;
}

interface Answer<T> {
  data: T;
  body: Record<string, unknown>;
  headers: Headers;
}

// No node:timers here: the dashboard runs this client in the browser.
const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A typed client of the Redline REST API. Retries what is safe to retry: a 429 always (the
 * request was not processed), and 5xx, timeouts and network failures only for GETs and for
 * POSTs that carry an Idempotency-Key (so a retry never creates a second review); a 409 on a
 * keyed POST means the first request with that key is still running, so it is retried too.
 * Waits follow Retry-After, then X-RateLimit-Reset, then exponential backoff.
 */
export class RedlineClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #headers: Record<string, string>;
  readonly #apiVersion: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxRetryDelayMs: number;
  readonly #userAgent: string;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;

  constructor(options: RedlineClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#headers = options.headers ?? {};
    this.#apiVersion = options.apiVersion ?? API_VERSION;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = options.maxRetries ?? 3;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 3_600_000;
    this.#userAgent = options.userAgent ?? 'redline-client';
    // Called through a function: a browser's fetch refuses to run as another object's method.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#sleep = options.sleep ?? defaultSleep;
    this.#now = options.now ?? Date.now;
  }

  async createReview(input: CreateReviewInput, options: CreateReviewOptions = {}): Promise<CreateReviewResult> {
    const answer = await this.#request({
      method: 'POST',
      path: '/reviews',
      body: input,
      idempotencyKey: options.idempotencyKey,
      signal: options.signal,
      schema: createdReviewSchema,
    });
    return {
      review: answer.data,
      replayed: answer.headers.get('idempotent-replayed') === 'true',
      requestId: answer.headers.get('x-request-id') ?? undefined,
    };
  }

  async getReview(id: string, options: CallOptions = {}): Promise<Review> {
    const path = `/reviews/${encodeURIComponent(id)}`;
    return (await this.#request({ method: 'GET', path, signal: options.signal, schema: reviewSchema })).data;
  }

  /** One page; pass `pagination.next_cursor` as `after` for the next. */
  async listReviews(query: ListReviewsQuery = {}, options: CallOptions = {}): Promise<ReviewPage> {
    const answer = await this.#request({
      method: 'GET',
      path: '/reviews',
      query: { ...query },
      signal: options.signal,
      schema: reviewSchema.array(),
    });
    return { data: answer.data, pagination: paginationSchema.parse(answer.body.pagination) };
  }

  /** Every comment, following pages when the API pages them. */
  async listComments(id: string, options: CallOptions = {}): Promise<ReviewComment[]> {
    const comments: ReviewComment[] = [];
    let after: string | undefined;
    for (;;) {
      const answer = await this.#request({
        method: 'GET',
        path: `/reviews/${encodeURIComponent(id)}/comments`,
        query: { after },
        signal: options.signal,
        schema: commentSchema.array(),
      });
      comments.push(...answer.data);
      const page = paginationSchema.safeParse(answer.body.pagination);
      if (!page.success || !page.data.has_more || !page.data.next_cursor || page.data.next_cursor === after) {
        return comments;
      }
      after = page.data.next_cursor;
    }
  }

  async getReviewStats(id: string, options: CallOptions = {}): Promise<ReviewStatistics> {
    const path = `/reviews/${encodeURIComponent(id)}/stats`;
    return (await this.#request({ method: 'GET', path, signal: options.signal, schema: statisticsSchema })).data;
  }

  startReview(id: string, options: CallOptions = {}): Promise<ReviewStatusResult> {
    return this.#transition(id, 'start', options);
  }

  cancelReview(id: string, options: CallOptions = {}): Promise<ReviewStatusResult> {
    return this.#transition(id, 'cancel', options);
  }

  retryReview(id: string, options: CallOptions = {}): Promise<ReviewStatusResult> {
    return this.#transition(id, 'retry', options);
  }

  async #transition(id: string, action: string, options: CallOptions): Promise<ReviewStatusResult> {
    const path = `/reviews/${encodeURIComponent(id)}/${action}`;
    return (await this.#request({ method: 'POST', path, signal: options.signal, schema: reviewStatusSchema })).data;
  }

  /** Reviews per UTC day over the last `days` (default 30), the score distribution and the totals. */
  async getUsage(query: UsageQuery = {}, options: CallOptions = {}): Promise<Usage> {
    const spec = { method: 'GET', path: '/usage', schema: usageSchema } as const;
    return (await this.#request({ ...spec, query: { ...query }, signal: options.signal })).data;
  }

  /** The browser's dashboard session (its cookie), with the CSRF token to send on changes. */
  async getSession(options: CallOptions = {}): Promise<DashboardSession> {
    const spec = { method: 'GET', path: '/api/auth/session', unwrapped: true, schema: sessionSchema } as const;
    return (await this.#request({ ...spec, signal: options.signal })).data;
  }

  /** Opens a dashboard session with the code of a `redline dashboard-link` link (single use). */
  async openSession(signInCode: string, options: CallOptions = {}): Promise<DashboardSession> {
    const body = { sign_in_code: signInCode };
    const spec = { method: 'POST', path: '/api/auth/session', unwrapped: true, schema: sessionSchema } as const;
    return (await this.#request({ ...spec, body, signal: options.signal })).data;
  }

  /** Ends the dashboard session on the server (the CSRF token must be in `headers`). */
  async signOut(options: CallOptions = {}): Promise<void> {
    await this.#request({
      method: 'DELETE',
      path: '/api/auth/session',
      noContent: true,
      signal: options.signal,
      schema: z.unknown(),
    });
  }

  /** Where to send the browser for GitHub sign-in; with `dashboard`, it comes back to /app/ signed in. */
  async githubSignInUrl(dashboard: boolean, options: CallOptions = {}): Promise<string> {
    const path = `/api/auth/scm${dashboard ? '?dashboard=true' : ''}`;
    const schema = z.looseObject({ redirect_url: z.string() });
    return (await this.#request({ method: 'GET', path, unwrapped: true, signal: options.signal, schema })).data
      .redirect_url;
  }

  /** Spec 4.1: your API tokens (no values). Needs the sign-in JWT or a dashboard session. */
  async listTokens(options: CallOptions = {}): Promise<ApiToken[]> {
    const schema = z.looseObject({ tokens: apiTokenSchema.array() });
    const answer = await this.#request({
      method: 'GET',
      path: '/api/auth/tokens',
      unwrapped: true,
      signal: options.signal,
      schema,
    });
    return answer.data.tokens;
  }

  /** Spec 4.1: a new token; `token` is its value, in this answer only. */
  async createToken(input: CreateTokenInput, options: CallOptions = {}): Promise<CreatedApiToken> {
    const path = '/api/auth/tokens';
    const schema = createdApiTokenSchema;
    return (await this.#request({ method: 'POST', path, body: input, unwrapped: true, signal: options.signal, schema }))
      .data;
  }

  async revokeToken(id: string, options: CallOptions = {}): Promise<void> {
    const path = `/api/auth/tokens/${encodeURIComponent(id)}`;
    const schema = z.looseObject({ success: z.boolean() });
    await this.#request({ method: 'DELETE', path, unwrapped: true, signal: options.signal, schema });
  }

  /** Decisions §5: one page of your webhooks, newest first. */
  async listWebhooks(query: PageQuery = {}, options: CallOptions = {}): Promise<WebhookPage> {
    const spec = { method: 'GET', path: '/webhooks', schema: webhookSchema.array() } as const;
    const answer = await this.#request({ ...spec, query: { ...query }, signal: options.signal });
    return { data: answer.data, pagination: paginationSchema.parse(answer.body.pagination) };
  }

  async getWebhook(id: string, options: CallOptions = {}): Promise<Webhook> {
    const path = `/webhooks/${encodeURIComponent(id)}`;
    return (await this.#request({ method: 'GET', path, signal: options.signal, schema: webhookSchema })).data;
  }

  async createWebhook(input: CreateWebhookInput, options: CallOptions = {}): Promise<Webhook> {
    const spec = { method: 'POST', path: '/webhooks', schema: webhookSchema } as const;
    return (await this.#request({ ...spec, body: input, signal: options.signal })).data;
  }

  /** Changes what is given; `enabled: true` re-enables a disabled webhook, `secret: null` removes the secret. */
  async updateWebhook(id: string, input: UpdateWebhookInput, options: CallOptions = {}): Promise<Webhook> {
    const path = `/webhooks/${encodeURIComponent(id)}`;
    return (await this.#request({ method: 'PATCH', path, body: input, signal: options.signal, schema: webhookSchema }))
      .data;
  }

  /** Deletes the webhook and its deliveries log. */
  async deleteWebhook(id: string, options: CallOptions = {}): Promise<void> {
    const path = `/webhooks/${encodeURIComponent(id)}`;
    await this.#request({ method: 'DELETE', path, noContent: true, signal: options.signal, schema: z.unknown() });
  }

  /** One page of a webhook's deliveries, newest first, each with every attempt. */
  async listWebhookDeliveries(
    id: string,
    query: PageQuery = {},
    options: CallOptions = {},
  ): Promise<WebhookDeliveryPage> {
    const path = `/webhooks/${encodeURIComponent(id)}/deliveries`;
    const spec = { method: 'GET', path, schema: webhookDeliverySchema.array() } as const;
    const answer = await this.#request({ ...spec, query: { ...query }, signal: options.signal });
    return { data: answer.data, pagination: paginationSchema.parse(answer.body.pagination) };
  }

  /** Sends a finished delivery again as a new delivery of the same event (409 while pending or disabled). */
  async redeliverWebhook(id: string, deliveryId: string, options: CallOptions = {}): Promise<WebhookDelivery> {
    const path = `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`;
    const spec = { method: 'POST', path, schema: webhookDeliverySchema } as const;
    return (await this.#request({ ...spec, signal: options.signal })).data;
  }

  /** Sends a `ping` test event: one attempt, even to a disabled webhook. */
  async sendWebhookTest(id: string, options: CallOptions = {}): Promise<WebhookDelivery> {
    const path = `/webhooks/${encodeURIComponent(id)}/test`;
    const spec = { method: 'POST', path, schema: webhookDeliverySchema } as const;
    return (await this.#request({ ...spec, signal: options.signal })).data;
  }

  /** Decisions §1: the organizations you belong to. */
  async listOrganizations(options: CallOptions = {}): Promise<Organization[]> {
    const spec = { method: 'GET', path: '/organizations', schema: organizationSchema.array() } as const;
    return (await this.#request({ ...spec, signal: options.signal })).data;
  }

  async getOrganization(id: string, options: CallOptions = {}): Promise<Organization> {
    const path = `/organizations/${encodeURIComponent(id)}`;
    return (await this.#request({ method: 'GET', path, signal: options.signal, schema: organizationSchema })).data;
  }

  /** The organization's plan and the live reviews of its rolling hour and day (the review quota). */
  async getOrganizationUsage(id: string, options: CallOptions = {}): Promise<OrganizationUsage> {
    const path = `/organizations/${encodeURIComponent(id)}/usage`;
    const spec = { method: 'GET', path, schema: organizationUsageSchema } as const;
    return (await this.#request({ ...spec, signal: options.signal })).data;
  }

  /** Your request rate this hour; the API does not count this request. */
  async getRateLimit(options: CallOptions = {}): Promise<RateLimit> {
    const spec = { method: 'GET', path: '/rate-limit', schema: rateLimitSchema } as const;
    return (await this.#request({ ...spec, signal: options.signal })).data;
  }

  /** One page of the teams of your organizations, oldest first. */
  async listTeams(query: ListTeamsQuery = {}, options: CallOptions = {}): Promise<TeamPage> {
    const spec = { method: 'GET', path: '/teams', schema: teamSchema.array() } as const;
    const answer = await this.#request({ ...spec, query: { ...query }, signal: options.signal });
    return { data: answer.data, pagination: paginationSchema.parse(answer.body.pagination) };
  }

  async getTeam(id: string, options: CallOptions = {}): Promise<Team> {
    const path = `/teams/${encodeURIComponent(id)}`;
    return (await this.#request({ method: 'GET', path, signal: options.signal, schema: teamSchema })).data;
  }

  /** Organization admins only (403 otherwise). */
  async createTeam(input: { organization_id: string; name: string }, options: CallOptions = {}): Promise<Team> {
    const spec = { method: 'POST', path: '/teams', schema: teamSchema } as const;
    return (await this.#request({ ...spec, body: input, signal: options.signal })).data;
  }

  /** Organization admins only (403 otherwise). */
  async renameTeam(id: string, name: string, options: CallOptions = {}): Promise<Team> {
    const path = `/teams/${encodeURIComponent(id)}`;
    const spec = { method: 'PATCH', path, schema: teamSchema } as const;
    return (await this.#request({ ...spec, body: { name }, signal: options.signal })).data;
  }

  /** Organization admins only (403 otherwise). */
  async deleteTeam(id: string, options: CallOptions = {}): Promise<void> {
    const path = `/teams/${encodeURIComponent(id)}`;
    await this.#request({ method: 'DELETE', path, noContent: true, signal: options.signal, schema: z.unknown() });
  }

  async #request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<Answer<z.infer<S>>> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.#attempt(spec);
      if (!(result instanceof RedlineApiError) && result.ok) return this.#parse(spec, result);
      const error = result instanceof RedlineApiError ? result : errorFrom(result, spec, this.#now());
      if (attempt >= this.#maxRetries || !retriable(error, spec)) throw error;
      const waitMs = error.retryAfterMs ?? backoffMs(attempt);
      if (waitMs > this.#maxRetryDelayMs) throw error;
      try {
        await this.#sleep(waitMs, spec.signal);
      } catch (cause) {
        throw aborted(spec, cause);
      }
    }
  }

  /** One HTTP exchange, the body read inside the same timeout; a failure to get an answer is returned. */
  async #attempt(spec: RequestSpec<z.ZodType>): Promise<RawAnswer | RedlineApiError> {
    if (spec.signal?.aborted) throw aborted(spec, spec.signal.reason);
    const url = spec.path.startsWith('/api/')
      ? new URL(spec.path, this.baseUrl)
      : new URL(`${this.baseUrl}${spec.path}`);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      ...this.#headers,
      accept: 'application/json',
      'user-agent': this.#userAgent,
      'x-svc-version': this.#apiVersion,
    };
    if (this.#apiKey !== undefined) headers.authorization = `Bearer ${this.#apiKey}`;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
    try {
      const response = await this.#fetch(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? null : JSON.stringify(spec.body),
        signal,
      });
      // Read now, under the same signal, so a stalled body also times out.
      const text = await response.text();
      return { ok: response.ok, status: response.status, headers: response.headers, text };
    } catch (cause) {
      // The caller's own abort is not ours to retry: it ends the call.
      if (spec.signal?.aborted) throw aborted(spec, cause);
      if (timeout.aborted) {
        return new RedlineApiError({
          code: 'timeout',
          message: `No answer to ${spec.method} ${spec.path} within ${this.#timeoutMs} ms`,
          cause,
        });
      }
      const reason = (cause as Error).cause instanceof Error ? ((cause as Error).cause as Error).message : '';
      return new RedlineApiError({
        code: 'network_error',
        message: `${spec.method} ${spec.path} failed: ${(cause as Error).message}${reason ? ` (${reason})` : ''}`,
        cause,
      });
    }
  }

  #parse<S extends z.ZodType>(spec: RequestSpec<S>, response: RawAnswer): Answer<z.infer<S>> {
    if (spec.noContent) return { data: undefined as z.infer<S>, body: {}, headers: response.headers };
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const body = parseJson(response.text);
    const data = spec.schema.safeParse(isObject(body) ? (spec.unwrapped ? body : body.data) : undefined);
    if (!isObject(body) || !data.success) {
      throw new RedlineApiError({
        code: 'unexpected_response',
        status: response.status,
        requestId,
        message: `${spec.method} ${spec.path} answered ${response.status} with a body that is not the expected { data }`,
      });
    }
    return { data: data.data, body, headers: response.headers };
  }
}

/** What may be tried again without risking a second effect (see the class comment). */
function retriable(error: RedlineApiError, spec: RequestSpec<z.ZodType>): boolean {
  const safeToRepeat = spec.method === 'GET' || spec.idempotencyKey !== undefined;
  if (error.status === undefined) return safeToRepeat && (error.code === 'timeout' || error.code === 'network_error');
  if (error.status === 429) return true;
  if (error.status === 409) return spec.idempotencyKey !== undefined;
  return error.status >= 500 && safeToRepeat;
}

function aborted(spec: RequestSpec<z.ZodType>, cause: unknown): RedlineApiError {
  return new RedlineApiError({ code: 'aborted', message: `${spec.method} ${spec.path} was aborted`, cause });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Spec 7.1 bodies become errors carrying the API's code, message and request id. */
function errorFrom(response: RawAnswer, spec: RequestSpec<z.ZodType>, nowMs: number): RedlineApiError {
  const body = parseJson(response.text);
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  const meta = isObject(body) && isObject(body.meta) ? body.meta : undefined;
  const requestId =
    response.headers.get('x-request-id') ?? (typeof meta?.request_id === 'string' ? meta.request_id : undefined);
  const retryAfterMs = hintedDelayMs(response.status, response.headers, nowMs);
  if (typeof error?.code !== 'string' || typeof error.message !== 'string') {
    return new RedlineApiError({
      code: 'unexpected_response',
      status: response.status,
      requestId,
      retryAfterMs,
      message: `${spec.method} ${spec.path} answered ${response.status} without a Redline error body`,
    });
  }
  const details = isObject(error.details) ? error.details : undefined;
  return new RedlineApiError({
    code: error.code,
    message: error.message,
    status: response.status,
    type: typeof error.type === 'string' ? error.type : undefined,
    requestId,
    details:
      typeof details?.field === 'string' && typeof details.issue === 'string'
        ? { field: details.field, issue: details.issue }
        : undefined,
    retryAfterMs,
  });
}
