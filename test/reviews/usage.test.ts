import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/auth/scopes.js';
import { newId } from '../../src/common/ids.js';
import type { Mode, ReviewStatus } from '../../src/db/schema.js';
import { reviewRow } from '../helpers/review-row.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** GET /v1/usage: reviews per UTC day, the score distribution and totals, as the review list's reader sees them. */

const NOW = '2026-03-10T15:00:00.000Z';
const YEAR_S = 365 * 24 * 3600;

let t: TestApp;
let testKey: string;
let liveKey: string;
let writeOnlyKey: string;
let orgId: string;
let otherOrgId: string;
let teamId: string;

const orgOf = async (userId: string) =>
  (
    await t.database.db
      .selectFrom('memberships')
      .select('organization_id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
  ).organization_id;

/** A review row as the processor leaves it, made at `createdAt` (the API only makes reviews "now"). */
async function insertReview(row: {
  userId: string;
  organizationId: string;
  createdAt: string;
  status: ReviewStatus;
  score?: number;
  mode?: Mode;
  repository?: string;
  teamId?: string;
}) {
  const at = new Date(row.createdAt);
  await t.database.db
    .insertInto('reviews')
    .values(
      reviewRow({ userId: row.userId, organizationId: row.organizationId }, at, {
        team_id: row.teamId ?? null,
        mode: row.mode ?? 'test',
        status: row.status,
        repository: row.repository ?? 'acme/shop',
        pr_number: 9,
        score: row.score ?? null,
        completed_at: row.status === 'completed' ? at : null,
        error_code: row.status === 'failed' ? 'processing_error' : null,
        error_message: row.status === 'failed' ? 'x' : null,
      }),
    )
    .execute();
}

const get = (url: string, key = testKey) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

const zeroScores = () =>
  Array.from({ length: 10 }, (_, i) => ({ min: i * 10, max: i === 9 ? 100 : i * 10 + 9, count: 0 }));

const scoresWith = (counts: Record<number, number>) =>
  zeroScores().map((bucket, i) => ({ ...bucket, count: counts[i] ?? 0 }));

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  const owner = await t.createUser();
  const colleague = await t.createUser();
  const stranger = await t.createUser();
  await t.database.db.updateTable('users').set({ plan: 'enterprise' }).where('id', '=', owner.user.id).execute();
  orgId = await orgOf(owner.user.id);
  otherOrgId = await orgOf(stranger.user.id);
  // The colleague belongs to the owner's organization too: their reviews there count for the owner.
  await t.database.db
    .insertInto('memberships')
    .values({ organization_id: orgId, user_id: colleague.user.id, role: 'member' })
    .execute();
  teamId = newId('team');
  await t.database.db.insertInto('teams').values({ id: teamId, organization_id: orgId, name: 'Web' }).execute();
  testKey = await t.createToken(owner.user.id, { mode: 'test', expiresInSeconds: YEAR_S });
  liveKey = await t.createToken(owner.user.id, { mode: 'live', expiresInSeconds: YEAR_S });
  writeOnlyKey = await t.createToken(owner.user.id, {
    mode: 'test',
    scopes: ['review:write'] as Scope[],
    expiresInSeconds: YEAR_S,
  });

  const mine = { userId: owner.user.id, organizationId: orgId };
  await insertReview({ ...mine, createdAt: '2026-03-10T00:00:00.000Z', status: 'completed', score: 100 });
  await insertReview({
    userId: colleague.user.id,
    organizationId: orgId,
    createdAt: '2026-03-10T11:00:00.000Z',
    status: 'completed',
    score: 95,
    teamId,
  });
  await insertReview({ ...mine, createdAt: '2026-03-10T12:00:00.000Z', status: 'failed' });
  await insertReview({ ...mine, createdAt: '2026-03-09T09:00:00.000Z', status: 'completed', score: 65 });
  await insertReview({ ...mine, createdAt: '2026-03-09T09:30:00.000Z', status: 'pending', repository: 'acme/api' });
  await insertReview({ ...mine, createdAt: '2026-03-07T23:59:59.999Z', status: 'completed', score: 0 });
  await insertReview({ ...mine, createdAt: '2026-03-07T00:00:00.000Z', status: 'completed', score: 9 });
  await insertReview({ ...mine, createdAt: '2026-03-04T00:00:00.000Z', status: 'cancelled' });
  // Before the 7-day window (it starts 2026-03-04), inside the 30-day one (from 2026-02-09).
  await insertReview({ ...mine, createdAt: '2026-03-03T23:59:59.999Z', status: 'completed', score: 19 });
  await insertReview({ ...mine, createdAt: '2026-02-09T00:00:00.000Z', status: 'completed', score: 10 });
  // Outside every window of 30 days.
  await insertReview({ ...mine, createdAt: '2026-02-08T23:59:59.999Z', status: 'completed', score: 50 });
  // Live mode: only a live credential sees it.
  await insertReview({ ...mine, createdAt: '2026-03-10T01:00:00.000Z', status: 'completed', score: 80, mode: 'live' });
  // Another user's, in another organization: nobody here sees it.
  await insertReview({
    userId: stranger.user.id,
    organizationId: otherOrgId,
    createdAt: '2026-03-10T02:00:00.000Z',
    status: 'completed',
    score: 70,
  });

  // And one made through the API now (test pull request 2 completes with a score of 65).
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/reviews',
    headers: { 'x-api-key': testKey },
    payload: { pull_request_url: 'https://github.com/acme/shop/pull/2' },
  });
  expect(created.statusCode, created.body).toBe(201);
  await t.runJobs();
  t.clock.set(NOW);
});

afterAll(async () => t?.close());

describe('GET /v1/usage', () => {
  it('answers the last 7 days: per day, the score buckets and the totals', async () => {
    const res = await get('/v1/usage?days=7');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: {
        from: '2026-03-04T00:00:00.000Z',
        until: NOW,
        days: [
          { date: '2026-03-04', created: 1, completed: 0, failed: 0 },
          { date: '2026-03-05', created: 0, completed: 0, failed: 0 },
          { date: '2026-03-06', created: 0, completed: 0, failed: 0 },
          { date: '2026-03-07', created: 2, completed: 2, failed: 0 },
          { date: '2026-03-08', created: 0, completed: 0, failed: 0 },
          { date: '2026-03-09', created: 2, completed: 1, failed: 0 },
          { date: '2026-03-10', created: 4, completed: 3, failed: 1 },
        ],
        scores: scoresWith({ 0: 2, 6: 2, 9: 2 }),
        total: { created: 9, completed: 6, failed: 1, average_score: 55.7 },
      },
      meta: { request_id: res.headers['x-request-id'], timestamp: NOW },
    });
  });

  it('defaults to 30 days, one entry a day oldest first, the days without reviews zero', async () => {
    const res = await get('/v1/usage');
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    const expected = Array.from({ length: 30 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 1, 9 + i)).toISOString().slice(0, 10),
      created: 0,
      completed: 0,
      failed: 0,
    }));
    const counts: Record<string, [number, number, number]> = {
      '2026-02-09': [1, 1, 0],
      '2026-03-03': [1, 1, 0],
      '2026-03-04': [1, 0, 0],
      '2026-03-07': [2, 2, 0],
      '2026-03-09': [2, 1, 0],
      '2026-03-10': [4, 3, 1],
    };
    for (const day of expected) {
      const [created, completed, failed] = counts[day.date] ?? [0, 0, 0];
      Object.assign(day, { created, completed, failed });
    }
    expect(data).toEqual({
      from: '2026-02-09T00:00:00.000Z',
      until: NOW,
      days: expected,
      scores: scoresWith({ 0: 2, 1: 2, 6: 2, 9: 2 }),
      total: { created: 11, completed: 8, failed: 1, average_score: 45.4 },
    });
  });

  it('filters by organization, team and repository like the review list', async () => {
    const today = async (query: string) => {
      const res = await get(`/v1/usage?days=1&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    expect(await today(`team_id=${teamId}`)).toEqual({
      from: '2026-03-10T00:00:00.000Z',
      until: NOW,
      days: [{ date: '2026-03-10', created: 1, completed: 1, failed: 0 }],
      scores: scoresWith({ 9: 1 }),
      total: { created: 1, completed: 1, failed: 0, average_score: 95 },
    });
    expect((await today(`organization_id=${orgId}`)).total).toEqual({
      created: 4,
      completed: 3,
      failed: 1,
      average_score: 86.7,
    });
    // An organization the caller is not in shows nothing, as if it did not exist.
    expect((await today(`organization_id=${otherOrgId}`)).total).toEqual({
      created: 0,
      completed: 0,
      failed: 0,
      average_score: null,
    });
    const api = await get('/v1/usage?days=2&repository=ACME/api');
    expect(api.json().data.total).toEqual({ created: 1, completed: 0, failed: 0, average_score: null });
  });

  it('a live credential sees live reviews only', async () => {
    const res = await get('/v1/usage?days=1', liveKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      from: '2026-03-10T00:00:00.000Z',
      until: NOW,
      days: [{ date: '2026-03-10', created: 1, completed: 1, failed: 0 }],
      scores: scoresWith({ 8: 1 }),
      total: { created: 1, completed: 1, failed: 0, average_score: 80 },
    });
  });

  it('is counted against the request rate', async () => {
    const first = await get('/v1/usage?days=1');
    const second = await get('/v1/usage?days=1');
    expect(first.headers['x-ratelimit-limit']).toBe('10000');
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
  });

  it.each([
    ['days=0', 'days', 'must be a whole number from 1 to 90'],
    ['days=91', 'days', 'must be a whole number from 1 to 90'],
    ['days=abc', 'days', 'must be a whole number from 1 to 90'],
    ['days=1.5', 'days', 'must be a whole number from 1 to 90'],
    ['repository=nope', 'repository', 'must be owner/name'],
  ])('refuses %s naming the field', async (query, field, issue) => {
    const res = await get(`/v1/usage?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        type: 'validation_error',
        code: 'validation_error',
        status: 400,
        message: `Invalid ${field}: ${issue}`,
        details: { field, issue },
      },
      meta: { request_id: res.headers['x-request-id'], timestamp: NOW },
    });
  });

  it('needs review:read', async () => {
    const res = await get('/v1/usage', writeOnlyKey);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      type: 'permission_error',
      code: 'insufficient_permissions',
      status: 403,
      message: expect.stringContaining('review:read'),
    });
  });
});
