import { createHmac, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { hashSecret } from '../../src/auth/api-token-format.js';
import { CURRENT_VERSION } from '../../src/http/api-version.js';
import { GITHUB_WEBHOOK_PATH } from '../../src/http/github-webhook-route.js';
import { createTestApp } from '../helpers/test-app.js';
import {
  contentType,
  fromSchema,
  headerText,
  hostileRawBody,
  hostileString,
  type JsonSchema,
} from './hostile-arbitraries.js';
import { listRoutes, type RouteEntry } from './route-list.js';
import { tableDigest } from './table-digest.js';

/**
 * Issue 8: whatever a client sends to whichever endpoint, the service never answers 5xx, every
 * error has the spec 7.1 shape (reduced on /api/auth) and a request id, and a refused request
 * writes nothing. Endpoints are read from the app's router, so a new route is attacked without
 * anyone listing it. A failure prints fast-check's seed and path; FC_SEED=<seed> replays a run.
 */

// Per route; about 60 routes (HEAD included) keep the file well under a minute on two busy cores.
const RUNS_PER_ROUTE = Number(process.env.FC_RUNS ?? 16);
const FC_OPTIONS = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

// Tables that count refused requests on purpose (decisions §6 and the sign-in limit), hence
// left out of "nothing written on refusal".
const COUNTERS = ['request_rate_windows', 'sign_in_rate_windows'];
// Routes no OpenAPI operation describes, on purpose (GitHub's webhook is GitHub's, not our API);
// every other route must be documented.
const UNDOCUMENTED = new Set(['/healthz', '/readyz', '/metrics', '/v1/openapi.json', GITHUB_WEBHOOK_PATH]);
/** Pages for people, not API operations: the API reference and the dashboard (docs/dashboard.md). */
const isDocsPage = (url: string) =>
  url === '/docs' || url.startsWith('/docs/') || url === '/' || url === '/app' || url.startsWith('/app/');

// The GitHub App is configured, so its webhook route is attacked too (signed and unsigned).
const WEBHOOK_SECRET = ['hostile', 'webhook', 'secret', 'value'].join('-');
const t = await createTestApp({
  env: {
    GITHUB_CLIENT_ID: ['hostile', 'client'].join('-'),
    GITHUB_CLIENT_SECRET: ['hostile', 'secret', 'value'].join('-'),
    // The sign-in limit has its own test; here the handlers behind it are the target.
    SIGN_IN_RATE_LIMIT: '1000000',
    APP_ID: '4242',
    PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString(),
    WEBHOOK_SECRET,
  },
  // GitHub knows no pull request (a live-mode create answers 404, a definite answer); any other
  // call fails like an unreachable network.
  fetch: async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    if (/\/repos\//.test(url)) {
      return new Response(JSON.stringify({ message: 'Not Found' }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    }
    throw new TypeError('fetch failed (no network in hostile tests)');
  },
});
const routes = listRoutes(t.app);
type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as {
  paths: Record<string, Record<string, Operation>>;
};

/** The OpenAPI operation of a route (HEAD is GET's), undefined for undocumented ones. */
function operationOf(route: RouteEntry): Operation | undefined {
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const method = route.method === 'HEAD' ? 'get' : route.method.toLowerCase();
  return doc.paths[path]?.[method];
}

let apiKey = '';
let liveKey = '';
let jwt = '';
/** Ids of real objects, so some requests reach the handlers' happy and conflict paths. */
const known: string[] = [];
let baseline = '';

beforeAll(async () => {
  const { user, jwt: userJwt } = await t.createUser('hostile');
  jwt = userJwt;
  await setPlan(t.database.db, user.id, 'enterprise');
  apiKey = await t.createToken(user.id, { mode: 'test' });
  liveKey = await t.createToken(user.id, { mode: 'live' });
  const spare = await t.createToken(user.id, { mode: 'test' });
  const key = { 'x-api-key': apiKey };
  const json = { ...key, 'content-type': 'application/json' };
  const review = await t.app.inject({
    method: 'POST',
    url: '/v1/reviews',
    headers: json,
    payload: { pull_request_url: 'https://github.com/acme/shop/pull/5', auto_review: false },
  });
  const webhook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: json,
    payload: { url: 'https://example.com/hook', events: ['review.completed'] },
  });
  const orgs = await t.app.inject({ url: '/v1/organizations', headers: key });
  // Its first use records last_used_at (as the test key's did above), before the baseline.
  expect((await t.app.inject({ url: '/v1/reviews', headers: { 'x-api-key': liveKey } })).statusCode).toBe(200);
  const orgId = orgs.json().data[0].id as string;
  const team = await t.app.inject({
    method: 'POST',
    url: '/v1/teams',
    headers: json,
    payload: { organization_id: orgId, name: 'hostile-team' },
  });
  // A token of its own for DELETE /api/auth/tokens/:id to revoke, never the one the test uses.
  const { id: spareId } = await t.database.db
    .selectFrom('api_tokens')
    .select('id')
    .where('token_hash', '=', hashSecret(spare))
    .executeTakeFirstOrThrow();
  for (const res of [review, webhook, team]) expect(res.statusCode).toBe(201);
  known.push(review.json().data.id, webhook.json().data.id, team.json().data.id, orgId, spareId);
  baseline = await tableDigest(t.database.db, COUNTERS);
});

afterAll(async () => t.close());

const REQUEST_ID = /^req_[0-9A-Za-z]{22}$/;
const KNOWN_CODES = [
  'unauthorized',
  'invalid_api_key',
  'insufficient_permissions',
  'rate_limit_exceeded',
  'invalid_request',
  'validation_error',
  'invalid_pr_url',
  'resource_not_found',
  'conflict',
  'upstream_error',
  'service_unavailable',
  'internal_error',
];

/** Spec 7.1: the general shape, or on the sign-in and token endpoints the reduced one, exactly. */
function expectErrorShape(res: LightMyRequestResponse, path: string) {
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(REQUEST_ID);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  if (path.startsWith('/api/auth/')) {
    expect(body).toEqual({ error: { code: expect.any(String), message: expect.any(String), status: res.statusCode } });
  } else {
    expect(Object.keys(body).sort()).toEqual(['error', 'meta']);
    expect(body.meta).toEqual({ request_id: requestId, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const { details, ...error } = body.error;
    expect(error).toEqual({
      type: expect.any(String),
      message: expect.any(String),
      code: expect.any(String),
      status: res.statusCode,
    });
    if (details !== undefined) expect(details).toEqual({ field: expect.any(String), issue: expect.any(String) });
  }
  expect(KNOWN_CODES).toContain(body.error.code);
}

/** Percent-encoding as a client does it (a lone surrogate goes out as U+FFFD, as UTF-8 demands). */
const encode = (text: string) => encodeURIComponent(Buffer.from(text).toString());

/** A path segment as a client could send it: encoded, or raw and malformed. */
const pathValue = () =>
  fc.oneof(
    { weight: 4, arbitrary: hostileString(known).map((s) => encode(s)) },
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%00', '..', '%2e%2e', 'a%2Fb', '%C0%AF', '%ED%A0%80') },
  );

function requestFor(route: RouteEntry) {
  const operation = operationOf(route);
  const names = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const bodySchema = operation?.requestBody?.content?.['application/json']?.schema;
  const params = route.url.match(/:[A-Za-z0-9_]+|\*/g) ?? [];
  const valid = route.url.startsWith('/api/auth/') ? `Bearer ${jwt}` : `Bearer ${apiKey}`;
  const credential = fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 6, arbitrary: fc.constant({ authorization: valid }) },
    { weight: 2, arbitrary: fc.constant({ 'x-api-key': valid.slice(7) }) },
    { weight: 2, arbitrary: fc.constant({ 'x-api-key': liveKey }) },
    { weight: 1, arbitrary: headerText.map((h) => ({ authorization: h })) },
    { weight: 1, arbitrary: headerText.map((h) => ({ authorization: `Bearer ${h}` })) },
    { weight: 1, arbitrary: headerText.map((h) => ({ 'x-api-key': h })) },
    { weight: 1, arbitrary: headerText.map((h) => ({ authorization: valid, 'x-api-key': h })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { authorization: `bearer ${valid.slice(7)}` },
        { authorization: `Bearer  ${valid.slice(7)} ` },
        { authorization: `Bearer ${valid.slice(7, -1)}` },
        { authorization: `Bearer ${jwt.split('.').slice(0, 2).join('.')}.` },
        { 'x-api-key': `svc_live_${'A'.repeat(38)}` },
        { authorization: 'Basic dXNlcjpwYXNz' },
      ),
    },
  );
  const headers = fc.record(
    {
      'x-svc-version': fc.oneof(
        { weight: 8, arbitrary: fc.constant(CURRENT_VERSION) },
        { weight: 1, arbitrary: fc.constantFrom('2026-13-01', '2026-11-1', '1999-01-01', '') },
        { weight: 1, arbitrary: headerText },
      ),
      'idempotency-key': fc.oneof(headerText, fc.uuid()),
      'content-type': contentType,
      'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
      'x-forwarded-for': headerText,
      accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml'),
      // GitHub's webhook headers (other routes ignore them).
      'x-github-event': fc.oneof(fc.constantFrom('pull_request', 'push', 'installation', 'ping'), headerText),
      'x-github-delivery': fc.oneof(fc.uuid(), headerText),
    },
    { requiredKeys: [] },
  );
  const query = fc.oneof(
    fc
      .array(
        fc.tuple(
          names.length > 0 ? fc.oneof(fc.constantFrom(...names), hostileString()) : hostileString(),
          hostileString(known),
        ),
        {
          maxLength: 5,
        },
      )
      .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')),
    fc.constantFrom('%zz=1', 'limit=1&limit=2', 'a[b]=1&a[c]=2', '&&=&', 'limit=%00', 'after=%00', '__proto__=1', 'x'),
  );
  const body = fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: fromSchema(bodySchema, known).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: hostileRawBody },
  );
  return fc.record({
    values: fc.tuple(...params.map(() => pathValue())),
    query,
    headers,
    credential,
    body,
    // Without a content type a JSON body is never parsed; usually say it is JSON.
    jsonType: fc.boolean(),
    // GitHub's webhook: the body signed with the app's secret (else the signature is random).
    signed: fc.boolean(),
  });
}

describe('every route is known', () => {
  it('finds the API through the router, and every route but health, metrics, docs and the dashboard is documented', () => {
    const urls = new Set(routes.map((r) => r.url));
    for (const expected of [
      '/v1/reviews',
      '/v1/webhooks/:id',
      '/api/auth/scm',
      '/api/auth/tokens/:token_id',
      '/healthz',
    ]) {
      expect(urls).toContain(expected);
    }
    const undocumented = routes.filter(
      (r) => !UNDOCUMENTED.has(r.url) && !isDocsPage(r.url) && operationOf(r) === undefined,
    );
    expect(undocumented).toEqual([]);
  });
});

describe.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', (_name, route) => {
  it('never answers 5xx, always answers errors in the spec shape, and writes nothing when it refuses', async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(requestFor(route), async (input) => {
        let i = 0;
        const path = route.url.replace(/:[A-Za-z0-9_]+|\*/g, () => input.values[i++] ?? 'x');
        const headers = { ...input.headers, ...input.credential } as Record<string, string>;
        if (input.jsonType && input.body !== undefined) headers['content-type'] = 'application/json';
        if (route.url === GITHUB_WEBHOOK_PATH && input.signed) {
          const signature = createHmac('sha256', WEBHOOK_SECRET)
            .update(input.body ?? '')
            .digest('hex');
          headers['x-hub-signature-256'] = `sha256=${signature}`;
        }
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: input.query === '' ? path : `${path}?${input.query}`,
          headers,
          ...(input.body === undefined ? {} : { payload: input.body }),
        });
        const after = await tableDigest(t.database.db, COUNTERS);
        const before = baseline;
        baseline = after;
        statuses.push(res.statusCode);
        expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
        expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
        if (res.statusCode >= 400) {
          if (route.method !== 'HEAD') expectErrorShape(res, path);
          expect(after, `${res.statusCode} ${res.body.slice(0, 200)}`).toBe(before);
        }
      }),
      { numRuns: RUNS_PER_ROUTE, ...FC_OPTIONS },
    );
    // Covered means more than the guard's 401: some requests reached the route itself.
    expect(statuses.some((s) => s !== 401)).toBe(true);
  });
});
