import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLocalUser } from '../../src/auth/accounts.js';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { envelope } from '../../src/common/envelope.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/build-app.js';
import { createTestApp, testSecrets } from '../helpers/test-app.js';
import { testClock } from '../helpers/test-clock.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

// Spec 2.9 / 7.1 and decisions §3: envelopes, error shapes, request ids, body handling and
// X-Svc-Version, on the real app plus a few routes of the test's own (added before ready()).

const NOW = '2026-11-02T10:00:00.000Z';
const clock = testClock(NOW);
let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ PUBLIC_URL: 'http://redline.test' });
  app = await buildApp({ config, database, secrets: testSecrets(), clock });
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const url of ['/v1/_test/echo', '/api/auth/_test/echo']) {
    r.post(url, { schema: { body: z.object({ name: z.string() }) } }, async (request) =>
      envelope({ name: request.body.name }, request.id, clock.now()),
    );
  }
  // A route without a body schema: only the content-type parsers stand between it and any body.
  r.post('/v1/_test/no-schema', async (request) => envelope({ body: request.body ?? null }, request.id, clock.now()));
  r.get('/v1/_test/boom', async () => {
    throw new Error('secret internals at /etc/x');
  });
  r.get('/v1/_test/boom-503', async () => {
    throw Object.assign(new Error('secret pool at 10.0.0.3 exhausted'), { statusCode: 503 });
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** The meta every full-shape body carries, bound to the response's own X-Request-Id. */
function metaOf(res: LightMyRequestResponse) {
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(/^req_[0-9A-Za-z]+$/);
  return { request_id: requestId, timestamp: NOW };
}

function fullError(res: LightMyRequestResponse, type: string, code: string, status: number, message: string) {
  return { error: { type, message, code, status }, meta: metaOf(res) };
}

const json = { 'content-type': 'application/json' };

describe('success envelope', () => {
  it('wraps data in { data, meta } with X-Request-Id equal to meta.request_id', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/_test/echo', headers: json, payload: { name: 'x' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { name: 'x' }, meta: metaOf(res) });
    expect(res.headers['x-svc-version']).toBe('2026-11-01');
  });

  it('gives a list endpoint { data, pagination, meta } (organizations over an API key)', async () => {
    const user = await createLocalUser(database.db, 'alice');
    const { token } = await createApiToken(database.db, {
      userId: user.id,
      name: 't',
      scopes: ['org:read'],
      mode: 'live',
      expiresInSeconds: 3600,
      now: clock.now(),
    });
    const res = await app.inject({ url: '/v1/organizations', headers: { 'x-api-key': token } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual(metaOf(res));
    expect(body.pagination).toEqual({ has_more: false, next_cursor: null });
    expect(body.data.map((o: { login: string }) => o.login)).toEqual(['alice']);
  });

  it('gives every request a new id and ignores one the client sends', async () => {
    const a = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'req_mine' } });
    const b = await app.inject({ url: '/healthz' });
    expect(a.headers['x-request-id']).not.toBe('req_mine');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('not found', () => {
  it('answers an unknown route with exactly the full error shape', async () => {
    const res = await app.inject({ url: '/v1/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(
      fullError(res, 'not_found_error', 'resource_not_found', 404, 'Route GET /v1/nothing-here not found'),
    );
  });

  it('answers 404 for an unknown route whatever its body', async () => {
    // fastify reads a body before routing to the not-found handler; that must not turn into a 400.
    const bodies: [string, string][] = [
      ['application/json', '[1]'],
      ['application/json', '{"broken'],
      ['text/plain', 'hello'],
      ['application/json', `"${'x'.repeat(1024 * 1024)}"`],
    ];
    for (const [type, payload] of bodies) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/nothing-here',
        headers: { 'content-type': type },
        payload,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(
        fullError(res, 'not_found_error', 'resource_not_found', 404, 'Route POST /v1/nothing-here not found'),
      );
    }
  });

  it('answers an unknown route under /api/auth with the reduced shape only', async () => {
    const res = await app.inject({ url: '/api/auth/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.json()).toEqual({
      error: { code: 'resource_not_found', message: 'Route GET /api/auth/nothing-here not found', status: 404 },
    });
  });
});

describe('request bodies', () => {
  const post = (payload: string, headers: Record<string, string> = json, url = '/v1/_test/echo') =>
    app.inject({ method: 'POST', url, headers, payload });
  /** `{"name":"xxx…"}` of exactly `bytes` bytes. */
  const objectOfSize = (bytes: number) => {
    const text = `{"name":"${'x'.repeat(bytes - '{"name":""}'.length)}"}`;
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  };
  const invalid = (res: LightMyRequestResponse, message: string) =>
    fullError(res, 'invalid_request_error', 'invalid_request', 400, message);

  it('refuses malformed JSON', async () => {
    const res = await post('{"name": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid(res, 'Request body is not valid JSON'));
  });

  it.each([
    ['a JSON array', '[{"name":"x"}]'],
    ['a JSON string', '"x"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
  ])('refuses %s as the body', async (_what, payload) => {
    for (const url of ['/v1/_test/echo', '/v1/_test/no-schema']) {
      const res = await post(payload, json, url);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalid(res, 'Request body must be a JSON object'));
    }
  });

  it('refuses a text/plain body, with or without a body schema on the route', async () => {
    for (const url of ['/v1/_test/echo', '/v1/_test/no-schema']) {
      const res = await post('name=x', { 'content-type': 'text/plain' }, url);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalid(res, 'Request body must be JSON (Content-Type: application/json)'));
    }
  });

  it('answers a well-formed object that fails the schema with validation_error', async () => {
    const res = await post('{"name": 7}');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toMatchObject({ type: 'validation_error', code: 'validation_error', status: 400 });
    expect(body.error.details.field).toBe('name');
  });

  it('answers a body of 1 MiB + 1 byte with 413 in the error shape', async () => {
    const payload = objectOfSize(1024 * 1024 + 1);
    const res = await post(payload);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(
      fullError(res, 'invalid_request_error', 'invalid_request', 413, 'Request body is larger than 1 MiB'),
    );
    // Under /api/auth the same refusal comes in the reduced shape.
    const auth = await post(payload, json, '/api/auth/_test/echo');
    expect(auth.statusCode).toBe(413);
    expect(auth.json()).toEqual({
      error: { code: 'invalid_request', message: 'Request body is larger than 1 MiB', status: 413 },
    });
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const payload = objectOfSize(1024 * 1024);
    expect((await post(payload)).statusCode).toBe(200);
  });
});

describe('X-Svc-Version', () => {
  it('uses and echoes the newest version when the header is omitted', async () => {
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-svc-version']).toBe('2026-11-01');
  });

  it('echoes a supported version', async () => {
    const res = await app.inject({ url: '/v1/organizations', headers: { 'x-svc-version': '2026-11-01' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-svc-version']).toBe('2026-11-01');
  });

  it.each([
    ['yesterday', 'X-Svc-Version must be a date in YYYY-MM-DD form', 'malformed date'],
    ['2025-01-01', 'X-Svc-Version 2025-01-01 is not supported; supported: 2026-11-01', 'unsupported version'],
  ])('refuses %s with 400 invalid_request naming the header', async (value, message, issue) => {
    const res = await app.inject({ url: '/v1/organizations', headers: { 'x-svc-version': value } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        message,
        code: 'invalid_request',
        status: 400,
        details: { field: 'X-Svc-Version', issue },
      },
      meta: metaOf(res),
    });
    // The error itself is rendered in the version used, which the header still reports.
    expect(res.headers['x-svc-version']).toBe('2026-11-01');
  });
});

describe('server errors', () => {
  const internal = (res: LightMyRequestResponse) =>
    fullError(res, 'api_error', 'internal_error', 500, 'Internal server error');

  it('answers a thrown Error with a bare internal_error, never its message', async () => {
    const res = await app.inject({ url: '/v1/_test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual(internal(res));
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('/etc/x');
  });

  it('does not pass on the message of a thrown 5xx either', async () => {
    const res = await app.inject({ url: '/v1/_test/boom-503' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual(internal(res));
    expect(res.body).not.toContain('secret');
  });
});

describe('request bodies are strict', () => {
  it('names an unknown field instead of ignoring it', async () => {
    const t = await createTestApp();
    try {
      const { user } = await t.createUser();
      const key = await t.createToken(user.id, { mode: 'test' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/reviews',
        headers: { 'x-api-key': key },
        payload: { pull_request_url: 'https://github.com/acme/shop/pull/1', options: { check_security: false } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        type: 'validation_error',
        message: 'Unknown field options',
        code: 'validation_error',
        status: 400,
        details: { field: 'options', issue: 'is not a field of this request' },
      });
      expect(await t.database.db.selectFrom('reviews').select('id').execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
