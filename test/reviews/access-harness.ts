import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Decisions §1 (authorization: creator or organization member, else 404) and §2 (scopes, modes). */

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export let t: TestApp;

export async function newUser() {
  const { user } = await t.createUser();
  await t.database.db.updateTable('users').set({ plan: 'enterprise' }).where('id', '=', user.id).execute();
  return user;
}

export const owner = () => `acc${randomBytes(4).toString('hex')}`;

export const call = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });

export async function createReview(key: string, url: string, autoReview = true) {
  const res = await call(key, 'POST', '/v1/reviews', { pull_request_url: url, auto_review: autoReview });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

export async function listIds(key: string): Promise<string[]> {
  const res = await call(key, 'GET', '/v1/reviews?limit=100');
  expect(res.statusCode).toBe(200);
  return (res.json().data as { id: string }[]).map((r) => r.id);
}

export function expectNotFound(res: { statusCode: number; json(): unknown }) {
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
export const everyEndpoint = (id: string) =>
  [
    ['GET', `/v1/reviews/${id}`],
    ['GET', `/v1/reviews/${id}/comments`],
    ['GET', `/v1/reviews/${id}/stats`],
    ['POST', `/v1/reviews/${id}/cancel`],
    ['POST', `/v1/reviews/${id}/retry`],
    ['POST', `/v1/reviews/${id}/start`],
  ] as const;

/** One app for the file's tests, started before them and closed after. */
export function useReviewAccessApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());
}
