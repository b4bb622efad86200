import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import type { Finding } from '../../src/engine/types.js';
import { completeCheckRun, MAX_ANNOTATIONS, startCheckRun } from '../../src/github/check-run.js';
import { createOctokit } from '../../src/github/octokit.js';
import { planReview } from '../../src/github/plan-review.js';
import { readRepositoryConfig } from '../../src/github/read-repository-config.js';
import { defaultRepositoryConfig } from '../../src/github/repository-config.js';
import { TEST_OCTOKIT_OPTIONS } from '../helpers/test-app.js';
import { COMMENTABLE, finding, SQL_INJECTION } from './review-fixtures.js';

/**
 * The `Redline` check run (decisions §7): in progress when the review starts, completed
 * with its conclusion, summary and annotations, 50 per request; neutral with the reason when the
 * review was skipped or failed. Every body sent is asserted whole.
 */

const API = 'https://api.github.test';
const REPO = { owner: 'octo', repo: 'shop' };
const HEAD = 'f'.repeat(40);
const NOW = new Date('2030-01-02T03:04:05.000Z');
const DONE = new Date('2030-01-02T03:05:00.000Z');
const CHECK_RUNS = '/repos/octo/shop/check-runs';

let seq = 0;
const octokit = () =>
  createOctokit({
    apiUrl: API,
    token: ['ghs', 'checks', ++seq].join('_'),
    fetch: (input, init) => globalThis.fetch(input, init),
    ...TEST_OCTOKIT_OPTIONS,
  });

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const planOf = (findings: Finding[]) =>
  planReview({ findings, commentable: COMMENTABLE, config: defaultRepositoryConfig(), posted: new Set() });

function recorder() {
  const bodies: unknown[] = [];
  const keep = (body: unknown) => {
    bodies.push(body);
    return true;
  };
  return { bodies, keep };
}

describe('startCheckRun', () => {
  it('creates the Redline check run in progress on the commit and returns its id', async () => {
    const { bodies, keep } = recorder();
    const scope = nock(API).post(CHECK_RUNS, keep).reply(201, { id: 4242, status: 'in_progress' });
    const id = await startCheckRun(octokit(), REPO, HEAD, {
      now: NOW,
      detailsUrl: 'https://redline.example.com/v1/reviews/rev_1',
      externalId: 'rev_1',
    });
    scope.done();
    expect(id).toBe(4242);
    expect(bodies).toEqual([
      {
        name: 'Redline',
        head_sha: HEAD,
        status: 'in_progress',
        started_at: '2030-01-02T03:04:05.000Z',
        details_url: 'https://redline.example.com/v1/reviews/rev_1',
        external_id: 'rev_1',
      },
    ]);
  });

  it('waits out a rate limit, then creates it', async () => {
    const scope = nock(API)
      .post(CHECK_RUNS)
      .reply(429, { message: 'slow down' }, { 'retry-after': '1' })
      .post(CHECK_RUNS)
      .reply(201, { id: 1 });
    expect(await startCheckRun(octokit(), REPO, HEAD, { now: NOW })).toBe(1);
    scope.done();
  });

  it('a refusal is an upstream error for the caller to record', async () => {
    const scope = nock(API).post(CHECK_RUNS).reply(403, { message: 'Resource not accessible by integration' });
    const error = await startCheckRun(octokit(), REPO, HEAD, { now: NOW }).catch((e: unknown) => e);
    scope.done();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 502, message: 'GitHub refused the check run (create: HTTP 403)' });
  });
});

describe('completeCheckRun', () => {
  const run = { ...REPO, checkRunId: 77 };

  it('sends 120 annotations in three requests of 50, 50 and 20; the first carries the conclusion', async () => {
    const severities = ['critical', 'important', 'warning', 'info'] as const;
    const findings = Array.from({ length: 120 }, (_, i) =>
      finding({ severity: severities[i % 4], file: `src/f${String(i).padStart(3, '0')}.ts`, line: i + 1 }),
    );
    const plan = planOf(findings);
    const { bodies, keep } = recorder();
    const scope = nock(API).patch(`${CHECK_RUNS}/77`, keep).times(3).reply(200, { id: 77 });
    const result = await completeCheckRun(octokit(), run, { kind: 'reviewed', plan }, { now: DONE });
    scope.done();

    const level = { critical: 'failure', important: 'failure', warning: 'warning', info: 'notice' } as const;
    const expected = plan.findings.map((f) => ({
      path: f.file,
      start_line: f.line,
      end_line: f.line,
      annotation_level: level[f.severity],
      title: `${f.severity} bug (js.example)`,
      message: f.message,
    }));
    const output = {
      title: 'Found 120 problems (30 critical, 30 important, 30 warning, 30 info)',
      summary: '**Redline** found 120 problems (30 critical, 30 important, 30 warning, 30 info): changes requested.',
    };
    expect(bodies).toEqual([
      {
        status: 'completed',
        conclusion: 'failure',
        completed_at: '2030-01-02T03:05:00.000Z',
        output: { ...output, annotations: expected.slice(0, 50) },
      },
      { output: { ...output, annotations: expected.slice(50, 100) } },
      { output: { ...output, annotations: expected.slice(100) } },
    ]);
    // Most severe first, so the first request (the one that always lands) has the blocking ones.
    expect(expected.slice(0, 30).every((a) => a.annotation_level === 'failure')).toBe(true);
    expect(result).toEqual({ conclusion: 'failure', annotations: 120, failedAnnotations: 0 });
  });

  it('a later batch GitHub refuses is counted, and the others still go', async () => {
    const findings = Array.from({ length: 120 }, (_, i) => finding({ severity: 'info', line: i + 1 }));
    const scope = nock(API)
      .patch(`${CHECK_RUNS}/77`)
      .reply(200, {})
      .patch(`${CHECK_RUNS}/77`)
      .reply(422, { message: 'Invalid annotation' })
      .patch(`${CHECK_RUNS}/77`)
      .reply(200, {});
    const result = await completeCheckRun(octokit(), run, { kind: 'reviewed', plan: planOf(findings) }, { now: DONE });
    scope.done();
    expect(result).toEqual({ conclusion: 'success', annotations: 70, failedAnnotations: 50 });
  });

  it(`annotates at most ${MAX_ANNOTATIONS} problems and says so`, async () => {
    const findings = Array.from({ length: MAX_ANNOTATIONS + 5 }, (_, i) => finding({ severity: 'info', line: i + 1 }));
    const { bodies, keep } = recorder();
    const scope = nock(API)
      .patch(`${CHECK_RUNS}/77`, keep)
      .times(MAX_ANNOTATIONS / 50)
      .reply(200, {});
    const result = await completeCheckRun(octokit(), run, { kind: 'reviewed', plan: planOf(findings) }, { now: DONE });
    scope.done();
    expect(result.annotations).toBe(MAX_ANNOTATIONS);
    expect((bodies[0] as { output: { text: string } }).output.text).toBe(
      `Only the ${MAX_ANNOTATIONS} most severe problems are annotated; the review lists the others.`,
    );
  });

  it('skipped: neutral with the reason, never success', async () => {
    const { bodies, keep } = recorder();
    const scope = nock(API).patch(`${CHECK_RUNS}/77`, keep).reply(200, {});
    const reason = 'Draft pull requests are not reviewed (`drafts: false`).';
    const result = await completeCheckRun(octokit(), run, { kind: 'skipped', reason }, { now: DONE });
    scope.done();
    expect(bodies).toEqual([
      {
        status: 'completed',
        conclusion: 'neutral',
        completed_at: '2030-01-02T03:05:00.000Z',
        output: { title: 'Review skipped', summary: reason },
      },
    ]);
    expect(result).toEqual({ conclusion: 'neutral', annotations: 0, failedAnnotations: 0 });
  });

  it('failed: neutral with the reason', async () => {
    const { bodies, keep } = recorder();
    const scope = nock(API).patch(`${CHECK_RUNS}/77`, keep).reply(200, {});
    const reason = 'GitHub could not be read (changed files); the review will be tried again.';
    await completeCheckRun(octokit(), run, { kind: 'failed', reason }, { now: DONE });
    scope.done();
    expect(bodies).toEqual([
      {
        status: 'completed',
        conclusion: 'neutral',
        completed_at: '2030-01-02T03:05:00.000Z',
        output: { title: 'Review failed', summary: reason },
      },
    ]);
  });

  it('cannot be told to succeed for a review that did not run', () => {
    const call = () =>
      // @ts-expect-error: a skipped or failed outcome has no conclusion to give, only a reason.
      completeCheckRun(octokit(), run, { kind: 'skipped', reason: 'x', conclusion: 'success' }, { now: DONE });
    expect(typeof call).toBe('function');
  });

  it('a refused completion is an upstream error', async () => {
    const scope = nock(API).patch(`${CHECK_RUNS}/77`).reply(404, { message: 'Not Found' });
    await expect(
      completeCheckRun(octokit(), run, { kind: 'reviewed', plan: planOf([]) }, { now: DONE }),
    ).rejects.toMatchObject({ code: 'upstream_error', message: 'GitHub refused the check run (complete: HTTP 404)' });
    scope.done();
  });
});

describe('an invalid .github/redline.yml', () => {
  it('is explained in the check run, and the review runs with the defaults', async () => {
    const contents = nock(API)
      .get('/repos/octo/shop/contents/.github%2Fredline.yml')
      .reply(200, 'max_comments: lots\nchecks:\n  securty: false\n', {
        'content-type': 'application/vnd.github.raw; charset=utf-8',
      });
    const read = await readRepositoryConfig(octokit(), REPO);
    contents.done();
    expect(read.config).toEqual(defaultRepositoryConfig());

    const plan = planReview({
      findings: [SQL_INJECTION],
      commentable: COMMENTABLE,
      config: read.config,
      posted: new Set(),
    });
    const { bodies, keep } = recorder();
    const scope = nock(API).patch(`${CHECK_RUNS}/77`, keep).reply(200, {});
    await completeCheckRun(
      octokit(),
      { ...REPO, checkRunId: 77 },
      { kind: 'reviewed', plan },
      { now: DONE, configErrors: read.errors },
    );
    scope.done();
    expect(bodies).toEqual([
      {
        status: 'completed',
        conclusion: 'failure',
        completed_at: '2030-01-02T03:05:00.000Z',
        output: {
          title: 'Found 1 problem (1 critical)',
          summary: '**Redline** found 1 problem (1 critical): changes requested.',
          text: [
            '**`.github/redline.yml` could not be used; the defaults were used instead:**',
            '- max_comments (line 1): must be a whole number from 0 to 100 (got "lots")',
            '- checks.securty (line 3): unknown option (known: security, performance, style, bug, suggestion)',
          ].join('\n'),
          annotations: [
            {
              path: 'src/users.ts',
              start_line: 12,
              end_line: 12,
              annotation_level: 'failure',
              title: 'critical security (js.sql-injection)',
              message: SQL_INJECTION.message,
            },
          ],
        },
      },
    ]);
  });

  it('is explained on a skipped run too', async () => {
    const { bodies, keep } = recorder();
    const scope = nock(API).patch(`${CHECK_RUNS}/77`, keep).reply(200, {});
    await completeCheckRun(
      octokit(),
      { ...REPO, checkRunId: 77 },
      { kind: 'skipped', reason: 'Draft pull requests are not reviewed.' },
      { now: DONE, configErrors: ['line 1, column 1: Tabs are not allowed as indentation'] },
    );
    scope.done();
    expect((bodies[0] as { output: unknown }).output).toEqual({
      title: 'Review skipped',
      summary: 'Draft pull requests are not reviewed.',
      text: '**`.github/redline.yml` could not be used; the defaults were used instead:**\n- line 1, column 1: Tabs are not allowed as indentation',
    });
  });
});
