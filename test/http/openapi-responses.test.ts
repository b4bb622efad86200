import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

/**
 * Issue 3: responses match the OpenAPI document. Every answer below is checked against the schema
 * the document publishes for its path, method and status, with a JSON Schema 2020-12 validator
 * that has nothing to do with the zod schemas that produced the document.
 */
describe('responses match the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  let key: string;
  let jwt: string;
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  beforeAll(async () => {
    t = await createTestApp();
    const created = await t.createUser();
    jwt = created.jwt;
    await setPlan(t.database.db, created.user.id, 'enterprise');
    key = await t.createToken(created.user.id, { mode: 'test' });
    doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  });
  afterAll(async () => t.close());

  const check = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    template: string,
    payload?: object,
    auth = key,
  ) => {
    const res = await t.app.inject({
      method,
      url,
      headers: auth.startsWith('svc_') ? { 'x-api-key': auth } : { authorization: `Bearer ${auth}` },
      ...(payload ? { payload } : {}),
    });
    const operation = doc.paths[template]?.[method.toLowerCase()];
    expect(operation, `${method} ${template} is documented`).toBeDefined();
    const documented = operation?.responses[String(res.statusCode)];
    expect(documented, `${method} ${template} documents status ${res.statusCode}`).toBeDefined();
    const schema = documented?.content?.['application/json']?.schema;
    if (res.statusCode !== 204) {
      expect(schema).toBeDefined();
      const valid = ajv.validate(schema as object, res.json());
      expect(valid, `${method} ${url} ${res.statusCode}: ${ajv.errorsText()}`).toBe(true);
    }
    return res;
  };

  it('holds for the review endpoints, successes and errors alike', async () => {
    const created = await check('POST', '/v1/reviews', '/v1/reviews', {
      pull_request_url: 'https://github.com/acme/shop/pull/2',
    });
    const id = created.json().data.id as string;
    await check('GET', `/v1/reviews/${id}/stats`, '/v1/reviews/{id}/stats');
    await t.runJobs();
    await check('GET', `/v1/reviews/${id}`, '/v1/reviews/{id}');
    await check('GET', `/v1/reviews/${id}/comments`, '/v1/reviews/{id}/comments');
    await check('GET', `/v1/reviews/${id}/stats`, '/v1/reviews/{id}/stats');
    await check('GET', '/v1/reviews?limit=1', '/v1/reviews');
    await check('POST', `/v1/reviews/${id}/cancel`, '/v1/reviews/{id}/cancel');
    const pending = await check('POST', '/v1/reviews', '/v1/reviews', {
      pull_request_url: 'https://github.com/acme/shop/pull/7',
      auto_review: false,
    });
    await check('POST', `/v1/reviews/${pending.json().data.id}/start`, '/v1/reviews/{id}/start');
    await check('POST', '/v1/reviews', '/v1/reviews', { pull_request_url: 'https://example.com/x' });
    await check('GET', '/v1/reviews/rev_unknown', '/v1/reviews/{id}');
    await check('GET', '/v1/usage?days=7', '/v1/usage');
    await check('GET', '/v1/usage?days=0', '/v1/usage');
  });

  it('holds for webhooks and their deliveries', async () => {
    const created = await check('POST', '/v1/webhooks', '/v1/webhooks', {
      url: 'https://hooks.example.com/redline',
      events: ['review.completed'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    await check('GET', '/v1/webhooks', '/v1/webhooks');
    await check('GET', `/v1/webhooks/${id}`, '/v1/webhooks/{id}');
    await check('PATCH', `/v1/webhooks/${id}`, '/v1/webhooks/{id}', { events: ['review.completed', 'security.alert'] });
    await check('POST', `/v1/webhooks/${id}/test`, '/v1/webhooks/{id}/test');
    const deliveries = await check('GET', `/v1/webhooks/${id}/deliveries`, '/v1/webhooks/{id}/deliveries');
    const delivery = deliveries.json().data[0]?.id as string;
    expect(delivery).toBeDefined();
    await check(
      'POST',
      `/v1/webhooks/${id}/deliveries/${delivery}/redeliver`,
      '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    );
    await check('POST', '/v1/webhooks', '/v1/webhooks', { url: 'ftp://example.com', events: [] });
    await check('DELETE', `/v1/webhooks/${id}`, '/v1/webhooks/{id}');
    await check('GET', `/v1/webhooks/${id}`, '/v1/webhooks/{id}');
  });

  it('holds for organizations, teams and tokens', async () => {
    const orgs = await check('GET', '/v1/organizations', '/v1/organizations', undefined, jwt);
    const orgId = orgs.json().data[0].id as string;
    await check('GET', `/v1/organizations/${orgId}`, '/v1/organizations/{id}', undefined, jwt);
    const team = await check('POST', '/v1/teams', '/v1/teams', { organization_id: orgId, name: 'Docs' }, jwt);
    await check('GET', `/v1/teams/${team.json().data.id}`, '/v1/teams/{id}', undefined, jwt);
    await check('GET', '/v1/teams', '/v1/teams', undefined, jwt);
    await check('POST', '/api/auth/tokens', '/api/auth/tokens', { name: 'ci', scopes: ['review:read'] }, jwt);
    await check('GET', '/api/auth/tokens', '/api/auth/tokens', undefined, jwt);
    await check('POST', '/api/auth/tokens', '/api/auth/tokens', { name: '', scopes: [] }, jwt);
  });
});
