import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../src/auth/api-token-format.js';
import { countingLookups } from '../../src/auth/authenticate-counted.js';
import type { Scope } from '../../src/auth/scopes.js';
import { newId } from '../../src/common/ids.js';
import type { Mode } from '../../src/db/schema.js';
import { findVisibleReview } from '../../src/reviews/repository/find-visible-review.js';
import { REVIEW_READ_ALONG, type ReviewForRead } from '../../src/reviews/repository/review-read-along.js';
import { PRESENTED_REVIEW_COLUMNS } from '../../src/reviews/review-presenter.js';
import { findReviewForRead } from '../../src/reviews/review-read.js';
import { REVIEW_DEADLINE_MS } from '../../src/reviews/review-service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Decisions §1 (authorization: creator or organization member, else 404) and §2 (scopes, modes). */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('review access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  async function newUser() {
    const { user } = await t.createUser();
    await t.database.db.updateTable('users').set({ plan: 'enterprise' }).where('id', '=', user.id).execute();
    return user;
  }

  const owner = () => `acc${randomBytes(4).toString('hex')}`;

  const call = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });

  async function createReview(key: string, url: string, autoReview = true) {
    const res = await call(key, 'POST', '/v1/reviews', { pull_request_url: url, auto_review: autoReview });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  }

  async function listIds(key: string): Promise<string[]> {
    const res = await call(key, 'GET', '/v1/reviews?limit=100');
    expect(res.statusCode).toBe(200);
    return (res.json().data as { id: string }[]).map((r) => r.id);
  }

  function expectNotFound(res: { statusCode: number; json(): unknown }) {
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: {
        type: expect.any(String),
        code: 'resource_not_found',
        message: expect.any(String),
        status: 404,
      },
      meta: { request_id: expect.stringMatching(/^req_/), timestamp: expect.stringMatching(ISO) },
    });
  }

  /** Every read and action on a review, as the given key sees it. */
  const everyEndpoint = (id: string) =>
    [
      ['GET', `/v1/reviews/${id}`],
      ['GET', `/v1/reviews/${id}/comments`],
      ['GET', `/v1/reviews/${id}/stats`],
      ['POST', `/v1/reviews/${id}/cancel`],
      ['POST', `/v1/reviews/${id}/retry`],
      ['POST', `/v1/reviews/${id}/start`],
    ] as const;

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
        .values({
          id,
          user_id: userId,
          organization_id: org.organization_id,
          mode,
          status: 'failed',
          pr_url: `https://github.com/${owner()}/shop/pull/${number}`,
          pr_number: number,
          pr_title: 'A pull request',
          repository: 'someone/shop',
          repository_id: '123',
          branch: 'main',
          author: 'someone',
          head_sha: null,
          options: JSON.stringify({
            auto_review: true,
            inline_comments: true,
            check_security: true,
            check_performance: true,
          }),
          attempt: 1,
          error_code: 'processing_error',
          error_message: 'x',
          created_at: now,
          updated_at: now,
          started_at: now,
          deadline_at: new Date(now.getTime() + REVIEW_DEADLINE_MS),
        })
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
