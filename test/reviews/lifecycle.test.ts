import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/common/ids.js';
import type { ReviewStatus } from '../../src/db/schema.js';
import { QUEUES } from '../../src/jobs/queues.js';
import { failOverdueReviews, failReview, makeReviewProcessor } from '../../src/reviews/review-processor.js';
import { REVIEW_DEADLINE_MS } from '../../src/reviews/review-service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Spec 3.1 completed by decisions §4 (states), §5 (events): the review lifecycle with test keys. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Harness {
  t: TestApp;
  key: string;
  userId: string;
  /** A repository owner of this harness's own, so organizations and reviews never mix across tests. */
  owner: string;
}

async function harness(t: TestApp): Promise<Harness> {
  const { user } = await t.createUser();
  // The request rate (100/hour on free) must not get in the way of a long file.
  await t.database.db.updateTable('users').set({ plan: 'enterprise' }).where('id', '=', user.id).execute();
  const key = await t.createToken(user.id, { mode: 'test' });
  return { t, key, userId: user.id, owner: `own${randomBytes(4).toString('hex')}` };
}

const prUrl = (h: Harness, number: number, repo = 'shop') => `https://github.com/${h.owner}/${repo}/pull/${number}`;

async function create(h: Harness, number: number, options: { auto_review?: boolean } = {}) {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/v1/reviews',
    headers: { 'x-api-key': h.key },
    payload: { pull_request_url: prUrl(h, number), ...options },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; status: ReviewStatus };
}

const act = (h: Harness, id: string, action: 'start' | 'cancel' | 'retry') =>
  h.t.app.inject({ method: 'POST', url: `/v1/reviews/${id}/${action}`, headers: { 'x-api-key': h.key } });

const get = (h: Harness, path: string) => h.t.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': h.key } });

async function statusOf(h: Harness, id: string): Promise<string> {
  const res = await get(h, `/v1/reviews/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().data.status;
}

async function eventsOf(h: Harness, reviewId: string) {
  return h.t.database.db
    .selectFrom('events')
    .select(['id', 'type', 'mode', 'user_id', 'review_id', 'organization_id', 'data'])
    .where('review_id', '=', reviewId)
    .orderBy('seq')
    .execute();
}

async function jobsOf(h: Harness, reviewId: string) {
  const jobs = await h.t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUES.review).execute();
  return jobs.filter((j) => (j.payload as { review_id?: string }).review_id === reviewId);
}

/** Brings a fresh review to the given state through the API (and the worker). */
async function reviewIn(h: Harness, state: ReviewStatus): Promise<string> {
  switch (state) {
    case 'pending':
      return (await create(h, 5, { auto_review: false })).id;
    case 'in_progress':
      return (await create(h, 5)).id;
    case 'completed': {
      const { id } = await create(h, 1);
      await h.t.runJobs();
      return id;
    }
    case 'failed': {
      const { id } = await create(h, 3);
      await h.t.runJobs();
      return id;
    }
    case 'cancelled': {
      const { id } = await create(h, 5, { auto_review: false });
      expect((await act(h, id, 'cancel')).statusCode).toBe(200);
      return id;
    }
  }
}

function expectConflict(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(409);
  expect(res.json()).toEqual({
    error: { type: expect.any(String), code: 'conflict', message: expect.any(String), status: 409 },
    meta: { request_id: expect.stringMatching(/^req_/), timestamp: expect.stringMatching(ISO) },
  });
}

describe('review lifecycle', () => {
  let t: TestApp;
  let h: Harness;
  beforeAll(async () => {
    t = await createTestApp();
    h = await harness(t);
  });
  afterAll(async () => t.close());

  it('create answers 201 with exactly id, status, pull_request { url, number } and created_at', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': h.key },
      payload: { pull_request_url: prUrl(h, 1) },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      data: {
        id: expect.stringMatching(/^rev_/),
        status: 'in_progress',
        pull_request: { url: prUrl(h, 1), number: 1 },
        created_at: t.clock.now().toISOString(),
      },
      meta: { request_id: expect.stringMatching(/^req_/), timestamp: expect.stringMatching(ISO) },
    });
    expect(res.headers['x-request-id']).toBe(body.meta.request_id);
    await t.runJobs();
  });

  it('auto_review false gives pending; start moves it to in_progress; a second start is a conflict', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': h.key },
      payload: { pull_request_url: prUrl(h, 1), auto_review: false },
    });
    expect(res.statusCode).toBe(201);
    const { id, status } = res.json().data;
    expect(status).toBe('pending');
    expect(await statusOf(h, id)).toBe('pending');
    // Nothing runs a pending review.
    expect(await jobsOf(h, id)).toEqual([]);
    expect(await t.runJobs()).toBe(0);
    expect(await statusOf(h, id)).toBe('pending');

    const start = await act(h, id, 'start');
    expect(start.statusCode).toBe(200);
    expect(start.json()).toEqual({
      data: { id, status: 'in_progress' },
      meta: { request_id: expect.stringMatching(/^req_/), timestamp: expect.stringMatching(ISO) },
    });
    expect(await statusOf(h, id)).toBe('in_progress');
    expectConflict(await act(h, id, 'start'));

    await t.runJobs();
    expect(await statusOf(h, id)).toBe('completed');
  });

  describe('allowed transitions answer 200 { id, status }', () => {
    it('pending → cancel → cancelled', async () => {
      const id = await reviewIn(h, 'pending');
      const res = await act(h, id, 'cancel');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ id, status: 'cancelled' });
      expect(await statusOf(h, id)).toBe('cancelled');
    });

    it('in_progress → cancel → cancelled', async () => {
      const id = await reviewIn(h, 'in_progress');
      const res = await act(h, id, 'cancel');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ id, status: 'cancelled' });
      await t.runJobs();
      expect(await statusOf(h, id)).toBe('cancelled');
    });

    it('failed → retry → in_progress', async () => {
      const id = await reviewIn(h, 'failed');
      expect(await statusOf(h, id)).toBe('failed');
      const res = await act(h, id, 'retry');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ id, status: 'in_progress' });
      const review = (await get(h, `/v1/reviews/${id}`)).json().data;
      expect(review).toMatchObject({ status: 'in_progress', error: null });
      const jobs = await jobsOf(h, id);
      expect(jobs.map((j) => j.payload)).toEqual([{ review_id: id, attempt: 2 }]);
      await t.runJobs();
      expect(await statusOf(h, id)).toBe('failed');
    });

    it('pending → start → in_progress', async () => {
      const id = await reviewIn(h, 'pending');
      const res = await act(h, id, 'start');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ id, status: 'in_progress' });
      expect((await jobsOf(h, id)).map((j) => j.payload)).toEqual([{ review_id: id, attempt: 1 }]);
      await t.runJobs();
    });
  });

  const refused: ['cancel' | 'retry' | 'start', ReviewStatus][] = [
    ['cancel', 'completed'],
    ['cancel', 'failed'],
    ['cancel', 'cancelled'],
    ['retry', 'pending'],
    ['retry', 'in_progress'],
    ['retry', 'completed'],
    ['retry', 'cancelled'],
    ['start', 'in_progress'],
    ['start', 'completed'],
    ['start', 'failed'],
    ['start', 'cancelled'],
  ];
  it.each(refused)('refuses %s from %s with 409 conflict, changing nothing', async (action, state) => {
    const id = await reviewIn(h, state);
    expect(await statusOf(h, id)).toBe(state);
    const before = await eventsOf(h, id);
    const jobsBefore = await jobsOf(h, id);
    expectConflict(await act(h, id, action));
    expect(await statusOf(h, id)).toBe(state);
    expect(await eventsOf(h, id)).toEqual(before);
    expect(await jobsOf(h, id)).toEqual(jobsBefore);
    await t.runJobs();
  });

  it('a cancel that races completion wins: nothing is published', async () => {
    const { id } = await create(h, 2);
    expect((await act(h, id, 'cancel')).statusCode).toBe(200);
    await t.runJobs();
    expect(await statusOf(h, id)).toBe('cancelled');
    const review = (await get(h, `/v1/reviews/${id}`)).json().data;
    expect(review).toMatchObject({ score: null, summary: null, stats: null, completed_at: null });
    expect((await get(h, `/v1/reviews/${id}/comments`)).json().data).toEqual([]);
    expect(
      await t.database.db.selectFrom('review_comments').select('id').where('review_id', '=', id).execute(),
    ).toEqual([]);
    expect((await eventsOf(h, id)).map((e) => e.type)).toEqual([
      'review.created',
      'review.started',
      'review.in_progress',
      'review.cancelled',
    ]);
    // The job ran (and found the review cancelled): it is gone from the queue.
    expect(await jobsOf(h, id)).toEqual([]);
  });

  it('a cancel that lands while the engine runs wins over the publish that follows it', async () => {
    // A live review row, so the processor reads the changed files through a hook we control.
    const id = newId('rev');
    const now = t.clock.now();
    const orgId = (
      await t.database.db
        .selectFrom('memberships')
        .select('organization_id')
        .where('user_id', '=', h.userId)
        .executeTakeFirstOrThrow()
    ).organization_id;
    await t.database.db
      .insertInto('reviews')
      .values({
        id,
        user_id: h.userId,
        organization_id: orgId,
        mode: 'live',
        status: 'in_progress',
        pr_url: prUrl(h, 9),
        pr_number: 9,
        pr_title: 'Live',
        repository: `${h.owner}/shop`,
        repository_id: '1',
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
        created_at: now,
        updated_at: now,
        started_at: now,
        deadline_at: new Date(now.getTime() + REVIEW_DEADLINE_MS),
      })
      .execute();
    const liveKey = await t.createToken(h.userId, { mode: 'live' });
    const processor = makeReviewProcessor({
      db: t.database.db,
      clock: t.clock,
      publicUrl: t.config.publicUrl,
      async readChangedFiles() {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/reviews/${id}/cancel`,
          headers: { 'x-api-key': liveKey },
        });
        expect(res.statusCode).toBe(200);
        return [
          {
            path: 'src/db.js',
            status: 'modified',
            additions: 1,
            deletions: 0,
            patch: "@@ -0,0 +1 @@\n+db.query('SELECT * FROM users WHERE id = ' + req.params.id)",
          },
        ] as never;
      },
    });
    const job = {
      id: 'job_race',
      queue: QUEUES.review,
      payload: { review_id: id, attempt: 1 },
      status: 'running',
      run_at: now,
      attempts: 1,
      max_attempts: 3,
      locked_by: 'test',
      locked_until: now,
      last_error: null,
      created_at: now,
      updated_at: now,
    } as const;
    await processor(job);
    const row = await t.database.db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'cancelled', score: null, completed_at: null });
    expect(
      await t.database.db.selectFrom('review_comments').select('id').where('review_id', '=', id).execute(),
    ).toEqual([]);
    expect((await eventsOf(h, id)).map((e) => e.type)).toEqual(['review.cancelled']);
  });

  it('a retry supersedes an older attempt: that attempt’s job publishes nothing', async () => {
    // #2 would complete with comments; a deadline failure leaves attempt 1's job in the queue.
    const { id } = await create(h, 2);
    const [oldJob] = await jobsOf(h, id);
    expect(oldJob?.payload).toEqual({ review_id: id, attempt: 1 });
    expect(
      await failReview(
        t.database.db,
        { id, attempt: 1 },
        'deadline_exceeded',
        'late',
        t.clock.now(),
        t.config.publicUrl,
      ),
    ).toBe(true);
    expect((await act(h, id, 'retry')).statusCode).toBe(200);
    const jobs = await jobsOf(h, id);
    expect(
      jobs
        .map((j) => j.payload)
        .sort((a, b) => (a as { attempt: number }).attempt - (b as { attempt: number }).attempt),
    ).toEqual([
      { review_id: id, attempt: 1 },
      { review_id: id, attempt: 2 },
    ]);

    // Attempt 1's job, run on its own while attempt 2 is in progress: dropped.
    const processor = makeReviewProcessor({
      db: t.database.db,
      clock: t.clock,
      publicUrl: t.config.publicUrl,
      readChangedFiles: async () => {
        throw new Error('test reviews never read GitHub');
      },
    });
    await processor(oldJob as NonNullable<typeof oldJob>);
    const row = await t.database.db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'in_progress', attempt: 2, score: null, completed_at: null });
    expect(
      await t.database.db.selectFrom('review_comments').select('id').where('review_id', '=', id).execute(),
    ).toEqual([]);

    // The worker runs both queued jobs: only attempt 2 publishes, exactly once.
    await t.runJobs();
    expect(await statusOf(h, id)).toBe('completed');
    expect((await get(h, `/v1/reviews/${id}/comments`)).json().data).toHaveLength(2);
    const types = (await eventsOf(h, id)).map((e) => e.type);
    expect(types.filter((x) => x === 'review.completed')).toHaveLength(1);
    expect(types.filter((x) => x === 'security.alert')).toHaveLength(1);
    expect(await jobsOf(h, id)).toEqual([]);
  });

  it('comments are ordered by file then line, and stats.comments_count equals their number', async () => {
    // Other numbers draw up to four comments over several files; find ones with more than one.
    let checked = 0;
    for (let number = 4; number < 40 && checked < 3; number++) {
      const { id } = await create(h, number);
      await t.runJobs();
      const review = (await get(h, `/v1/reviews/${id}`)).json().data;
      expect(review.status).toBe('completed');
      const comments = (await get(h, `/v1/reviews/${id}/comments`)).json().data as { file: string; line: number }[];
      expect(review.stats.comments_count).toBe(comments.length);
      const issues = review.stats.issues;
      expect(issues.critical + issues.important + issues.warning + issues.suggestion).toBe(comments.length);
      const sorted = [...comments].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
      expect(comments).toEqual(sorted);
      if (comments.length > 1 && new Set(comments.map((c) => c.file)).size > 1) checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('GET /stats answers 409 before completion and 200 after', async () => {
    const pending = await reviewIn(h, 'pending');
    expectConflict(await get(h, `/v1/reviews/${pending}/stats`));
    const { id } = await create(h, 2);
    expectConflict(await get(h, `/v1/reviews/${id}/stats`));
    await t.runJobs();
    const res = await get(h, `/v1/reviews/${id}/stats`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      issues_by_type: { security: 1, performance: 0, style: 0, bug: 1, suggestion: 0 },
      issues_by_severity: { critical: 1, important: 1, warning: 0, info: 0 },
    });
    const failed = await reviewIn(h, 'failed');
    expectConflict(await get(h, `/v1/reviews/${failed}/stats`));
  });

  describe('outbox events', () => {
    const base = (id: string, status: string, number: number) => ({
      review_id: id,
      status,
      repository: { id: `test:${h.owner}/shop`, name: `${h.owner}/shop`, provider: 'github' },
      pull_request: { number, title: `Test pull request #${number}`, url: prUrl(h, number) },
      review_url: `${t.config.publicUrl}/v1/reviews/${id}`,
    });

    it('create with auto_review records review.created, review.started, review.in_progress in order', async () => {
      const { id } = await create(h, 2);
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual(['review.created', 'review.started', 'review.in_progress']);
      for (const e of events) {
        expect(e).toMatchObject({ mode: 'test', user_id: h.userId, review_id: id });
        expect(e.id).toMatch(/^evt_/);
        expect(e.data).toEqual(base(id, 'in_progress', 2));
      }
      await t.runJobs();
    });

    it('create with auto_review false records only review.created; start adds started and in_progress', async () => {
      const { id } = await create(h, 1, { auto_review: false });
      expect((await eventsOf(h, id)).map((e) => [e.type, e.data])).toEqual([
        ['review.created', base(id, 'pending', 1)],
      ]);
      await act(h, id, 'start');
      expect((await eventsOf(h, id)).map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
      ]);
      await t.runJobs();
    });

    it('completion of #2 records review.completed with exactly the decided data, and one security.alert', async () => {
      const { id } = await create(h, 2);
      await t.runJobs();
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.completed',
        'security.alert',
      ]);
      expect(events.every((e) => e.mode === 'test')).toBe(true);
      expect(events[3]?.data).toEqual({
        ...base(id, 'completed', 2),
        summary: { status: 'changes_requested', issues_found: 2, critical: 1, high: 1, medium: 0, low: 0 },
      });
      const comments = (await get(h, `/v1/reviews/${id}/comments`)).json().data as {
        id: string;
        type: string;
        severity: string;
        file: string;
        line: number;
        message: string;
        suggestion?: string;
      }[];
      const security = comments.find((c) => c.type === 'security');
      expect(security).toMatchObject({ severity: 'critical' });
      expect(events[4]?.data).toEqual({
        alert_id: security?.id,
        severity: 'critical',
        type: expect.any(String),
        repository: { id: `test:${h.owner}/shop`, name: `${h.owner}/shop` },
        file: security?.file,
        line: security?.line,
        description: security?.message,
        recommendation: expect.any(String),
        cwe: 'CWE-89',
        cvss_score: expect.any(Number),
      });
      // The test catalog's SQL injection: CVSS 9.8 (stored as real, read back exactly).
      expect(events[4]?.data).toMatchObject({ type: 'js.sql-injection', cvss_score: 9.8 });
    });

    it('completion of #1 records review.completed with status approved and no alert', async () => {
      const { id } = await create(h, 1);
      await t.runJobs();
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.completed',
      ]);
      expect(events[3]?.data).toEqual({
        ...base(id, 'completed', 1),
        summary: { status: 'approved', issues_found: 0, critical: 0, high: 0, medium: 0, low: 0 },
      });
    });

    it('cancel records review.cancelled', async () => {
      const { id } = await create(h, 1);
      await act(h, id, 'cancel');
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.cancelled',
      ]);
      expect(events[3]).toMatchObject({ mode: 'test', data: base(id, 'cancelled', 1) });
      await t.runJobs();
      expect((await eventsOf(h, id)).length).toBe(4);
    });

    it('failure records review.failed with error { code, message }; retry records started and in_progress again', async () => {
      const { id } = await create(h, 3);
      await t.runJobs();
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.failed',
      ]);
      const review = (await get(h, `/v1/reviews/${id}`)).json().data;
      expect(review.error).toEqual({ code: 'test_failure', message: expect.any(String) });
      expect(events[3]).toMatchObject({ mode: 'test' });
      expect(events[3]?.data).toEqual({
        ...base(id, 'failed', 3),
        error: { code: 'test_failure', message: review.error.message },
      });
      await act(h, id, 'retry');
      await t.runJobs();
      expect((await eventsOf(h, id)).map((e) => e.type).slice(4)).toEqual([
        'review.started',
        'review.in_progress',
        'review.failed',
      ]);
    });
  });
});

describe('review deadline', () => {
  let t: TestApp;
  let h: Harness;
  beforeAll(async () => {
    t = await createTestApp();
    h = await harness(t);
  });
  afterAll(async () => t.close());

  it('fails an in-progress review 10 minutes after it started, with deadline_exceeded and review.failed', async () => {
    const { id } = await create(h, 2);
    t.clock.advance(REVIEW_DEADLINE_MS - 1);
    expect(await failOverdueReviews(t.database.db, t.clock.now(), t.config.publicUrl)).toBe(0);
    expect(await statusOf(h, id)).toBe('in_progress');

    t.clock.advance(2);
    expect(await failOverdueReviews(t.database.db, t.clock.now(), t.config.publicUrl)).toBe(1);
    const review = (await get(h, `/v1/reviews/${id}`)).json().data;
    expect(review).toMatchObject({
      status: 'failed',
      error: { code: 'deadline_exceeded', message: expect.any(String) },
      completed_at: null,
    });
    const events = await eventsOf(h, id);
    expect(events.map((e) => e.type)).toEqual([
      'review.created',
      'review.started',
      'review.in_progress',
      'review.failed',
    ]);
    expect(events[3]).toMatchObject({
      mode: 'test',
      data: {
        review_id: id,
        status: 'failed',
        error: { code: 'deadline_exceeded', message: review.error.message },
      },
    });

    // The late job finds the review failed and publishes nothing; a second sweep does nothing.
    await t.runJobs();
    expect(await statusOf(h, id)).toBe('failed');
    expect((await get(h, `/v1/reviews/${id}/comments`)).json().data).toEqual([]);
    expect(await failOverdueReviews(t.database.db, t.clock.now(), t.config.publicUrl)).toBe(0);
    expect((await eventsOf(h, id)).length).toBe(4);

    // It can be retried, with a fresh deadline, and then completes.
    expect((await act(h, id, 'retry')).statusCode).toBe(200);
    expect(await failOverdueReviews(t.database.db, t.clock.now(), t.config.publicUrl)).toBe(0);
    await t.runJobs();
    expect((await get(h, `/v1/reviews/${id}`)).json().data).toMatchObject({ status: 'completed', error: null });
  });

  it('does not touch pending reviews', async () => {
    const { id } = await create(h, 1, { auto_review: false });
    t.clock.advance(REVIEW_DEADLINE_MS * 3);
    expect(await failOverdueReviews(t.database.db, t.clock.now(), t.config.publicUrl)).toBe(0);
    expect(await statusOf(h, id)).toBe('pending');
  });
});
