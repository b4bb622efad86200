import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { tableDigest } from './table-digest.js';

/**
 * Regressions for what every-endpoint.test.ts found: each of these answered 500 (PostgreSQL
 * refuses U+0000 in text) or a bare fastify body without a request id before it was fixed.
 */
describe('inputs the property tests found', () => {
  let t: TestApp;
  let key: string;
  let jwt: string;
  beforeAll(async () => {
    t = await createTestApp();
    const created = await t.createUser();
    jwt = created.jwt;
    key = await t.createToken(created.user.id);
  });
  afterAll(async () => t.close());

  const expectFullError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode).toBe(status);
    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(/^req_/);
    expect(res.headers['x-svc-version']).toBe('2026-11-01');
    const body = res.json();
    expect(body.error).toMatchObject({ code, status });
    expect(body.meta.request_id).toBe(requestId);
    return body.error;
  };

  it('answers 404 for a path id holding a NUL, without asking the database', async () => {
    for (const url of ['/v1/organizations/a%00b', '/v1/reviews/%00', '/v1/webhooks/x%00/deliveries']) {
      const res = await t.app.inject({ url, headers: { 'x-api-key': key } });
      expectFullError(res, 404, 'resource_not_found');
    }
  });

  it('answers 400 naming the query field that holds a NUL', async () => {
    for (const [url, field] of [
      ['/v1/reviews?after=%00', 'after'],
      ['/v1/teams?after=a%00', 'after'],
      ['/v1/reviews?repository=a/b&team_id=%00', 'team_id'],
    ] as const) {
      const res = await t.app.inject({ url, headers: { 'x-api-key': key } });
      expect(expectFullError(res, 400, 'validation_error').details.field).toBe(field);
    }
  });

  it('answers 400 naming the body field that holds a NUL, and writes nothing', async () => {
    const before = await tableDigest(t.database.db, ['request_rate_windows']);
    const team = await t.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: '{"organization_id":"org_x","name":"a\\u0000b"}',
    });
    expect(expectFullError(team, 400, 'validation_error').details.field).toBe('name');
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      payload: { name: 'ci\u0000', scopes: ['review:read'] },
    });
    expect(token.statusCode).toBe(400);
    expect(token.json()).toEqual({
      error: {
        code: 'validation_error',
        message: 'Invalid name: must not contain the NUL character (U+0000)',
        status: 400,
      },
    });
    expect(await tableDigest(t.database.db, ['request_rate_windows'])).toBe(before);
  });

  it('keeps an escaped backslash followed by u0000 as the text it is', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      payload: '{"name":"C:\\\\u0000","scopes":["review:read"]}',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('C:\\u0000');
  });

  it('answers a path that is not valid percent-encoding with 400 in the error shape', async () => {
    const res = await t.app.inject({ url: '/v1/reviews/%zz', headers: { 'x-api-key': key } });
    const error = expectFullError(res, 400, 'invalid_request');
    expect(error.message).toBe('The URL path is not valid percent-encoded UTF-8');
    const reduced = await t.app.inject({ method: 'DELETE', url: '/api/auth/tokens/%E0%A4%A' });
    expect(reduced.statusCode).toBe(400);
    expect(reduced.headers['x-request-id']).toMatch(/^req_/);
    expect(reduced.json()).toEqual({
      error: { code: 'invalid_request', message: 'The URL path is not valid percent-encoded UTF-8', status: 400 },
    });
  });

  it('answers an id longer than any id with 404 in the error shape', async () => {
    const res = await t.app.inject({ url: `/v1/reviews/${'x'.repeat(101)}`, headers: { 'x-api-key': key } });
    expectFullError(res, 404, 'resource_not_found');
  });
});
