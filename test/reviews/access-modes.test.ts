import { describe, expect, it } from 'vitest';
import { newId } from '../../src/common/ids.js';
import type { Mode } from '../../src/db/schema.js';
import { REVIEW_DEADLINE_MS } from '../../src/reviews/review-service.js';
import { reviewRow } from '../helpers/review-row.js';
import {
  call,
  createReview,
  everyEndpoint,
  expectNotFound,
  listIds,
  newUser,
  owner,
  t,
  useReviewAccessApp,
} from './access-harness.js';

describe('review access', () => {
  useReviewAccessApp();

  describe('modes', () => {
    async function insertReview(userId: string, mode: Mode) {
      const id = newId('rev');
      const now = t.clock.now();
      const org = await t.database.db
        .selectFrom('memberships')
        .select('organization_id')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      const number = 7;
      await t.database.db
        .insertInto('reviews')
        .values(
          reviewRow({ userId, organizationId: org.organization_id }, now, {
            id,
            mode,
            status: 'failed',
            pr_url: `https://github.com/${owner()}/shop/pull/${number}`,
            pr_number: number,
            repository: 'someone/shop',
            attempt: 1,
            error_code: 'processing_error',
            error_message: 'x',
            started_at: now,
            deadline_at: new Date(now.getTime() + REVIEW_DEADLINE_MS),
          }),
        )
        .execute();
      return id;
    }

    it('a test key never sees a live review of the same user', async () => {
      const user = await newUser();
      const testKey = await t.createToken(user.id, { mode: 'test' });
      const liveKey = await t.createToken(user.id, { mode: 'live' });
      const live = await insertReview(user.id, 'live');

      expect((await call(liveKey, 'GET', `/v1/reviews/${live}`)).statusCode).toBe(200);
      expect(await listIds(liveKey)).toEqual([live]);

      for (const [method, url] of everyEndpoint(live)) expectNotFound(await call(testKey, method, url));
      expect(await listIds(testKey)).toEqual([]);
      // Nothing moved: the refused retry did not run.
      expect((await call(liveKey, 'GET', `/v1/reviews/${live}`)).json().data.status).toBe('failed');
    });

    it('a live key never sees a test review of the same user', async () => {
      const user = await newUser();
      const testKey = await t.createToken(user.id, { mode: 'test' });
      const liveKey = await t.createToken(user.id, { mode: 'live' });
      const test = await createReview(testKey, `https://github.com/${owner()}/shop/pull/2`);
      await t.runJobs();

      expect((await call(testKey, 'GET', `/v1/reviews/${test}`)).json().data.status).toBe('completed');
      for (const [method, url] of everyEndpoint(test)) expectNotFound(await call(liveKey, method, url));
      expect(await listIds(liveKey)).toEqual([]);
      expect(await listIds(testKey)).toEqual([test]);
    });

    it('organization membership does not cross modes either', async () => {
      const a = await newUser();
      const b = await newUser();
      const live = await insertReview(a.id, 'live');
      const org = await t.database.db
        .selectFrom('reviews')
        .select('organization_id')
        .where('id', '=', live)
        .executeTakeFirstOrThrow();
      await t.database.db
        .insertInto('memberships')
        .values({ organization_id: org.organization_id, user_id: b.id, role: 'member' })
        .execute();
      const bLive = await t.createToken(b.id, { mode: 'live' });
      const bTest = await t.createToken(b.id, { mode: 'test' });
      expect((await call(bLive, 'GET', `/v1/reviews/${live}`)).statusCode).toBe(200);
      expectNotFound(await call(bTest, 'GET', `/v1/reviews/${live}`));
    });
  });
});
