import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/auth/api-token-format.js';
import { RecordingProxy } from './recording-proxy.js';
import { RedlineProcess } from './redline-process.js';
import { newRunId, outputFile, runDist, withPlainDelimiters } from './run-dist.js';

/**
 * Issue 7, end to end: the committed dist/index.js, run as a child process with the environment a
 * runner gives, against a real Redline (`redline serve`, embedded database, a svc_test_ key).
 * Test-mode reviews are deterministic by pull-request number (decisions §2): 1 clean, 2 critical +
 * important, 3 fails. A recording proxy sits in front of the API to see the calls and, for the
 * rate-limit and timeout cases, to answer in the API's place.
 */

let redline: RedlineProcess;
let proxy: RecordingProxy;
let apiUrl: string;

beforeAll(async () => {
  redline = await RedlineProcess.start();
  proxy = await RecordingProxy.start(redline.baseUrl);
  apiUrl = `${proxy.baseUrl}/v1`;
});
afterAll(async () => {
  await proxy?.close();
  await redline?.stop();
});
beforeEach(() => proxy.reset());

const pr = (number: number, repo = 'acme/shop') => `https://github.com/${repo}/pull/${number}`;
const HEAD = 'b'.repeat(40);
const pullRequestEvent = (url: string) => ({
  name: 'pull_request',
  payload: { action: 'synchronize', number: 1, pull_request: { html_url: url, head: { sha: HEAD } } },
});

interface ApiReview {
  id: string;
  status: string;
  score: number | null;
  summary: string | null;
  pull_request: { url: string };
  error: { code: string; message: string } | null;
}
interface ApiComment {
  severity: string;
  suggestion?: string;
  type: string;
  file: string;
  line: number;
  message: string;
}

const reviewIdIn = (file: string) => /^review-id<<\S+\n(rev_[0-9A-Za-z]{22})\n/.exec(file)?.[1];

async function apiReview(id: string) {
  const { status, body } = await redline.get<{ data: ApiReview }>(`/v1/reviews/${id}`);
  expect(status).toBe(200);
  return body.data;
}

async function apiComments(id: string) {
  return (await redline.get<{ data: ApiComment[] }>(`/v1/reviews/${id}/comments`)).body.data;
}

const outputsOf = (id: string, review: ApiReview, counts: [string, string, string]) =>
  outputFile([
    ['review-id', id],
    ['status', review.status],
    ['score', review.score === null ? '' : String(review.score)],
    ['critical-count', counts[0]],
    ['important-count', counts[1]],
    ['comments-count', counts[2]],
    ['review-url', `${apiUrl}/reviews/${id}`],
  ]);

describe('the action against a running Redline', () => {
  it('passes pull request 1, sets every output, writes the summary, and never prints the key', async () => {
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl },
      event: pullRequestEvent(pr(1)),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const id = reviewIdIn(run.outputFile) as string;
    expect(id).toBeDefined();
    const review = await apiReview(id);
    expect(review).toMatchObject({ status: 'completed', score: 100, pull_request: { url: pr(1) } });
    expect(withPlainDelimiters(run.outputFile)).toBe(outputsOf(id, review, ['0', '0', '0']));
    expect(run.summaryFile).toBe(
      [
        '## Redline review',
        '',
        '| score | status | critical | important | warning | info | comments |',
        '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
        '| 100 | completed | 0 | 0 | 0 | 0 | 0 |',
        '',
        `Review [${id}](${apiUrl}/reviews/${id}) of [acme/shop#1](${pr(1)}).`,
        '',
        `> ${review.summary}`,
        '',
        'No comments.',
        '',
        '✅ **Passed:** Redline found no comments; none at or above fail-on "critical".',
        '',
        '',
      ].join('\n'),
    );
    // The key is only ever printed inside the add-mask command that hides it.
    expect(run.stdout.split(redline.key)).toHaveLength(2);
    expect(run.stdout).toContain(`::add-mask::${redline.key}\n`);

    // One create with the run's Idempotency-Key and the pinned version, polls, then the comments.
    const calls = proxy.calls();
    expect(calls[0]).toBe('POST /v1/reviews 201');
    expect(calls.at(-1)).toBe(`GET /v1/reviews/${id}/comments 200`);
    expect(new Set(calls.slice(1, -1))).toEqual(new Set([`GET /v1/reviews/${id} 200`]));
    const create = proxy.exchanges[0];
    expect(create?.headers['idempotency-key']).toMatch(/^redline-action-[0-9a-f]{64}$/);
    expect(create?.headers['x-svc-version']).toBe('2026-11-01');
    expect(create?.headers.authorization).toBe(`Bearer ${redline.key}`);
  });

  it('fails pull request 2 on its critical comment, with one annotation per comment', async () => {
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl },
      event: pullRequestEvent(pr(2)),
    });
    expect(run.code).toBe(1);
    const id = reviewIdIn(run.outputFile) as string;
    const [review, comments] = [await apiReview(id), await apiComments(id)];
    expect(comments.map((c) => c.severity).sort()).toEqual(['critical', 'important']);
    expect(withPlainDelimiters(run.outputFile)).toBe(outputsOf(id, review, ['1', '1', '2']));
    // Workflow commands as GitHub reads them: data escapes %, CR and LF (properties also , and :).
    const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    const annotations = comments.map(
      (c) =>
        `::error title=Redline%3A ${c.severity} ${c.type},file=${c.file},line=${c.line}::` +
        data(c.suggestion ? `${c.message}\n\nSuggested fix:\n${c.suggestion}` : c.message),
    );
    expect(run.stdout.trimEnd().split('\n').slice(-3)).toEqual([
      ...annotations,
      '::error::Redline found 1 comment at or above fail-on "critical": 1 critical.',
    ]);
    expect(run.summaryFile).toContain(
      `| critical | security | [${comments.find((c) => c.severity === 'critical')?.file}:`,
    );
    expect(run.summaryFile).toContain(`/blob/${HEAD}/`);
  });

  it('passes pull request 2 with fail-on never, and names both comments with fail-on important', async () => {
    const never = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl, 'fail-on': 'never' },
      event: pullRequestEvent(pr(2)),
    });
    expect(never.code).toBe(0);
    expect(never.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Redline found 1 critical, 1 important; fail-on is "never".',
    );
    expect(never.stdout).toContain('::error title=Redline%3A critical security,');

    const important = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl, 'fail-on': 'important' },
      event: pullRequestEvent(pr(2)),
    });
    expect(important.code).toBe(1);
    expect(important.stdout.trimEnd().split('\n').at(-1)).toBe(
      '::error::Redline found 2 comments at or above fail-on "important": 1 critical, 1 important.',
    );
  });

  it('fails when the review fails (pull request 3), and a re-run retries that review instead of making another', async () => {
    const runId = newRunId();
    const inputs = { 'api-key': redline.key, 'api-url': apiUrl };
    const first = await runDist({ inputs, event: pullRequestEvent(pr(3)), runId });
    expect(first.code).toBe(1);
    const id = reviewIdIn(first.outputFile) as string;
    const review = await apiReview(id);
    expect(review.status).toBe('failed');
    const failure = `Redline review ${id} failed: ${review.error?.message} (${review.error?.code}).`;
    expect(first.stdout.trimEnd().split('\n').at(-1)).toBe(`::error::${failure}`);
    expect(withPlainDelimiters(first.outputFile)).toBe(outputsOf(id, review, ['', '', '']));
    expect(first.summaryFile).toContain(`> The review failed: ${review.error?.message} (${review.error?.code})`);

    proxy.reset();
    const again = await runDist({ inputs, event: pullRequestEvent(pr(3)), runId, runAttempt: 2 });
    expect(again.code).toBe(1);
    expect(reviewIdIn(again.outputFile)).toBe(id);
    expect(proxy.calls().slice(0, 3)).toEqual([
      'POST /v1/reviews 201 replayed',
      `GET /v1/reviews/${id} 200`,
      `POST /v1/reviews/${id}/retry 200`,
    ]);
    expect(again.stdout.trimEnd().split('\n').at(-1)).toBe(`::error::${failure}`);
  });

  it('does not make a second review when a passing run is re-run', async () => {
    const runId = newRunId();
    const repo = `acme/rerun-${runId}`;
    const inputs = { 'api-key': redline.key, 'api-url': apiUrl };
    const first = await runDist({ inputs, event: pullRequestEvent(pr(1, repo)), runId });
    const second = await runDist({ inputs, event: pullRequestEvent(pr(1, repo)), runId, runAttempt: 2 });
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(reviewIdIn(second.outputFile)).toBe(reviewIdIn(first.outputFile));
    expect(proxy.calls().filter((c) => c.startsWith('POST'))).toEqual([
      'POST /v1/reviews 201',
      'POST /v1/reviews 201 replayed',
    ]);
    const list = await redline.get<{ data: unknown[] }>(`/v1/reviews?repository=${encodeURIComponent(repo)}`);
    expect(list.body.data).toHaveLength(1);
  });

  it('fails with the API’s own message on a wrong key', async () => {
    const wrongKey = generateApiToken('test');
    const direct = await redline.get<{ error: { code: string; message: string } }>('/v1/reviews', wrongKey);
    expect(direct.status).toBe(401);
    const run = await runDist({ inputs: { 'api-key': wrongKey, 'api-url': apiUrl }, event: pullRequestEvent(pr(1)) });
    expect(run.code).toBe(1);
    const requestId = proxy.exchanges[0]?.requestId;
    expect(requestId).toMatch(/^req_/);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      `::error::Redline API: ${direct.body.error.message} (${direct.body.error.code}, HTTP 401, ${requestId})`,
    );
    expect(run.outputFile).toBe('');
    expect(run.stdout.split(wrongKey)).toHaveLength(2);
  });

  it('waits out a 429 as Retry-After says, then completes', async () => {
    proxy.intercept('POST', /^\/v1\/reviews$/, 1, () => rateLimited(1));
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl },
      event: pullRequestEvent(pr(1)),
    });
    expect(run.code).toBe(0);
    const [limited, created] = proxy.exchanges;
    expect(proxy.calls().slice(0, 2)).toEqual(['POST /v1/reviews 429', 'POST /v1/reviews 201']);
    expect((created?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    // The retry is the same request: same Idempotency-Key.
    expect(created?.headers['idempotency-key']).toBe(limited?.headers['idempotency-key']);
    expect(withPlainDelimiters(run.outputFile)).toContain('status<<DELIMITER\ncompleted\n');
  });

  it('fails at once, saying so, when the API asks to wait longer than timeout-seconds', async () => {
    proxy.intercept('POST', /^\/v1\/reviews$/, 1, () => rateLimited(3600));
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl, 'timeout-seconds': '30' },
      event: pullRequestEvent(pr(1)),
    });
    expect(run.code).toBe(1);
    expect(run.ms).toBeLessThan(10_000);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      '::error::Redline API: Rate limit of 100 requests per hour exceeded (rate_limit_exceeded, HTTP 429, req_proxy429); ' +
        'the API asks to wait 3600 s, longer than timeout-seconds (30)',
    );
  });

  it('fails after timeout-seconds while the review is still running', async () => {
    // The review is reported in progress forever, as a slow one would be.
    proxy.intercept('GET', /^\/v1\/reviews\/rev_[0-9A-Za-z]+$/, 100, (path) => ({
      status: 200,
      body: {
        data: {
          id: path.split('/').at(-1),
          status: 'in_progress',
          score: null,
          summary: null,
          pull_request: { url: pr(1), number: 1 },
          stats: null,
          created_at: new Date().toISOString(),
        },
        meta: { request_id: 'req_proxy', timestamp: new Date().toISOString() },
      },
    }));
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl, 'timeout-seconds': '2' },
      event: pullRequestEvent(pr(1)),
    });
    expect(run.code).toBe(1);
    expect(run.ms).toBeGreaterThanOrEqual(2000);
    expect(run.ms).toBeLessThan(8000);
    const id = reviewIdIn(run.outputFile) as string;
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      `::error::Timed out after 2 s waiting for Redline review ${id} (still in_progress); raise timeout-seconds if reviews take longer.`,
    );
    expect(withPlainDelimiters(run.outputFile)).toBe(
      outputFile([
        ['review-id', id],
        ['status', 'in_progress'],
        ['score', ''],
        ['critical-count', ''],
        ['important-count', ''],
        ['comments-count', ''],
        ['review-url', `${apiUrl}/reviews/${id}`],
      ]),
    );
  });

  it('reviews the pull-request-url input on any event', async () => {
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': apiUrl, 'pull-request-url': pr(1, 'acme/other') },
      event: { name: 'workflow_dispatch', payload: {} },
    });
    expect(run.code).toBe(0);
    expect((await apiReview(reviewIdIn(run.outputFile) as string)).pull_request.url).toBe(pr(1, 'acme/other'));
    // No head commit in the event: locations are not linked, and PR 1 has none anyway.
    expect(run.summaryFile).toContain('[acme/other#1]');
  });
});

describe('the action before any API call', () => {
  it('lists every bad input and calls nothing', async () => {
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': 'localhost:3000', 'fail-on': 'major', 'check-security': 'nope' },
      event: pullRequestEvent(pr(1)),
    });
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      '::error::Invalid inputs:%0A' +
        '- api-url must be the API\'s http(s) base URL ending in /v1 (got "localhost:3000")%0A' +
        '- fail-on must be one of critical, important, warning, info, never (got "major")%0A' +
        '- check-security must be true or false (got "nope")',
    );
    expect(proxy.calls()).toEqual([]);
  });

  it('says what to do when the event names no pull request', async () => {
    const run = await runDist({ inputs: { 'api-key': redline.key, 'api-url': apiUrl } });
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      '::error::No pull request to review: this workflow ran on push, which names none. ' +
        'Run the step on pull_request or pull_request_target, or set the pull-request-url input.',
    );
    expect(proxy.calls()).toEqual([]);
  });
});

function rateLimited(retryAfterSeconds: number) {
  return {
    status: 429,
    headers: {
      'retry-after': String(retryAfterSeconds),
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + retryAfterSeconds),
      'x-request-id': 'req_proxy429',
    },
    body: {
      error: {
        type: 'rate_limit_error',
        message: 'Rate limit of 100 requests per hour exceeded',
        code: 'rate_limit_exceeded',
        status: 429,
      },
      meta: { request_id: 'req_proxy429', timestamp: new Date().toISOString() },
    },
  };
}
