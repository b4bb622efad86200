import { describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import {
  createReview,
  expectError,
  getReview,
  github,
  makeFiles,
  organizationOf,
  REQUESTS_PER_CALL,
  reviewCount,
  scenario,
  sum,
  t,
  unique,
  useLiveApp,
} from './live-harness.js';

useLiveApp();

describe('live processing (reads the changed files from GitHub)', () => {
  it('reads every page of files and completes with their totals', async () => {
    const files = makeFiles(250); // 3 pages of 100
    const s = await scenario({ files });
    const created = await createReview(s.user.key, { pull_request_url: s.url });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;

    await t.runJobs();
    const review = (await getReview(s.user.key, id)).json().data;
    expect(review).toMatchObject({
      status: 'completed',
      completed_at: t.clock.now().toISOString(),
      score: expect.any(Number),
      summary: expect.any(String),
      error: null,
      // No GitHub App here: the publisher passed it by and says so, so a CI action posts it (decisions §20).
      publication: 'unpublished',
    });
    expect(review.stats).toMatchObject({
      files_changed: 250,
      lines_added: sum(files, 'additions'),
      lines_deleted: sum(files, 'deletions'),
    });
    expect(review.score).toBeGreaterThanOrEqual(0);
    expect(review.score).toBeLessThanOrEqual(100);

    const reads = github.requestsTo('pull_files');
    expect(reads.map((r) => r.path)).toEqual(Array(3).fill(`/api/repos/${s.org.login}/${s.repo.name}/pulls/42/files`));
    expect(reads.map((r) => r.query.page)).toEqual([undefined, '2', '3']);
    expect(reads.map((r) => r.query.per_page)).toEqual(['100', '100', '100']);
    // Read as the review's creator, with their GitHub token.
    for (const r of reads) expect(r.headers.authorization).toBe(`token ${s.user.githubToken}`);
  });

  it('follows Link headers when GitHub serves smaller pages than asked', async () => {
    const files = makeFiles(7);
    const s = await scenario({ files });
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    github.maxPerPage = 3;
    await t.runJobs();
    expect(github.requestsTo('pull_files').map((r) => r.query.page)).toEqual([undefined, '2', '3']);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'completed',
      stats: { files_changed: 7, lines_added: sum(files, 'additions'), lines_deleted: sum(files, 'deletions') },
    });
  });

  it('retries the job when GitHub answers 500 on the files once, then completes', async () => {
    const files = makeFiles(5);
    const s = await scenario({ files });
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    // Octokit itself retries a 5xx (src/github/octokit.ts), so one 500 no longer reaches the job:
    // GitHub fails every request of the first attempt (1 + its retries), and the job's second
    // attempt completes with one more request.
    github.fail('pull_files', { status: 500, times: REQUESTS_PER_CALL });
    await t.runJobs();
    expect(github.requestsTo('pull_files')).toHaveLength(REQUESTS_PER_CALL + 1);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'completed',
      error: null,
      stats: { files_changed: 5, lines_added: sum(files, 'additions'), lines_deleted: sum(files, 'deletions') },
    });
  });

  it('fails with processing_error once every attempt met a GitHub 500', async () => {
    const s = await scenario();
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    github.fail('pull_files', { status: 500 });
    await t.runJobs();
    // The job's three attempts, each one call that Octokit tries 1 + its retries times.
    expect(github.requestsTo('pull_files')).toHaveLength(3 * REQUESTS_PER_CALL);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'failed',
      error: { code: 'processing_error', message: expect.any(String) },
      stats: null,
    });
  });

  it('fails with pull_request_unavailable, without retrying, when GitHub answers 404 on the files', async () => {
    const s = await scenario();
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    github.fail('pull_files', { status: 404, body: { message: 'Not Found' } });
    await t.runJobs();
    expect(github.requestsTo('pull_files')).toHaveLength(1);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'failed',
      completed_at: null,
      error: { code: 'pull_request_unavailable', message: expect.any(String) },
    });
  });

  it('fails with pull_request_unavailable when the repository turned private to the user meanwhile', async () => {
    const s = await scenario();
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    s.repo.private = true; // and the user is not among its readers
    await t.runJobs();
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'failed',
      error: { code: 'pull_request_unavailable' },
    });
  });
});

describe('review quota (spec 8.2; decisions §6)', () => {
  it('refuses the 11th review of a free organization within the hour with 429 and Retry-After', async () => {
    const s = await scenario();
    for (let i = 0; i < 10; i++) {
      const res = await createReview(i % 2 ? s.user.key : s.user.jwt, { pull_request_url: s.url });
      expect(res.statusCode, `review ${i + 1}`).toBe(201);
    }
    const refused = await createReview(s.user.key, { pull_request_url: s.url });
    expectError(refused, t, { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    // All ten were created at this same instant: room again exactly one hour later.
    expect(refused.headers['retry-after']).toBe('3600');
    const org = await organizationOf(s.org.id);
    expect(await reviewCount(org?.id ?? '')).toBe(10);

    // Another organization's quota is its own.
    const other = github.addOrg(unique('other'));
    const otherRepo = github.addRepo(other, 'app');
    const otherPull = github.addPullRequest(otherRepo);
    expect(
      (await createReview(s.user.key, { pull_request_url: github.pullRequestUrl(otherRepo, otherPull) })).statusCode,
    ).toBe(201);
  });

  itOnPostgres(
    'lets exactly 10 of 50 parallel creates through',
    async () => {
      const s = await scenario();
      await setPlan(t.database.db, s.user.userId, 'enterprise'); // the per-user request rate stays out of the way
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          createReview(i % 2 ? s.user.key : s.user.jwt, { pull_request_url: s.url, auto_review: false }),
        ),
      );
      const statuses = replies.map((r) => r.statusCode);
      expect(statuses.filter((c) => c === 201)).toHaveLength(10);
      expect(statuses.filter((c) => c === 429)).toHaveLength(40);
      for (const r of replies.filter((x) => x.statusCode === 429)) {
        expect(r.json().error.code).toBe('rate_limit_exceeded');
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      }
      const org = await organizationOf(s.org.id);
      expect(await reviewCount(org?.id ?? '')).toBe(10);
    },
    30_000,
  );
});
