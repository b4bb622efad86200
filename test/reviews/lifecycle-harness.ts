import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ReviewStatus } from '../../src/db/schema.js';
import { QUEUES } from '../../src/jobs/queues.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Spec 3.1 completed by decisions §4 (states), §5 (events): the review lifecycle with test keys. */

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface Harness {
  t: TestApp;
  key: string;
  userId: string;
  /** A repository owner of this harness's own, so organizations and reviews never mix across tests. */
  owner: string;
}

export async function harness(t: TestApp): Promise<Harness> {
  const { user } = await t.createUser();
  // The request rate (100/hour on free) must not get in the way of a long file.
  await t.database.db.updateTable('users').set({ plan: 'enterprise' }).where('id', '=', user.id).execute();
  const key = await t.createToken(user.id, { mode: 'test' });
  return { t, key, userId: user.id, owner: `own${randomBytes(4).toString('hex')}` };
}

export const prUrl = (h: Harness, number: number, repo = 'shop') =>
  `https://github.com/${h.owner}/${repo}/pull/${number}`;

export async function create(h: Harness, number: number, options: { auto_review?: boolean } = {}) {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/v1/reviews',
    headers: { 'x-api-key': h.key },
    payload: { pull_request_url: prUrl(h, number), ...options },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; status: ReviewStatus };
}

export const act = (h: Harness, id: string, action: 'start' | 'cancel' | 'retry') =>
  h.t.app.inject({ method: 'POST', url: `/v1/reviews/${id}/${action}`, headers: { 'x-api-key': h.key } });

export const get = (h: Harness, path: string) =>
  h.t.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': h.key } });

export async function statusOf(h: Harness, id: string): Promise<string> {
  const res = await get(h, `/v1/reviews/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().data.status;
}

export async function eventsOf(h: Harness, reviewId: string) {
  return h.t.database.db
    .selectFrom('events')
    .select(['id', 'type', 'mode', 'user_id', 'review_id', 'organization_id', 'data'])
    .where('review_id', '=', reviewId)
    .orderBy('seq')
    .execute();
}

export async function jobsOf(h: Harness, reviewId: string) {
  const jobs = await h.t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUES.review).execute();
  return jobs.filter((j) => (j.payload as { review_id?: string }).review_id === reviewId);
}

/** Brings a fresh review to the given state through the API (and the worker). */
export async function reviewIn(h: Harness, state: ReviewStatus): Promise<string> {
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

export function expectConflict(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(409);
  expect(res.json()).toEqual({
    error: { type: expect.any(String), code: 'conflict', message: expect.any(String), status: 409 },
    meta: { request_id: expect.stringMatching(/^req_/), timestamp: expect.stringMatching(ISO) },
  });
}

export let t: TestApp;
export let h: Harness;

/** One app and one harness (a user with a test key) for the file's tests. */
export function useLifecycleApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
    h = await harness(t);
  });
  afterAll(async () => t.close());
}
