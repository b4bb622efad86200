import { describe, expect, it } from 'vitest';
import { newId } from '../../src/common/ids.js';
import { QUEUES } from '../../src/jobs/queues.js';
import { failReview, makeReviewProcessor } from '../../src/reviews/review-processor.js';
import { REVIEW_DEADLINE_MS } from '../../src/reviews/review-service.js';
import { reviewRow } from '../helpers/review-row.js';
import {
  act,
  create,
  eventsOf,
  expectConflict,
  get,
  h,
  jobsOf,
  prUrl,
  reviewIn,
  statusOf,
  t,
  useLifecycleApp,
} from './lifecycle-harness.js';

describe('review lifecycle', () => {
  useLifecycleApp();

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
      .values(
        reviewRow({ userId: h.userId, organizationId: orgId }, now, {
          id,
          status: 'in_progress',
          pr_url: prUrl(h, 9),
          pr_number: 9,
          pr_title: 'Live',
          repository: `${h.owner}/shop`,
          repository_id: '1',
          attempt: 1,
          started_at: now,
          deadline_at: new Date(now.getTime() + REVIEW_DEADLINE_MS),
        }),
      )
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
});
