import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import type { ReviewRow } from '../../src/db/schema.js';
import { SORTS } from '../../src/reviews/review-schemas.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Spec 4.2 / 8.3 and decisions §4: listing reviews with keyset pagination, sorts and filters. */

type Sort = (typeof SORTS)[number];
const STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
type Status = (typeof STATUSES)[number];
const REPOS = ['acme/shop', 'acme/api', 'octo/widgets'] as const;

interface ListedReview {
  id: string;
  status: Status;
  score: number | null;
  created_at: string;
  completed_at: string | null;
  pull_request: { repository: string };
}
interface ListBody {
  data: ListedReview[];
  pagination: { has_more: boolean; next_cursor: string | null; prev_cursor?: string | null };
}

interface Filters {
  status?: Status | undefined;
  repository?: string | undefined;
  created_after?: string | undefined;
  created_before?: string | undefined;
}

let t: TestApp;
let userId: string;
let key: string;

const create = async (apiKey: string, number: number, repo: string, autoReview = true) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/reviews',
    headers: { 'x-api-key': apiKey },
    payload: { pull_request_url: `https://github.com/${repo}/pull/${number}`, auto_review: autoReview },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; status: string };
};

const cancel = async (apiKey: string, id: string) => {
  const res = await t.app.inject({ method: 'POST', url: `/v1/reviews/${id}/cancel`, headers: { 'x-api-key': apiKey } });
  expect(res.statusCode, res.body).toBe(200);
};

const listRaw = (query: Record<string, string | number | undefined>, apiKey = key) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  return t.app.inject({ method: 'GET', url: `/v1/reviews?${params}`, headers: { 'x-api-key': apiKey } });
};

const list = async (query: Record<string, string | number | undefined>, apiKey = key): Promise<ListBody> => {
  const res = await listRaw(query, apiKey);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListBody;
};

/** The user's own test-mode rows, straight from the database. */
const ownRows = (): Promise<ReviewRow[]> =>
  t.database.db
    .selectFrom('reviews')
    .selectAll()
    .where('user_id', '=', userId)
    .where('mode', '=', 'test')
    .execute() as Promise<ReviewRow[]>;

/** The sort key as decisions §4 orders it: no score sorts below 0, not completed before every completion. */
function sortKey(row: ReviewRow, sort: Sort): number {
  switch (sort.replace(/^-/, '')) {
    case 'score':
      return row.score ?? -1;
    case 'completed_at':
      return row.completed_at === null ? 0 : new Date(row.completed_at).getTime();
    default:
      return new Date(row.created_at).getTime();
  }
}

/** The expected list, computed independently of the service: filter, then order by (key, id). */
function expectedIds(rows: ReviewRow[], sort: Sort, filters: Filters): string[] {
  const after = filters.created_after === undefined ? undefined : Date.parse(filters.created_after);
  const before = filters.created_before === undefined ? undefined : Date.parse(filters.created_before);
  const sign = sort.startsWith('-') ? -1 : 1;
  return rows
    .filter((r) => filters.status === undefined || r.status === filters.status)
    .filter((r) => filters.repository === undefined || r.repository.toLowerCase() === filters.repository.toLowerCase())
    .filter((r) => after === undefined || new Date(r.created_at).getTime() > after)
    .filter((r) => before === undefined || new Date(r.created_at).getTime() < before)
    .sort((a, b) => {
      const ka = sortKey(a, sort);
      const kb = sortKey(b, sort);
      if (ka !== kb) return sign * (ka - kb);
      return sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    })
    .map((r) => r.id);
}

const ids = (body: ListBody) => body.data.map((r) => r.id);

beforeAll(async () => {
  t = await createTestApp();
  const { user } = await t.createUser();
  userId = user.id;
  await setPlan(t.database.db, user.id, 'enterprise');
  key = await t.createToken(user.id, { mode: 'test' });

  // Another user's reviews on the same repositories: never listed for our user.
  const other = await t.createUser();
  await setPlan(t.database.db, other.user.id, 'enterprise');
  const otherKey = await t.createToken(other.user.id, { mode: 'test' });
  for (const repo of REPOS) await create(otherKey, 7, repo);

  // ~40 reviews: varied repositories and numbers (1 scores 100, 2 scores 65, 3 fails, others drawn
  // from the URL), some left pending, groups sharing one created_at, batches completed at
  // different instants (and several at the same one), a few cancelled.
  const numbers = [1, 2, 3, 10, 11, 1, 12, 2, 13, 3, 14, 15, 1, 16, 17, 2, 18, 19, 20, 3];
  const created: { id: string; status: string }[] = [];
  for (let i = 0; i < 40; i++) {
    if (i % 4 !== 1) t.clock.advance(3); // every fourth create shares the previous one's created_at
    const number = numbers[i % numbers.length] as number;
    const repo = REPOS[i % REPOS.length] as string;
    created.push(await create(key, number + (i >= 20 ? 100 * (i % 3) : 0), repo, i % 5 !== 4));
    if (i % 8 === 7 && i < 32) {
      t.clock.advance(5);
      await t.runJobs();
    }
  }
  // The last 8 stay in progress / pending; cancel a few of each.
  const pending = created.filter((r) => r.status === 'pending');
  const running = created.slice(32).filter((r) => r.status === 'in_progress');
  for (const r of [pending[0], pending.at(-1), running[0], running[1]]) if (r) await cancel(key, r.id);
});

afterAll(async () => t?.close());

describe('GET /v1/reviews', () => {
  it('was seeded with every status, ties on every sort key, and hides other users', async () => {
    const rows = await ownRows();
    expect(rows.length).toBe(40);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(STATUSES));
    const dup = (values: unknown[]) => new Set(values).size < values.length;
    expect(dup(rows.map((r) => new Date(r.created_at).getTime()))).toBe(true);
    expect(dup(rows.filter((r) => r.score !== null).map((r) => r.score))).toBe(true);
    expect(
      dup(rows.filter((r) => r.completed_at !== null).map((r) => new Date(r.completed_at as Date).getTime())),
    ).toBe(true);
    const all = await list({ limit: 100 });
    expect(all.data).toHaveLength(40);
    expect(all.pagination.has_more).toBe(false);
    expect(all.pagination.next_cursor).toBeNull();
    expect(new Set(ids(all))).toEqual(new Set(rows.map((r) => r.id)));
  });

  it('defaults to 25 items, newest first', async () => {
    const rows = await ownRows();
    const page = await list({});
    expect(ids(page)).toEqual(expectedIds(rows, '-created_at', {}).slice(0, 25));
    expect(page.pagination.has_more).toBe(true);
    expect(page.pagination.next_cursor).toBe(page.data[24]?.id);
  });

  it('walks every sort and filter forward and backward to exactly the filtered, ordered list', async () => {
    const rows = await ownRows();
    const stamps = [...new Set(rows.map((r) => new Date(r.created_at).getTime()))].map((ms) =>
      new Date(ms).toISOString(),
    );
    // Each filter is present a third of the time, so most runs still list several pages.
    const maybe = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight: 1 });
    const filtersArb = fc.record({
      status: maybe(fc.constantFrom(...STATUSES)),
      repository: maybe(fc.constantFrom(...REPOS)),
      created_after: maybe(fc.constantFrom(...stamps)),
      created_before: maybe(fc.constantFrom(...stamps)),
    });
    let multiPage = 0;

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SORTS),
        filtersArb,
        fc.integer({ min: 1, max: 10 }),
        async (sort, filters, limit) => {
          const expected = expectedIds(rows, sort, filters);
          if (expected.length > limit) multiPage += 1;

          // One page of 100 holds everything, in the order the service gives.
          const full = await list({ sort, ...filters, limit: 100 });
          expect(ids(full)).toEqual(expected);
          expect(full.pagination.has_more).toBe(false);

          // Forward: after = next_cursor until has_more is false.
          const forward: string[] = [];
          let cursor: string | undefined;
          for (let guard = 0; guard <= expected.length + 1; guard++) {
            const page = await list({ sort, ...filters, limit, after: cursor });
            const start = forward.length;
            expect(page.data.length).toBeLessThanOrEqual(limit);
            expect(ids(page)).toEqual(expected.slice(start, start + limit));
            forward.push(...ids(page));
            const more = forward.length < expected.length;
            expect(page.pagination.has_more).toBe(more);
            expect(page.pagination.next_cursor).toBe(more ? page.data.at(-1)?.id : null);
            expect(page.pagination.prev_cursor ?? null).toBe(start > 0 ? page.data[0]?.id : null);
            if (!more) break;
            cursor = page.pagination.next_cursor as string;
          }
          expect(forward).toEqual(expected);
          expect(new Set(forward).size).toBe(forward.length);

          // Backward: before the last item, then before = prev_cursor until it is null.
          const last = expected.at(-1);
          if (last === undefined) return;
          const backward: string[] = [last];
          let before: string = last;
          for (let guard = 0; guard <= expected.length + 1; guard++) {
            const page = await list({ sort, ...filters, limit, before });
            const end = expected.length - backward.length;
            const start = Math.max(0, end - limit);
            expect(ids(page)).toEqual(expected.slice(start, end));
            backward.unshift(...ids(page));
            // Items always follow a page read before the last item.
            if (page.data.length > 0) {
              expect(page.pagination.has_more).toBe(true);
              expect(page.pagination.next_cursor).toBe(page.data.at(-1)?.id);
            }
            expect(page.pagination.prev_cursor ?? null).toBe(start > 0 ? page.data[0]?.id : null);
            if (page.pagination.prev_cursor == null) break;
            before = page.pagination.prev_cursor;
          }
          expect(backward).toEqual(expected);
          expect(new Set(backward).size).toBe(backward.length);
        },
      ),
      { numRuns: 30 },
    );
    // The property was exercised on lists that span pages, not only on empty ones.
    expect(multiPage).toBeGreaterThanOrEqual(5);
  });

  it('AND-combines filters and matches the repository as owner/name', async () => {
    const rows = await ownRows();
    const body = await list({ limit: 100, repository: 'acme/api', status: 'completed' });
    expect(body.data.length).toBeGreaterThan(0);
    expect(ids(body)).toEqual(expectedIds(rows, '-created_at', { repository: 'acme/api', status: 'completed' }));
    for (const r of body.data) {
      expect(r.pull_request.repository).toBe('acme/api');
      expect(r.status).toBe('completed');
    }
    expect((await list({ repository: 'nobody/here' })).data).toEqual([]);
  });

  it('answers an empty page without cursors when nothing matches', async () => {
    const body = await list({ repository: 'nobody/here', limit: 5 });
    expect(body.data).toEqual([]);
    expect(body.pagination.has_more).toBe(false);
    expect(body.pagination.next_cursor).toBeNull();
  });
});

describe('GET /v1/reviews stability under inserts', () => {
  let key2: string;
  let original: string[];
  beforeAll(async () => {
    const { user } = await t.createUser();
    await setPlan(t.database.db, user.id, 'enterprise');
    key2 = await t.createToken(user.id, { mode: 'test' });
    for (let i = 0; i < 10; i++) {
      if (i % 3 !== 2) t.clock.advance(2); // some share a created_at
      await create(key2, 200 + i, 'stable/repo', false);
    }
    original = ids(await list({ limit: 100, sort: 'created_at' }, key2));
    expect(original).toHaveLength(10);
  });

  it('newest first: reviews inserted after page 1 neither repeat nor skip items on page 2', async () => {
    const page1 = await list({ limit: 4 }, key2);
    const newestFirst = [...original].reverse();
    expect(ids(page1)).toEqual(newestFirst.slice(0, 4));
    t.clock.advance(10);
    for (let i = 0; i < 3; i++) await create(key2, 300 + i, 'stable/repo', false);
    const page2 = await list({ limit: 4, after: page1.pagination.next_cursor as string }, key2);
    expect(ids(page2)).toEqual(newestFirst.slice(4, 8));
    const page3 = await list({ limit: 4, after: page2.pagination.next_cursor as string }, key2);
    expect(ids(page3)).toEqual(newestFirst.slice(8));
    expect(page3.pagination.has_more).toBe(false);
    const seen = [...ids(page1), ...ids(page2), ...ids(page3)];
    expect(new Set(seen).size).toBe(seen.length);
    // Walking back from page 2 now reaches the new reviews, which precede page 1.
    const back = await list({ limit: 100, before: page2.data[0]?.id }, key2);
    expect(ids(back).slice(-4)).toEqual(newestFirst.slice(0, 4));
    expect(back.data).toHaveLength(7);
  });

  it('oldest first: inserts land after the cursor and are reached in order, nothing repeated', async () => {
    const all = ids(await list({ limit: 100, sort: 'created_at' }, key2));
    const page1 = await list({ limit: 5, sort: 'created_at' }, key2);
    expect(ids(page1)).toEqual(all.slice(0, 5));
    t.clock.advance(10);
    const added = [];
    for (let i = 0; i < 2; i++) {
      t.clock.advance(1);
      added.push((await create(key2, 400 + i, 'stable/repo', false)).id);
    }
    const rest: string[] = [];
    let cursor = page1.pagination.next_cursor as string;
    for (;;) {
      const page = await list({ limit: 5, sort: 'created_at', after: cursor }, key2);
      rest.push(...ids(page));
      if (!page.pagination.has_more) break;
      cursor = page.pagination.next_cursor as string;
    }
    expect([...ids(page1), ...rest]).toEqual([...all, ...added]);
  });
});

describe('GET /v1/reviews validation', () => {
  const expectInvalid = async (query: Record<string, string | number>, field: string | undefined) => {
    const res = await listRaw(query);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_error');
    if (field !== undefined) expect(body.error.details?.field).toBe(field);
  };

  it.each([0, 101, 'x', -1, 2.5])('rejects limit %s', async (limit) => {
    await expectInvalid({ limit }, 'limit');
  });

  it('accepts limit 1 and 100', async () => {
    expect((await list({ limit: 1 })).data).toHaveLength(1);
    expect((await list({ limit: 100 })).data.length).toBeGreaterThan(1);
  });

  it.each(['name', 'status', '-', 'created_at,score', '+score'])('rejects sort %s', async (sort) => {
    await expectInvalid({ sort }, 'sort');
  });

  it('rejects an unknown cursor, naming after or before', async () => {
    await expectInvalid({ after: 'rev_doesnotexist0000000000' }, 'after');
    await expectInvalid({ before: 'rev_doesnotexist0000000000' }, 'before');
  });

  it("rejects another user's review id as a cursor", async () => {
    const other = await t.database.db
      .selectFrom('reviews')
      .select('id')
      .where('user_id', '!=', userId)
      .executeTakeFirstOrThrow();
    await expectInvalid({ after: other.id }, 'after');
    await expectInvalid({ before: other.id }, 'before');
  });

  it('rejects after and before together', async () => {
    const page = await list({ limit: 3 });
    await expectInvalid({ after: page.data[0]?.id as string, before: page.data[2]?.id as string }, undefined);
  });

  it('rejects a created_after or created_before that is not a timestamp', async () => {
    await expectInvalid({ created_after: 'yesterday' }, 'created_after');
    await expectInvalid({ created_before: 'soon' }, 'created_before');
  });

  it('rejects a repository that is not owner/name', async () => {
    await expectInvalid({ repository: 'nope' }, 'repository');
    await expectInvalid({ repository: 'a/b/c' }, 'repository');
  });

  it('rejects an unknown status', async () => {
    await expectInvalid({ status: 'done' }, 'status');
  });
});
