import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeFailure, FakeGitHub } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 8: GitHub failing during a live review (read through the fake GitHub, a real HTTP server,
 * so Octokit's retry and throttling run over the wire). A 502 and a rate limit that ends soon are
 * waited out and the review completes, each retried request counted; a rate limit that outlasts
 * what we wait fails the review with a message, not a review stuck in progress. Waits are scaled
 * down (TEST_OCTOKIT_OPTIONS: a rate-limit second is a millisecond), request counts are
 * production's. test/reviews/live.test.ts covers 500s and a 404; test/github/octokit.test.ts the
 * retry rules one request at a time.
 */
describe('GitHub failing during a live review', () => {
  let github: FakeGitHub;
  let t: TestApp;
  let key = '';
  let seq = 0;

  beforeAll(async () => {
    github = await FakeGitHub.start({ apiBasePath: '/api' });
    t = await createTestApp({ env: github.env() });
    // A local user: public repositories are read anonymously.
    const { user } = await t.createUser();
    key = await t.createToken(user.id, { scopes: ['review:read', 'review:write'] });
  });
  afterAll(async () => {
    await t?.close();
    await github?.close();
  });
  afterEach(() => github.reset());

  /** A review of a fresh pull request with two files, processed with GitHub failing as told. */
  const reviewWhile = async (failure: FakeFailure) => {
    seq += 1;
    const repo = github.addRepo(github.addOrg(`faultco-${seq}`), 'shop');
    const pull = github.addPullRequest(repo, {
      files: [
        { filename: 'src/a.ts', status: 'modified', additions: 4, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b' },
        { filename: 'src/b.ts', status: 'added', additions: 6, deletions: 0, patch: '@@ -0,0 +1 @@\n+c' },
      ],
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': key },
      payload: { pull_request_url: github.pullRequestUrl(repo, pull) },
    });
    expect(created.statusCode).toBe(201);
    github.fail('pull_files', failure);
    await t.runJobs();
    const review = await t.app.inject({
      method: 'GET',
      url: `/v1/reviews/${created.json().data.id}`,
      headers: { 'x-api-key': key },
    });
    return { review: review.json().data, fileReads: github.requestsTo('pull_files').length };
  };
  const inSeconds = (s: number) => String(Math.floor(Date.now() / 1000) + s);

  it('retries a 502 and completes', async () => {
    const { review, fileReads } = await reviewWhile({ status: 502, body: { message: 'Bad Gateway' }, times: 2 });
    expect(review).toMatchObject({ status: 'completed', error: null, stats: { files_changed: 2, lines_added: 10 } });
    // Two 502s and the success, within one job attempt (Octokit retries a 5xx twice).
    expect(fileReads).toBe(3);
  });

  it('waits out a secondary rate limit (429 with Retry-After) and completes', async () => {
    const { review, fileReads } = await reviewWhile({
      status: 429,
      body: { message: 'You have exceeded a secondary rate limit.' },
      headers: { 'retry-after': '3' },
      times: 1,
    });
    expect(review).toMatchObject({ status: 'completed', stats: { files_changed: 2 } });
    expect(fileReads).toBe(2);
  });

  it('waits out a primary rate limit (403, remaining 0, a reset soon) and completes', async () => {
    const { review, fileReads } = await reviewWhile({
      status: 403,
      body: { message: 'API rate limit exceeded for 127.0.0.1.' },
      headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(5) },
      times: 1,
    });
    expect(review).toMatchObject({ status: 'completed', stats: { files_changed: 2 } });
    expect(fileReads).toBe(2);
  });

  it('fails the review with a message when the rate limit lasts longer than it waits', async () => {
    const { review, fileReads } = await reviewWhile({
      status: 403,
      body: { message: 'API rate limit exceeded for 127.0.0.1.' },
      headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(3600) },
    });
    expect(review).toMatchObject({
      status: 'failed',
      stats: null,
      error: { code: 'processing_error', message: expect.stringContaining('GitHub') },
    });
    // A reset an hour away is past the 60 s cap: no wait, one request per job attempt (three).
    expect(fileReads).toBe(3);
  });
});
