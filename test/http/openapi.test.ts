import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Decisions §3: the OpenAPI 3.1 document of every endpoint is served at {base_url}/openapi.json,
// generated from the schemas that validate requests; /docs is a readable page of it.

// biome-ignore lint/suspicious/noExplicitAny: walking a parsed JSON document
type Json = Record<string, any>;

let t: TestApp;
let doc: Json;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  doc = res.json();
});

afterAll(async () => t?.close());

/** The JSON schema of one documented response. */
function responseSchema(path: string, method: string, status: string): Json {
  const schema = doc.paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
  expect(schema, `${method.toUpperCase()} ${path} ${status}`).toBeDefined();
  return schema;
}

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('names the API, the server and the supported X-Svc-Version dates', () => {
    expect(doc.info.title).toBe('Redline API');
    expect(doc.info.version).toBe('2026-11-01');
    expect(doc.info.description).toContain('2026-11-01');
    expect(doc.servers).toEqual([{ url: 'http://redline.test' }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearerAuth', 'sessionCookie']);
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'redline_session',
    });
  });

  it('lists the sign-in, token and organization endpoints with OpenAPI path templates', () => {
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/auth/scm',
        '/api/auth/scm/callback',
        '/api/auth/tokens',
        '/api/auth/tokens/{token_id}',
        '/api/auth/session',
        '/v1/organizations',
        '/v1/organizations/{id}',
      ]),
    );
    // fastify's ":param" syntax must never reach the document.
    expect(paths.filter((p) => p.includes(':'))).toEqual([]);
    expect(doc.paths['/v1/organizations/{id}'].get.parameters).toEqual([
      { schema: { type: 'string', maxLength: 100 }, in: 'path', name: 'id', required: true },
    ]);
    expect(doc.paths['/api/auth/tokens/{token_id}'].delete.parameters).toEqual([
      { schema: { type: 'string', maxLength: 100 }, in: 'path', name: 'token_id', required: true },
    ]);
  });

  it('leaves out the operational routes', () => {
    for (const hidden of [
      '/healthz',
      '/readyz',
      '/metrics',
      '/v1/openapi.json',
      '/docs',
      '/docs/',
      '/',
      '/app',
      '/app/assets/{name}',
    ]) {
      expect(doc.paths[hidden], hidden).toBeUndefined();
    }
  });

  it('documents the organization responses in the { data, meta } envelope and the full error shape', () => {
    const list = responseSchema('/v1/organizations', 'get', '200');
    expect(list.required).toEqual(expect.arrayContaining(['data', 'pagination', 'meta']));
    expect(list.properties.data.type).toBe('array');
    expect(list.properties.data.items.required).toEqual(
      expect.arrayContaining(['id', 'login', 'name', 'plan', 'created_at', 'role']),
    );
    const one = responseSchema('/v1/organizations/{id}', 'get', '200');
    expect(one.required).toEqual(expect.arrayContaining(['data', 'meta']));
    expect(one.properties.meta.required).toEqual(['request_id', 'timestamp']);
    const notFound = responseSchema('/v1/organizations/{id}', 'get', '404');
    expect(notFound.required).toEqual(['error', 'meta']);
    expect(notFound.properties.error.required).toEqual(expect.arrayContaining(['type', 'message', 'code', 'status']));
  });

  it('documents the token endpoints without a data wrapper and with the reduced error shape', () => {
    const created = responseSchema('/api/auth/tokens', 'post', '201');
    expect(created.required).toEqual(
      expect.arrayContaining(['token', 'id', 'name', 'scopes', 'mode', 'created_at', 'expires_at']),
    );
    expect(created.properties.data).toBeUndefined();
    const body = doc.paths['/api/auth/tokens'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['name', 'scopes']));
    expect(responseSchema('/api/auth/tokens', 'get', '200').required).toEqual(['tokens']);
    expect(responseSchema('/api/auth/tokens/{token_id}', 'delete', '200').required).toEqual(['success', 'message']);
    const unauthorized = responseSchema('/api/auth/tokens', 'get', '401');
    expect(unauthorized.required).toEqual(['error']);
    expect(Object.keys(unauthorized.properties.error.properties).sort()).toEqual(['code', 'message', 'status']);
    expect(responseSchema('/api/auth/scm', 'get', '200').required).toEqual(['redirect_url']);
    expect(responseSchema('/api/auth/scm/callback', 'get', '200').required).toEqual(
      expect.arrayContaining(['token', 'user']),
    );
  });

  it('gives every documented operation a success response with a body schema', () => {
    // A route added without a response schema would be invisible to clients generated from this.
    const missing: string[] = [];
    for (const [path, operations] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(operations)) {
        const ok = Object.entries<Json>(operation.responses ?? {}).some(
          ([status, r]) => status === '204' || (/^2\d\d$/.test(status) && r.content?.['application/json']?.schema),
        );
        if (!ok) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('GET /docs', () => {
  it('serves an HTML page', async () => {
    const res = await t.app.inject({ url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/<html/i);
  });
});
