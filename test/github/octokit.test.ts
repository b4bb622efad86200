import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { createOctokit, GITHUB_RETRY_DEFAULTS, type GitHubRetryOptions } from '../../src/github/octokit.js';
import { readPullRequest } from '../../src/github/pull-requests.js';

/**
 * Every Octokit we make honours GitHub's rate limits and retries transient failures
 * ("GitHub rate limits and secondary limits honoured (retry/throttle), 5xx retried"). GitHub is
 * nock over the global fetch; waits are shrunk through createOctokit's options, with production's
 * retry counts unless a test says otherwise.
 */

const API = 'https://api.github.test';
const PATH = '/repos/octo/shop/pulls/7';
const PULL = {
  title: 'Add checkout',
  head: { ref: 'feature', sha: 'a'.repeat(40) },
  user: { login: 'octocat' },
  base: { repo: { id: 42, owner: { id: 9, login: 'octo', type: 'Organization' } } },
};

let seq = 0;
/** A token of the test's own: each gets its own throttling group, so no test waits behind another. */
const octokit = (options: GitHubRetryOptions = {}) =>
  createOctokit({
    apiUrl: API,
    token: `test-token-${++seq}`,
    fetch: (input, init) => globalThis.fetch(input, init),
    retryAfterBaseMs: 1,
    rateLimitSecondMs: 1,
    ...options,
  });

const get = (o: ReturnType<typeof octokit>) => o.request(`GET ${PATH}`);

const secondsFromNow = (s: number) => String(Math.floor(Date.now() / 1000) + s);

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('5xx and network failures', () => {
  it('retries a 500 and succeeds: one call, two requests', async () => {
    const scope = nock(API).get(PATH).reply(500, { message: 'boom' }).get(PATH).reply(200, PULL);
    const { status, data } = await get(octokit());
    expect(status).toBe(200);
    expect(data).toEqual(PULL);
    expect(scope.isDone()).toBe(true);
  });

  it(`gives up after ${GITHUB_RETRY_DEFAULTS.retries} retries (production's count): the 5xx reaches the caller`, async () => {
    let requests = 0;
    nock(API)
      .get(PATH)
      .times(10)
      .reply(() => {
        requests += 1;
        return [502, { message: 'Bad Gateway' }];
      });
    await expect(get(octokit())).rejects.toMatchObject({ status: 502 });
    expect(requests).toBe(1 + GITHUB_RETRY_DEFAULTS.retries);
  });

  it('honours the retry count it is given', async () => {
    let requests = 0;
    nock(API)
      .get(PATH)
      .times(10)
      .reply(() => {
        requests += 1;
        return [503, {}];
      });
    await expect(get(octokit({ retries: 4 }))).rejects.toMatchObject({ status: 503 });
    expect(requests).toBe(5);
  });

  it('backs off: the n-th retry waits n² × the base', async () => {
    nock(API).get(PATH).times(2).reply(500, {}).get(PATH).reply(200, PULL);
    const started = performance.now();
    await get(octokit({ retryAfterBaseMs: 20 }));
    // 20 ms × 1², then 20 ms × 2².
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('retries a dropped connection', async () => {
    const scope = nock(API)
      .get(PATH)
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
      .get(PATH)
      .reply(200, PULL);
    expect((await get(octokit())).data).toEqual(PULL);
    expect(scope.isDone()).toBe(true);
  });
});

describe('other 4xx answers are not retried', () => {
  for (const status of [400, 401, 404, 409, 422]) {
    it(`${status}: one request`, async () => {
      let requests = 0;
      nock(API)
        .get(PATH)
        .times(5)
        .reply(() => {
          requests += 1;
          return [status, { message: 'no' }];
        });
      await expect(get(octokit())).rejects.toMatchObject({ status });
      expect(requests).toBe(1);
    });
  }

  it('a plain 403 (no rate-limit headers) is an access refusal: one request, and still a 403', async () => {
    let requests = 0;
    nock(API)
      .get(PATH)
      .times(5)
      .reply(() => {
        requests += 1;
        return [403, { message: 'Resource not accessible by integration' }, { 'x-ratelimit-remaining': '4999' }];
      });
    await expect(get(octokit())).rejects.toMatchObject({ status: 403 });
    expect(requests).toBe(1);
  });

  it('a 404 still reads as a pull request that does not exist', async () => {
    nock(API).get(PATH).reply(404, { message: 'Not Found' });
    await expect(readPullRequest(octokit(), { owner: 'octo', repo: 'shop', number: 7 })).rejects.toMatchObject({
      code: 'resource_not_found',
      status: 404,
    });
  });
});

describe('secondary rate limits (403/429 with retry-after)', () => {
  it('waits as long as retry-after says, then retries', async () => {
    const scope = nock(API)
      .get(PATH)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '60' })
      .get(PATH)
      .reply(200, PULL);
    const started = performance.now();
    // One of GitHub's seconds lasts 2 ms here: retry-after 60 → 120 ms.
    expect((await get(octokit({ rateLimitSecondMs: 2 }))).data).toEqual(PULL);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(scope.isDone()).toBe(true);
  });

  it('recognises a 429 with retry-after whatever its message says', async () => {
    const scope = nock(API)
      .get(PATH)
      .reply(429, { message: 'Too Many Requests' }, { 'retry-after': '3' })
      .get(PATH)
      .reply(200, PULL);
    expect((await get(octokit())).data).toEqual(PULL);
    expect(scope.isDone()).toBe(true);
  });

  it('retries at most twice, then fails as an upstream error (502), not as the 403', async () => {
    let requests = 0;
    nock(API)
      .get(PATH)
      .times(10)
      .reply(() => {
        requests += 1;
        return [403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '1' }];
      });
    const error = await get(octokit()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(requests).toBe(3);
  });

  it('fails at once when GitHub asks for a wait beyond the cap', async () => {
    let requests = 0;
    nock(API)
      .get(PATH)
      .times(10)
      .reply(() => {
        requests += 1;
        return [429, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '61' }];
      });
    await expect(get(octokit())).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
    expect(requests).toBe(1);
  });

  it('the pull-request reader turns a spent rate limit into 502 upstream_error, never 404', async () => {
    nock(API)
      .get(PATH)
      .times(10)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '3600' });
    await expect(readPullRequest(octokit(), { owner: 'octo', repo: 'shop', number: 7 })).rejects.toMatchObject({
      code: 'upstream_error',
      status: 502,
    });
  });
});

describe('primary rate limit (403/429 with x-ratelimit-remaining 0)', () => {
  it('waits until x-ratelimit-reset, then retries', async () => {
    const scope = nock(API)
      .get(PATH)
      .reply(
        403,
        { message: 'API rate limit exceeded for user ID 1.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': secondsFromNow(30) },
      )
      .get(PATH)
      .reply(200, PULL);
    const started = performance.now();
    // Until the reset (about 30 s) and one more second, at 2 ms a second: at least 60 ms.
    expect((await get(octokit({ rateLimitSecondMs: 2 }))).data).toEqual(PULL);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(scope.isDone()).toBe(true);
  });

  it('retries a 429 the same way', async () => {
    const scope = nock(API)
      .get(PATH)
      .reply(
        429,
        { message: 'API rate limit exceeded' },
        {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': secondsFromNow(1),
        },
      )
      .get(PATH)
      .reply(200, PULL);
    expect((await get(octokit())).data).toEqual(PULL);
    expect(scope.isDone()).toBe(true);
  });

  it('fails at once (502 upstream_error) when the reset is further away than the cap', async () => {
    let requests = 0;
    nock(API)
      .get(PATH)
      .times(10)
      .reply(() => {
        requests += 1;
        return [
          403,
          { message: 'API rate limit exceeded for user ID 1.' },
          { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': secondsFromNow(3600) },
        ];
      });
    await expect(get(octokit())).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
    expect(requests).toBe(1);
  });

  it('the cap is a setting: a longer one waits for a later reset', async () => {
    const scope = nock(API)
      .get(PATH)
      .reply(
        403,
        { message: 'API rate limit exceeded for user ID 1.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': secondsFromNow(120) },
      )
      .get(PATH)
      .reply(200, PULL);
    expect((await get(octokit({ maxRateLimitWaitSeconds: 300 }))).data).toEqual(PULL);
    expect(scope.isDone()).toBe(true);
  });

  it('retries at most twice', async () => {
    let requests = 0;
    nock(API)
      .get(PATH)
      .times(10)
      .reply(() => {
        requests += 1;
        return [
          429,
          { message: 'API rate limit exceeded' },
          { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': secondsFromNow(1) },
        ];
      });
    await expect(get(octokit())).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
    expect(requests).toBe(3);
  });
});

describe('production defaults', () => {
  it('are two retries from 0.5 s, two rate-limit waits of at most 60 s, writes 1 s apart', () => {
    expect(GITHUB_RETRY_DEFAULTS).toEqual({
      retries: 2,
      retryAfterBaseMs: 500,
      rateLimitRetries: 2,
      maxRateLimitWaitSeconds: 60,
      rateLimitSecondMs: 1000,
      writeSpacingMs: 1000,
    });
  });
});
