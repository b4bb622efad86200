import { describe, expect, it } from 'vitest';
import type { ReviewStatus } from '../../src/db/schema.js';
import {
  act,
  eventsOf,
  expectConflict,
  get,
  h,
  ISO,
  jobsOf,
  prUrl,
  reviewIn,
  statusOf,
  t,
  useLifecycleApp,
} from './lifecycle-harness.js';

describe('review lifecycle', () => {
  useLifecycleApp();

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
});
