import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Decisions §2: test keys give deterministic reviews chosen by the pull-request number, without GitHub. */
describe('test-mode reviews', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    const { user } = await t.createUser();
    key = await t.createToken(user.id, { mode: 'test' });
  });
  afterAll(async () => t.close());

  const create = async (number: number, repo = 'acme/shop') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': key },
      payload: { pull_request_url: `https://github.com/${repo}/pull/${number}` },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: string; status: string };
  };
  const get = async (path: string) =>
    (await t.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } })).json();

  it('completes #1 clean with score 100 and no comments', async () => {
    const { id, status } = await create(1);
    expect(status).toBe('in_progress');
    await t.runJobs();
    const review = (await get(`/v1/reviews/${id}`)).data;
    expect(review).toMatchObject({ status: 'completed', score: 100 });
    expect(review.stats.comments_count).toBe(0);
    expect((await get(`/v1/reviews/${id}/comments`)).data).toEqual([]);
  });

  it('completes #2 with a critical security and an important bug comment', async () => {
    const { id } = await create(2);
    await t.runJobs();
    const comments = (await get(`/v1/reviews/${id}/comments`)).data;
    expect(comments.map((c: { type: string; severity: string }) => `${c.severity}/${c.type}`)).toEqual([
      'critical/security',
      'important/bug',
    ]);
    const stats = (await get(`/v1/reviews/${id}/stats`)).data;
    expect(stats.issues_by_severity).toEqual({ critical: 1, important: 1, warning: 0, info: 0 });
    const review = (await get(`/v1/reviews/${id}`)).data;
    expect(review.stats.issues).toEqual({ critical: 1, important: 1, warning: 0, suggestion: 0 });
    expect(review.score).toBe(65);
  });

  it('fails #3, and it fails again after a retry', async () => {
    const { id } = await create(3);
    await t.runJobs();
    expect((await get(`/v1/reviews/${id}`)).data).toMatchObject({ status: 'failed', error: { code: 'test_failure' } });
    const retry = await t.app.inject({ method: 'POST', url: `/v1/reviews/${id}/retry`, headers: { 'x-api-key': key } });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data).toEqual({ id, status: 'in_progress' });
    await t.runJobs();
    expect((await get(`/v1/reviews/${id}`)).data.status).toBe('failed');
  });

  it('gives the same results for the same URL every time', async () => {
    const results = [];
    for (let i = 0; i < 2; i++) {
      const { id } = await create(4242, 'octo/widgets');
      await t.runJobs();
      const review = (await get(`/v1/reviews/${id}`)).data;
      const comments = (await get(`/v1/reviews/${id}/comments`)).data.map(({ id: _, ...rest }: { id: string }) => rest);
      const stats = (await get(`/v1/reviews/${id}/stats`)).data;
      results.push({ score: review.score, summary: review.summary, stats: review.stats, comments, analysis: stats });
    }
    expect(results[1]).toEqual(results[0]);
  });
});
