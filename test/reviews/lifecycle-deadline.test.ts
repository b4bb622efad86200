import { describe, expect, it } from 'vitest';
import { failOverdueReviews } from '../../src/reviews/review-processor.js';
import { REVIEW_DEADLINE_MS } from '../../src/reviews/review-service.js';
import { act, create, eventsOf, get, h, statusOf, t, useLifecycleApp } from './lifecycle-harness.js';

describe('review deadline', () => {
  useLifecycleApp();

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
