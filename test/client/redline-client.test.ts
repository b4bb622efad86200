import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, RedlineApiError, RedlineClient, type RedlineClientOptions } from '../../src/client/index.js';

// The client against nock (every mock must be used) with an injected sleep and clock, so the
// waits it chooses are asserted without waiting; timeouts and refused connections use real sockets.

const BASE = 'https://redline.test/v1';
// Assembled here so no key-looking literal sits in the source.
const KEY = ['svc', 'test', 'k'.repeat(38)].join('_');
const NOW = Date.parse('2026-11-20T10:00:00Z');

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

function client(options: Partial<RedlineClientOptions> = {}) {
  const sleeps: number[] = [];
  const c = new RedlineClient({
    baseUrl: `${BASE}/`,
    apiKey: KEY,
    now: () => NOW,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { c, sleeps };
}

const meta = { request_id: 'req_ok', timestamp: '2026-11-20T10:00:00.000Z' };
const created = {
  id: 'rev_1',
  status: 'in_progress',
  pull_request: { url: 'https://github.com/acme/shop/pull/2', number: 2 },
  created_at: '2026-11-20T10:00:00.000Z',
};
const review = {
  ...created,
  status: 'completed',
  score: 90,
  summary: 'fine',
  pull_request: { ...created.pull_request, title: 't', repository: 'acme/shop', branch: 'b', author: 'a' },
  stats: {
    files_changed: 1,
    lines_added: 2,
    lines_deleted: 0,
    comments_count: 0,
    issues: { critical: 0, important: 0, warning: 0, suggestion: 0 },
  },
  completed_at: '2026-11-20T10:00:30.000Z',
  organization_id: 'org_1',
  team_id: null,
  error: null,
};

function apiError(code: string, status: number, message: string, requestId = 'req_err', details?: object) {
  return {
    error: { type: 'x_error', message, code, status, ...(details ? { details } : {}) },
    meta: { ...meta, request_id: requestId },
  };
}

const rateLimited = (requestId = 'req_429') =>
  apiError('rate_limit_exceeded', 429, 'Rate limit of 100 requests per hour exceeded', requestId);

async function failure(promise: Promise<unknown>): Promise<RedlineApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RedlineApiError);
  return error as RedlineApiError;
}

describe('requests', () => {
  it('sends the key, X-Svc-Version, JSON and the Idempotency-Key, and reads a replay', async () => {
    const { c } = client({ userAgent: 'redline-action' });
    nock(BASE, {
      reqheaders: {
        authorization: `Bearer ${KEY}`,
        'x-svc-version': API_VERSION,
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'redline-action',
        'idempotency-key': 'run-42',
      },
    })
      .post('/reviews', { pull_request_url: created.pull_request.url, check_security: false })
      .reply(201, { data: created, meta }, { 'x-request-id': 'req_ok', 'idempotent-replayed': 'true' });
    const result = await c.createReview(
      { pull_request_url: created.pull_request.url, check_security: false },
      { idempotencyKey: 'run-42' },
    );
    expect(result).toEqual({ review: created, replayed: true, requestId: 'req_ok' });
  });

  it('reads a review, and gives replayed false without the header', async () => {
    const { c } = client();
    nock(BASE).get('/reviews/rev_1').reply(200, { data: review, meta });
    expect(await c.getReview('rev_1')).toEqual(review);
    nock(BASE).post('/reviews').reply(201, { data: created, meta });
    expect((await c.createReview({ pull_request_url: created.pull_request.url })).replayed).toBe(false);
  });

  it('reads every page of comments', async () => {
    const { c } = client();
    const comment = (id: string, line: number) => ({
      id,
      type: 'bug',
      severity: 'important',
      message: 'm',
      file: 'a.ts',
      line,
    });
    nock(BASE)
      .get('/reviews/rev_1/comments')
      .reply(200, { data: [comment('cmt_1', 1)], pagination: { has_more: true, next_cursor: 'cmt_1' }, meta })
      .get('/reviews/rev_1/comments')
      .query({ after: 'cmt_1' })
      .reply(200, { data: [comment('cmt_2', 2)], pagination: { has_more: false, next_cursor: null }, meta });
    expect((await c.listComments('rev_1')).map((x) => x.id)).toEqual(['cmt_1', 'cmt_2']);
  });

  it('reads an unpaged comment list (the API answers all comments at once)', async () => {
    const { c } = client();
    nock(BASE).get('/reviews/rev_1/comments').reply(200, { data: [], meta });
    expect(await c.listComments('rev_1')).toEqual([]);
  });

  it('lists reviews with the query and the pagination', async () => {
    const { c } = client();
    nock(BASE)
      .get('/reviews')
      .query({ repository: 'acme/shop', limit: '5' })
      .reply(200, { data: [review], pagination: { has_more: false, next_cursor: null }, meta });
    expect(await c.listReviews({ repository: 'acme/shop', limit: 5 })).toEqual({
      data: [review],
      pagination: { has_more: false, next_cursor: null },
    });
  });

  it('reads the usage with its query', async () => {
    const { c } = client();
    const usage = {
      from: '2026-11-19T00:00:00.000Z',
      until: '2026-11-20T10:00:00.000Z',
      days: [
        { date: '2026-11-19', created: 0, completed: 0, failed: 0 },
        { date: '2026-11-20', created: 2, completed: 1, failed: 1 },
      ],
      scores: Array.from({ length: 10 }, (_, i) => ({
        min: i * 10,
        max: i === 9 ? 100 : i * 10 + 9,
        count: i === 6 ? 1 : 0,
      })),
      total: { created: 2, completed: 1, failed: 1, average_score: 65 },
    };
    nock(BASE).get('/usage').query({ days: '2', repository: 'acme/shop' }).reply(200, { data: usage, meta });
    expect(await c.getUsage({ days: 2, repository: 'acme/shop' })).toEqual(usage);
  });

  it('retries a failed review', async () => {
    const { c } = client();
    nock(BASE)
      .post('/reviews/rev_1/retry')
      .reply(200, { data: { id: 'rev_1', status: 'in_progress' }, meta });
    expect(await c.retryReview('rev_1')).toEqual({ id: 'rev_1', status: 'in_progress' });
  });
});

describe('webhooks', () => {
  const webhook = {
    id: 'whk_1',
    url: 'https://hooks.example/redline',
    events: ['review.completed'],
    enabled: true,
    has_secret: false,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    disabled_at: null,
    failure_count: 0,
  };
  const delivery = {
    id: 'dlv_1',
    webhook_id: 'whk_1',
    event_id: 'evt_1',
    event_type: 'ping',
    status: 'delivered',
    next_attempt_at: null,
    redelivery_of: null,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:01.000Z',
    attempts: [
      {
        attempt: 1,
        status_code: 200,
        latency_ms: 12,
        error: null,
        response_body: 'ok',
        created_at: '2026-11-20T10:00:01.000Z',
      },
    ],
  };
  const secret = ['s'.repeat(8), 'e'.repeat(8)].join('');

  it('creates, lists, changes (secret null removes it) and deletes, with the exact bodies', async () => {
    const { c } = client();
    nock(BASE)
      .post('/webhooks', { url: webhook.url, events: ['review.completed'], secret })
      .reply(201, { data: webhook, meta })
      .get('/webhooks')
      .query({ limit: 100 })
      .reply(200, { data: [webhook], pagination: { has_more: false, next_cursor: null }, meta })
      .patch('/webhooks/whk_1', { secret: null, enabled: true })
      .reply(200, { data: { ...webhook, enabled: true }, meta })
      .delete('/webhooks/whk_1')
      .reply(204);
    expect(await c.createWebhook({ url: webhook.url, events: ['review.completed'], secret })).toEqual(webhook);
    expect(await c.listWebhooks({ limit: 100 })).toEqual({
      data: [webhook],
      pagination: { has_more: false, next_cursor: null },
    });
    expect((await c.updateWebhook('whk_1', { secret: null, enabled: true })).enabled).toBe(true);
    await expect(c.deleteWebhook('whk_1')).resolves.toBeUndefined();
  });

  it('sends a test event, lists deliveries with their attempts and redelivers', async () => {
    const { c } = client();
    nock(BASE)
      .post('/webhooks/whk_1/test')
      .reply(202, { data: { ...delivery, status: 'pending', attempts: [] }, meta })
      .get('/webhooks/whk_1/deliveries')
      .query({ limit: 25 })
      .reply(200, { data: [delivery], pagination: { has_more: false, next_cursor: null }, meta })
      .post('/webhooks/whk_1/deliveries/dlv_1/redeliver')
      .reply(202, { data: { ...delivery, id: 'dlv_2', redelivery_of: 'dlv_1', attempts: [] }, meta });
    expect((await c.sendWebhookTest('whk_1')).status).toBe('pending');
    expect((await c.listWebhookDeliveries('whk_1', { limit: 25 })).data).toEqual([delivery]);
    expect((await c.redeliverWebhook('whk_1', 'dlv_1')).redelivery_of).toBe('dlv_1');
  });

  it('does not repeat a PATCH that failed with a 5xx', async () => {
    const { c, sleeps } = client();
    nock(BASE)
      .patch('/webhooks/whk_1', { enabled: false })
      .reply(503, apiError('service_unavailable', 503, 'down'));
    expect((await failure(c.updateWebhook('whk_1', { enabled: false }))).status).toBe(503);
    expect(sleeps).toEqual([]);
  });
});

describe('organizations, teams and the rate limit', () => {
  const org = {
    id: 'org_1',
    login: 'acme',
    name: null,
    plan: 'free',
    created_at: '2026-11-20T10:00:00.000Z',
    role: 'admin',
  };
  const usage = {
    organization_id: 'org_1',
    plan: 'enterprise',
    review_quota: { hour: { limit: 1000, used: 3, remaining: 997 }, day: { limit: null, used: 9, remaining: null } },
  };
  const team = { id: 'team_1', organization_id: 'org_1', name: 'Platform', created_at: '2026-11-20T10:00:00.000Z' };

  it('reads organizations, their usage and the rate limit, with the exact bodies', async () => {
    const { c } = client();
    const rate = { plan: 'free', limit: 100, used: 4, remaining: 96, reset: NOW / 1000 + 3600 };
    nock(BASE)
      .get('/organizations')
      .reply(200, { data: [org], pagination: { has_more: false, next_cursor: null }, meta })
      .get('/organizations/org_1')
      .reply(200, { data: org, meta })
      .get('/organizations/org_1/usage')
      .reply(200, { data: usage, meta })
      .get('/rate-limit')
      .reply(200, { data: rate, meta });
    expect(await c.listOrganizations()).toEqual([org]);
    expect(await c.getOrganization('org_1')).toEqual(org);
    expect(await c.getOrganizationUsage('org_1')).toEqual(usage);
    expect(await c.getRateLimit()).toEqual(rate);
  });

  it('lists, creates, reads, renames and deletes teams', async () => {
    const { c } = client();
    nock(BASE)
      .get('/teams')
      .query({ organization_id: 'org_1', limit: 100 })
      .reply(200, { data: [team], pagination: { has_more: false, next_cursor: null }, meta })
      .post('/teams', { organization_id: 'org_1', name: 'Platform' })
      .reply(201, { data: team, meta })
      .get('/teams/team_1')
      .reply(200, { data: team, meta })
      .patch('/teams/team_1', { name: 'Infra' })
      .reply(200, { data: { ...team, name: 'Infra' }, meta })
      .delete('/teams/team_1')
      .reply(204);
    expect(await c.listTeams({ organization_id: 'org_1', limit: 100 })).toEqual({
      data: [team],
      pagination: { has_more: false, next_cursor: null },
    });
    expect(await c.createTeam({ organization_id: 'org_1', name: 'Platform' })).toEqual(team);
    expect(await c.getTeam('team_1')).toEqual(team);
    expect(await c.renameTeam('team_1', 'Infra')).toEqual({ ...team, name: 'Infra' });
    await expect(c.deleteTeam('team_1')).resolves.toBeUndefined();
  });

  it("gives a member's refused change as the API's 403, message and all", async () => {
    const { c, sleeps } = client();
    nock(BASE)
      .post('/teams', { organization_id: 'org_1', name: 'Mine' })
      .reply(403, apiError('insufficient_permissions', 403, 'Only organization admins can manage teams'));
    const error = await failure(c.createTeam({ organization_id: 'org_1', name: 'Mine' }));
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 403,
      code: 'insufficient_permissions',
      message: 'Only organization admins can manage teams',
    });
    expect(sleeps).toEqual([]);
  });
});

describe('errors', () => {
  it.each([
    [400, 'validation_error', 'Invalid team_id: must be a team', { field: 'team_id', issue: 'must be a team' }],
    [401, 'invalid_api_key', 'API key is not recognised', undefined],
    [403, 'insufficient_permissions', 'Missing scope review:write', undefined],
    [404, 'resource_not_found', 'Review not found', undefined],
    [422, 'conflict', 'Idempotency-Key reused with another body', undefined],
  ])(
    'a %i is not retried and carries code, message, status, request id and details',
    async (status, code, message, details) => {
      const { c, sleeps } = client();
      nock(BASE)
        .post('/reviews')
        .reply(status, apiError(code, status, message, 'req_abc', details), { 'x-request-id': 'req_abc' });
      const error = await failure(c.createReview({ pull_request_url: 'x' }, { idempotencyKey: 'k' }));
      expect(error).toMatchObject({ code, message, status, requestId: 'req_abc', type: 'x_error', details });
      expect(sleeps).toEqual([]);
    },
  );

  it('takes the request id from meta when the header is missing, and describes itself in one line', async () => {
    const { c } = client();
    nock(BASE)
      .get('/reviews/rev_9')
      .reply(404, apiError('resource_not_found', 404, 'Review not found', 'req_meta'));
    const error = await failure(c.getReview('rev_9'));
    expect(error.requestId).toBe('req_meta');
    expect(error.describe()).toBe('Review not found (resource_not_found, HTTP 404, req_meta)');
  });

  it('names an answer that is not a Redline body', async () => {
    const { c } = client({ maxRetries: 0 });
    nock(BASE).get('/reviews/rev_1').reply(502, '<html>bad gateway</html>', { 'content-type': 'text/html' });
    const error = await failure(c.getReview('rev_1'));
    expect(error).toMatchObject({ code: 'unexpected_response', status: 502 });
    expect(error.message).toBe('GET /reviews/rev_1 answered 502 without a Redline error body');
    nock(BASE)
      .get('/reviews/rev_1')
      .reply(200, { data: { id: 'rev_1' }, meta });
    expect(await failure(c.getReview('rev_1'))).toMatchObject({ code: 'unexpected_response', status: 200 });
  });
});

describe('retries', () => {
  it('waits out a 429 as Retry-After says, for any method', async () => {
    const { c, sleeps } = client();
    nock(BASE)
      .post('/reviews')
      .reply(429, rateLimited(), { 'retry-after': '7', 'x-ratelimit-reset': String(NOW / 1000 + 3600) })
      .post('/reviews')
      .reply(201, { data: created, meta });
    expect((await c.createReview({ pull_request_url: 'x' })).review.id).toBe('rev_1');
    expect(sleeps).toEqual([7000]);
  });

  it('takes Retry-After as an HTTP date too', async () => {
    const { c, sleeps } = client();
    nock(BASE)
      .get('/reviews/rev_1')
      .reply(429, rateLimited(), { 'retry-after': new Date(NOW + 12_000).toUTCString() })
      .get('/reviews/rev_1')
      .reply(200, { data: review, meta });
    await c.getReview('rev_1');
    expect(sleeps).toEqual([12_000]);
  });

  it('waits until X-RateLimit-Reset when a 429 has no Retry-After', async () => {
    const { c, sleeps } = client();
    nock(BASE)
      .get('/reviews/rev_1')
      .reply(429, rateLimited(), { 'x-ratelimit-reset': String(NOW / 1000 + 42) })
      .get('/reviews/rev_1')
      .reply(200, { data: review, meta });
    await c.getReview('rev_1');
    expect(sleeps).toEqual([42_000]);
  });

  it('retries 5xx on a GET with backoff (1 s, 2 s), or as Retry-After says', async () => {
    const { c, sleeps } = client();
    const failed = apiError('internal_error', 500, 'Internal server error');
    nock(BASE)
      .get('/reviews/rev_1')
      .reply(500, failed)
      .get('/reviews/rev_1')
      .reply(502, failed)
      .get('/reviews/rev_1')
      .reply(503, apiError('service_unavailable', 503, 'Unavailable'), { 'retry-after': '5' })
      .get('/reviews/rev_1')
      .reply(200, { data: review, meta });
    expect((await c.getReview('rev_1')).status).toBe('completed');
    expect(sleeps).toEqual([1000, 2000, 5000]);
  });

  it('never repeats a POST without an Idempotency-Key on a 5xx (it might have taken effect)', async () => {
    const { c, sleeps } = client();
    nock(BASE)
      .post('/reviews')
      .reply(500, apiError('internal_error', 500, 'Internal server error', 'req_500'));
    expect(await failure(c.createReview({ pull_request_url: 'x' }))).toMatchObject({
      code: 'internal_error',
      status: 500,
      requestId: 'req_500',
    });
    expect(sleeps).toEqual([]);
  });

  it('repeats a keyed POST on a 5xx and on a 409 (the first request with the key still running)', async () => {
    const { c, sleeps } = client();
    nock(BASE, { reqheaders: { 'idempotency-key': 'k1' } })
      .post('/reviews')
      .reply(503, apiError('service_unavailable', 503, 'Unavailable'))
      .post('/reviews')
      .reply(409, apiError('conflict', 409, 'A request with this Idempotency-Key is still running'))
      .post('/reviews')
      .reply(201, { data: created, meta });
    await c.createReview({ pull_request_url: 'x' }, { idempotencyKey: 'k1' });
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('does not repeat a 409 without a key', async () => {
    const { c } = client();
    nock(BASE)
      .post('/reviews/rev_1/cancel')
      .reply(409, apiError('conflict', 409, 'Review rev_1 is completed'));
    expect(await failure(c.cancelReview('rev_1'))).toMatchObject({ code: 'conflict', status: 409 });
  });

  it('gives up after maxRetries, with the last answer and the wait it asked for', async () => {
    const { c, sleeps } = client({ maxRetries: 2 });
    nock(BASE).get('/reviews/rev_1').times(3).reply(429, rateLimited('req_last'), { 'retry-after': '3' });
    const error = await failure(c.getReview('rev_1'));
    expect(error).toMatchObject({
      code: 'rate_limit_exceeded',
      status: 429,
      requestId: 'req_last',
      retryAfterMs: 3000,
    });
    expect(sleeps).toEqual([3000, 3000]);
  });

  it('does not wait longer than maxRetryDelayMs: the 429 is thrown at once', async () => {
    const { c, sleeps } = client({ maxRetryDelayMs: 60_000 });
    nock(BASE).get('/reviews/rev_1').reply(429, rateLimited(), { 'retry-after': '61' });
    expect(await failure(c.getReview('rev_1'))).toMatchObject({ code: 'rate_limit_exceeded', retryAfterMs: 61_000 });
    expect(sleeps).toEqual([]);
  });

  it('stops waiting when the caller aborts', async () => {
    const controller = new AbortController();
    const c = new RedlineClient({
      baseUrl: BASE,
      apiKey: KEY,
      sleep: async (_ms, signal) => {
        controller.abort();
        signal?.throwIfAborted();
      },
    });
    nock(BASE).get('/reviews/rev_1').reply(429, rateLimited(), { 'retry-after': '1' });
    expect(await failure(c.getReview('rev_1', { signal: controller.signal }))).toMatchObject({ code: 'aborted' });
  });
});

describe('over real sockets', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    // Answers nothing: every request hangs until the client gives up.
    server = createServer((request) => {
      seen.push(`${request.method} ${request.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('times out each attempt, retries a GET, then reports the timeout', async () => {
    seen.length = 0;
    const { c, sleeps } = client({ baseUrl: base, timeoutMs: 150, maxRetries: 1 });
    const error = await failure(c.getReview('rev_1'));
    expect(error).toMatchObject({ code: 'timeout', status: undefined });
    expect(error.message).toBe('No answer to GET /reviews/rev_1 within 150 ms');
    expect(seen).toEqual(['GET /v1/reviews/rev_1', 'GET /v1/reviews/rev_1']);
    // The pause between attempts went to the injected sleep, not to a real timer.
    expect(sleeps).toEqual([1000]);
  });

  it('does not retry a timed-out POST without a key', async () => {
    seen.length = 0;
    const { c } = client({ baseUrl: base, timeoutMs: 150 });
    expect(await failure(c.createReview({ pull_request_url: 'x' }))).toMatchObject({ code: 'timeout' });
    expect(seen).toEqual(['POST /v1/reviews']);
  });

  it('reports a refused connection as network_error after the retries of a GET', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { c, sleeps } = client({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 2 });
    const error = await failure(c.getReview('rev_1'));
    expect(error.code).toBe('network_error');
    expect(error.message).toContain('ECONNREFUSED');
    expect(sleeps).toEqual([1000, 2000]);
  });
});
