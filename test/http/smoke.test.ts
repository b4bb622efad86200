import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('organizations over a token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('lists the personal organization of a local user', async () => {
    const { user } = await t.createUser('alice');
    const token = await t.createToken(user.id, { scopes: ['org:read'] });
    const res = await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: { 'x-api-key': token } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0].login).toBe('alice');
    expect(body.meta.request_id).toBe(res.headers['x-request-id']);
  });
});
