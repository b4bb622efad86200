import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/auth/scopes.js';
import { newId } from '../../src/common/ids.js';
import {
  call,
  createReview,
  everyEndpoint,
  expectNotFound,
  newUser,
  owner,
  t,
  useReviewAccessApp,
} from './access-harness.js';

describe('review access', () => {
  useReviewAccessApp();

  describe('scopes', () => {
    let readKey: string;
    let writeKey: string;
    let id: string;

    beforeAll(async () => {
      const user = await newUser();
      const fullKey = await t.createToken(user.id, { mode: 'test' });
      readKey = await t.createToken(user.id, { mode: 'test', scopes: ['review:read'] as Scope[] });
      writeKey = await t.createToken(user.id, { mode: 'test', scopes: ['review:write'] as Scope[] });
      id = await createReview(fullKey, `https://github.com/${owner()}/shop/pull/1`, false);
    });

    function expectForbidden(res: { statusCode: number; json(): unknown }, scope: string) {
      expect(res.statusCode).toBe(403);
      const body = res.json() as { error: { code: string; message: string; status: number } };
      expect(body.error).toMatchObject({ code: 'insufficient_permissions', status: 403 });
      expect(body.error.message).toContain(scope);
    }

    it('review:read alone reads, but cannot create, start, cancel or retry', async () => {
      const got = await call(readKey, 'GET', `/v1/reviews/${id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json().data.id).toBe(id);
      expect((await call(readKey, 'GET', '/v1/reviews')).statusCode).toBe(200);
      expect((await call(readKey, 'GET', `/v1/reviews/${id}/comments`)).statusCode).toBe(200);

      expectForbidden(
        await call(readKey, 'POST', '/v1/reviews', { pull_request_url: `https://github.com/${owner()}/shop/pull/1` }),
        'review:write',
      );
      for (const action of ['start', 'cancel', 'retry']) {
        expectForbidden(await call(readKey, 'POST', `/v1/reviews/${id}/${action}`), 'review:write');
      }
      expect((await call(readKey, 'GET', `/v1/reviews/${id}`)).json().data.status).toBe('pending');
    });

    it('review:write alone acts, but cannot read', async () => {
      for (const url of [`/v1/reviews/${id}`, '/v1/reviews', `/v1/reviews/${id}/comments`, `/v1/reviews/${id}/stats`]) {
        expectForbidden(await call(writeKey, 'GET', url), 'review:read');
      }
      const cancel = await call(writeKey, 'POST', `/v1/reviews/${id}/cancel`);
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json().data).toEqual({ id, status: 'cancelled' });
    });

    it('a scope check comes before the existence check: no id probing without the scope', async () => {
      expectForbidden(await call(writeKey, 'GET', '/v1/reviews/rev_doesnotexist'), 'review:read');
      expectForbidden(await call(readKey, 'POST', '/v1/reviews/rev_doesnotexist/cancel'), 'review:write');
    });
  });

  describe('unknown ids', () => {
    it('answers 404 resource_not_found for an unknown review id on every endpoint', async () => {
      const user = await newUser();
      const key = await t.createToken(user.id, { mode: 'test' });
      for (const id of [newId('rev'), 'rev_unknown', 'not-even-an-id']) {
        for (const [method, url] of everyEndpoint(id)) expectNotFound(await call(key, method, url));
      }
    });
  });
});
