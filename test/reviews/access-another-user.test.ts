import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../src/auth/api-token-format.js';
import { countingLookups } from '../../src/auth/authenticate-counted.js';
import type { Mode } from '../../src/db/schema.js';
import { findVisibleReview } from '../../src/reviews/repository/find-visible-review.js';
import { REVIEW_READ_ALONG, type ReviewForRead } from '../../src/reviews/repository/review-read-along.js';
import { PRESENTED_REVIEW_COLUMNS } from '../../src/reviews/review-presenter.js';
import { findReviewForRead } from '../../src/reviews/review-read.js';
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

  describe('another user (BOLA)', () => {
    let keyA: string;
    let keyB: string;
    let completed: string;
    let failed: string;
    let pending: string;
    let inProgress: string;
    let orgOfA: string;
    let userA: string;
    let userB: string;

    beforeAll(async () => {
      const a = await newUser();
      const b = await newUser();
      userA = a.id;
      userB = b.id;
      keyA = await t.createToken(a.id, { mode: 'test' });
      keyB = await t.createToken(b.id, { mode: 'test' });
      const repo = `https://github.com/${owner()}/shop/pull`;
      completed = await createReview(keyA, `${repo}/2`);
      failed = await createReview(keyA, `${repo}/3`);
      await t.runJobs();
      pending = await createReview(keyA, `${repo}/1`, false);
      inProgress = await createReview(keyA, `${repo}/4`);
      orgOfA = (
        await t.database.db
          .selectFrom('reviews')
          .select('organization_id')
          .where('id', '=', completed)
          .executeTakeFirstOrThrow()
      ).organization_id;
    });

    it('answers 404 resource_not_found to every read and action of B on A’s reviews, changing nothing', async () => {
      for (const id of [completed, failed, pending, inProgress]) {
        for (const [method, url] of everyEndpoint(id)) {
          const res = await call(keyB, method, url);
          expect(res.statusCode, `${method} ${url}`).toBe(404);
          expectNotFound(res);
        }
      }
      expect((await call(keyA, 'GET', `/v1/reviews/${completed}`)).json().data.status).toBe('completed');
      expect((await call(keyA, 'GET', `/v1/reviews/${failed}`)).json().data.status).toBe('failed');
      expect((await call(keyA, 'GET', `/v1/reviews/${pending}`)).json().data.status).toBe('pending');
      expect((await call(keyA, 'GET', `/v1/reviews/${inProgress}`)).json().data.status).toBe('in_progress');
    });

    it('answers each read along of one shared statement as its own credential may see it', async () => {
      const lookups = countingLookups(t.database.db, undefined, REVIEW_READ_ALONG);
      const liveKeyA = await t.createToken(userA, { mode: 'live' });
      const reads = [
        [keyA, completed],
        [keyB, completed],
        [liveKeyA, completed],
        [keyA, 'rev_missing'],
        [keyA, failed],
        [keyB, failed],
        // Ids that would break a hand-written array literal travel as data: none spoils the batch.
        [keyA, 'rev_"quoted",{braced}'],
        [keyA, 'NULL'],
        [keyA, 'back\\slash\\'],
        [keyA, 'lone \ud800 surrogate ✓'],
        [keyA, undefined],
        [keyA, completed],
      ] as const;
      const now = t.clock.now();
      const rows = await Promise.all(reads.map(([key, id]) => lookups.token(hashSecret(key), now, id)));
      expect(rows.map((row) => row?.user_id)).toEqual(reads.map(([key]) => (key === keyB ? userB : userA)));
      const found = rows.map((row) => row?.along as ReviewForRead | undefined);
      expect(found.map((review) => review && [review.id, review.status])).toEqual([
        [completed, 'completed'],
        undefined,
        undefined,
        undefined,
        [failed, 'failed'],
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        [completed, 'completed'],
      ]);
      // The row read along is the review's row as a read of its own gives it, parsed the same way.
      const own = await findVisibleReview(t.database.db, { userId: userA, mode: 'test' }, completed);
      const columns = [...PRESENTED_REVIEW_COLUMNS, 'analysis'] as const;
      expect(found[0]).toEqual(Object.fromEntries(columns.map((column) => [column, own[column]])));
      expect(found[0]?.created_at).toBeInstanceOf(Date);
      // Concurrent requests through the app, each with its own key: the same answers.
      // A NUL in an id, which PostgreSQL refuses in text, is answered before any read is shared.
      const viaApp = await Promise.all([
        call(keyA, 'GET', `/v1/reviews/${completed}`),
        call(keyB, 'GET', `/v1/reviews/${completed}`),
        call(keyA, 'GET', '/v1/reviews/rev_a%00b'),
        call(keyA, 'GET', `/v1/reviews/${failed}`),
      ]);
      expect(viaApp.map((res) => [res.statusCode, res.json().data?.status])).toEqual([
        [200, 'completed'],
        [404, undefined],
        [404, undefined],
        [200, 'failed'],
      ]);
    });

    it('reads the review itself when no read along ran for the id, as visibility allows', async () => {
      const a: { userId: string; mode: Mode } = { userId: userA, mode: 'test' };
      const read = (principal: typeof a, id: string, along?: { row: ReviewForRead | undefined }) =>
        findReviewForRead(t.database.db, principal, id, along).then(
          (review) => [review.id, review.status],
          (error: Error) => error.message,
        );
      expect(await read(a, completed)).toEqual([completed, 'completed']);
      expect(await read({ userId: userB, mode: 'test' }, completed)).toBe('Review not found');
      expect(await read({ ...a, mode: 'live' }, completed)).toBe('Review not found');
      expect(await read(a, 'rev_\u0000nul')).toBe('Review not found');
      // A read along that ran is taken as it is: found nothing is a 404 without a second read.
      expect(await read(a, completed, { row: undefined })).toBe('Review not found');
    });

    it('reads a review in the statement that authenticates the request: one statement a GET', async () => {
      const executor = t.database.db.getExecutor();
      await call(keyA, 'GET', `/v1/reviews/${completed}`); // the token's last use is now written: no write below
      const spy = vi.spyOn(executor, 'executeQuery');
      try {
        const res = await call(keyA, 'GET', `/v1/reviews/${completed}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data.id).toBe(completed);
        expect(spy).toHaveBeenCalledTimes(1);
        expect(spy.mock.calls[0]?.[0].sql).toContain('along_key');
        // Another user's review: the same single statement finds nothing, and the answer is 404.
        spy.mockClear();
        await call(keyB, 'GET', `/v1/reviews/${completed}`);
        spy.mockClear();
        expectNotFound(await call(keyB, 'GET', `/v1/reviews/${completed}`));
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
    });

    it('leaves A’s reviews out of B’s list, under every filter', async () => {
      expect(await listIds(keyB)).toEqual([]);
      for (const status of ['pending', 'in_progress', 'completed', 'failed']) {
        const res = await call(keyB, 'GET', `/v1/reviews?status=${status}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual([]);
      }
      expect(new Set(await listIds(keyA))).toEqual(new Set([completed, failed, pending, inProgress]));
    });

    it('refuses A’s review id as a list cursor for B as if it did not exist', async () => {
      const res = await call(keyB, 'GET', `/v1/reviews?after=${completed}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
    });

    it('lets a member of the review’s organization see and act on it; a non-member still cannot', async () => {
      const member = await newUser();
      const outsider = await newUser();
      const memberKey = await t.createToken(member.id, { mode: 'test' });
      const outsiderKey = await t.createToken(outsider.id, { mode: 'test' });
      await t.database.db
        .insertInto('memberships')
        .values({ organization_id: orgOfA, user_id: member.id, role: 'member' })
        .execute();

      const res = await call(memberKey, 'GET', `/v1/reviews/${completed}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: completed, status: 'completed', organization_id: orgOfA });
      expect((await call(memberKey, 'GET', `/v1/reviews/${completed}/comments`)).json().data).toHaveLength(2);
      expect((await call(memberKey, 'GET', `/v1/reviews/${completed}/stats`)).statusCode).toBe(200);
      expect(new Set(await listIds(memberKey))).toEqual(new Set([completed, failed, pending, inProgress]));
      const retry = await call(memberKey, 'POST', `/v1/reviews/${failed}/retry`);
      expect(retry.statusCode).toBe(200);
      expect(retry.json().data).toEqual({ id: failed, status: 'in_progress' });

      for (const [method, url] of everyEndpoint(completed)) expectNotFound(await call(outsiderKey, method, url));
      expect(await listIds(outsiderKey)).toEqual([]);

      // A membership of another organization gives nothing.
      const other = await newUser();
      const otherKey = await t.createToken(other.id, { mode: 'test' });
      const strangerOrg = await t.database.db
        .selectFrom('memberships')
        .select('organization_id')
        .where('user_id', '=', outsider.id)
        .executeTakeFirstOrThrow();
      await t.database.db
        .insertInto('memberships')
        .values({ organization_id: strangerOrg.organization_id, user_id: other.id, role: 'member' })
        .execute();
      expectNotFound(await call(otherKey, 'GET', `/v1/reviews/${completed}`));

      // Removing the membership takes the access away again.
      await t.database.db
        .deleteFrom('memberships')
        .where('organization_id', '=', orgOfA)
        .where('user_id', '=', member.id)
        .execute();
      expectNotFound(await call(memberKey, 'GET', `/v1/reviews/${completed}`));
      expect(await listIds(memberKey)).toEqual([]);
      await t.runJobs();
    });
  });
});
