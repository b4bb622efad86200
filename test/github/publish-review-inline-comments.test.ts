import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { planReview } from '../../src/github/plan-review.js';
import { publishReview } from '../../src/github/publish-review.js';
import { defaultRepositoryConfig } from '../../src/github/repository-config.js';
import {
  API,
  firstRunScript,
  HEAD_1,
  octokit,
  PR,
  REVIEWS,
  recorder,
  reviewRun,
  SQL_COMMENT,
  useNockOnly,
} from './publish-review-harness.js';
import { COMMENTABLE, finding, SQL_INJECTION } from './review-fixtures.js';

useNockOnly();

describe('findings off the diff', () => {
  it('never reach the inline comments: they are listed in the review body', async () => {
    const { sent, keep } = recorder();
    const scope = firstRunScript(keep, 79, { id: 903 });
    const offDiff = finding({ severity: 'important', file: 'src/users.ts', line: 99, message: 'Below the hunk.' });
    await reviewRun({ head: HEAD_1, findings: [offDiff] });
    scope.done();
    expect(sent.review).toEqual([
      {
        commit_id: HEAD_1,
        event: 'REQUEST_CHANGES',
        body: [
          '**Redline** found 1 problem (1 important).',
          '',
          '**Outside the diff** (GitHub takes inline comments only on lines of the diff):',
          `- \`src/users.ts:99\` **important** bug: Below the hunk. <!-- redline:fingerprint=${offDiff.fingerprint} -->`,
        ].join('\n'),
        comments: [],
      },
    ]);
    // The check run still annotates it (annotations may sit on any line of the file).
    expect((sent.complete as { output: { annotations: unknown[] } }[])[0]?.output.annotations).toEqual([
      {
        path: 'src/users.ts',
        start_line: 99,
        end_line: 99,
        annotation_level: 'failure',
        title: 'important bug (js.example)',
        message: 'Below the hunk.',
      },
    ]);
  });
});

describe('more problems than max_comments', () => {
  it('posts the most severe inline and summarises the rest', async () => {
    const { sent, keep } = recorder();
    const scope = firstRunScript(keep, 80, { id: 904 });
    const lines = [10, 11, 13, 14, 15];
    const warnings = lines.map((line) => finding({ severity: 'warning', line, message: `Warning on ${line}.` }));
    await reviewRun({
      head: HEAD_1,
      findings: [...warnings, SQL_INJECTION],
      config: { ...defaultRepositoryConfig(), max_comments: 3 },
    });
    scope.done();
    const review = sent.review?.[0] as { comments: { line: number }[]; body: string; event: string };
    expect(review.event).toBe('REQUEST_CHANGES');
    expect(review.comments.map((c) => c.line)).toEqual([10, 11, 12]);
    expect(review.body).toBe(
      [
        '**Redline** found 6 problems (1 critical, 5 warning).',
        '',
        '**Over the limit of 3 inline comments:**',
        ...[13, 14, 15].map(
          (line, i) =>
            `- \`src/users.ts:${line}\` **warning** bug: Warning on ${line}. <!-- redline:fingerprint=${warnings[i + 2]?.fingerprint} -->`,
        ),
      ].join('\n'),
    );
  });
});

describe('GitHub refusing an inline comment (422)', () => {
  it('sends the review again once, with every new finding in the body', async () => {
    const { sent, keep } = recorder();
    const scope = nock(API)
      .post(REVIEWS, keep('review'))
      .reply(422, {
        message: 'Unprocessable Entity',
        errors: ['Line could not be resolved'],
        documentation_url: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request',
      })
      .post(REVIEWS, keep('review'))
      .reply(200, { id: 905 });
    const plan = planReview({
      findings: [SQL_INJECTION],
      commentable: COMMENTABLE,
      config: defaultRepositoryConfig(),
      posted: new Set(),
    });
    const review = await publishReview(octokit(), PR, HEAD_1, plan);
    scope.done();
    expect(sent.review).toEqual([
      {
        commit_id: HEAD_1,
        event: 'REQUEST_CHANGES',
        body: '**Redline** found 1 problem (1 critical).',
        comments: [SQL_COMMENT],
      },
      {
        commit_id: HEAD_1,
        event: 'REQUEST_CHANGES',
        body: [
          '**Redline** found 1 problem (1 critical).',
          '',
          '**Problems** (GitHub did not take them as inline comments):',
          '- `src/users.ts:12` **critical** security: SQL built by concatenating values is open to SQL injection: pass the values as query parameters. <!-- redline:fingerprint=a1b2c3d4e5f60718 -->',
        ].join('\n'),
      },
    ]);
    expect(review).toEqual({ reviewId: 905, event: 'REQUEST_CHANGES', inlineComments: 0, fallback: true });
  });

  it('a second refusal is an upstream error for the caller to record', async () => {
    const scope = nock(API).post(REVIEWS).times(2).reply(422, { message: 'Unprocessable Entity' });
    const plan = planReview({
      findings: [SQL_INJECTION],
      commentable: COMMENTABLE,
      config: defaultRepositoryConfig(),
      posted: new Set(),
    });
    const error = await publishReview(octokit(), PR, HEAD_1, plan).catch((e: unknown) => e);
    scope.done();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'upstream_error', status: 502 });
    expect((error as Error).message).toMatch(/^GitHub refused the review \(HTTP 422: Unprocessable Entity/);
  });

  it('a review without inline comments is not sent twice', async () => {
    const scope = nock(API).post(REVIEWS).reply(422, { message: 'Can not approve your own pull request' });
    const plan = planReview({
      findings: [],
      commentable: COMMENTABLE,
      config: defaultRepositoryConfig(),
      posted: new Set(),
    });
    await expect(publishReview(octokit(), PR, HEAD_1, plan)).rejects.toMatchObject({ status: 502 });
    scope.done();
  });

  it('a 5xx is retried by Octokit and the review goes out once', async () => {
    const { sent, keep } = recorder();
    const scope = nock(API)
      .post(REVIEWS, keep('review'))
      .reply(502, { message: 'Bad Gateway' })
      .post(REVIEWS, keep('review'))
      .reply(200, { id: 906 });
    const plan = planReview({
      findings: [],
      commentable: COMMENTABLE,
      config: defaultRepositoryConfig(),
      posted: new Set(),
    });
    expect((await publishReview(octokit(), PR, HEAD_1, plan)).reviewId).toBe(906);
    expect(sent.review).toHaveLength(2);
    expect(sent.review?.[0]).toEqual(sent.review?.[1]);
    scope.done();
  });
});
