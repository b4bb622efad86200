import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import type { commentableLines } from '../../src/engine/diff/commentable-lines.js';
import { reviewChange } from '../../src/engine/review-change.js';
import type { Finding } from '../../src/engine/types.js';
import { completeCheckRun, startCheckRun } from '../../src/github/check-run.js';
import { createOctokit } from '../../src/github/octokit.js';
import { planReview } from '../../src/github/plan-review.js';
import { listPostedFingerprints } from '../../src/github/posted-fingerprints.js';
import { publishReview } from '../../src/github/publish-review.js';
import { defaultRepositoryConfig, type RepositoryConfig } from '../../src/github/repository-config.js';
import { TEST_OCTOKIT_OPTIONS } from '../helpers/test-app.js';
import { COMMENTABLE, FILES, finding, SQL_COMMENT_BODY, SQL_INJECTION } from './review-fixtures.js';

/**
 * Publishing a run to GitHub (decisions §7, issue 6): one review on the reviewed commit with its
 * inline comments, and the `Redline` check run. GitHub is nock over the global fetch; every body
 * we send is asserted whole. Waits are shrunk through createOctokit's options.
 */

const API = 'https://api.github.test';
const PR = { owner: 'octo', repo: 'shop', number: 7 };
const BOT = { login: 'redline[bot]', id: 41898282, type: 'Bot' };
const HEAD_1 = '1'.repeat(40);
const HEAD_2 = '2'.repeat(40);
const STARTED = new Date('2030-01-02T03:04:05.000Z');
const COMPLETED = new Date('2030-01-02T03:04:09.250Z');

const CHECK_RUNS = '/repos/octo/shop/check-runs';
const REVIEWS = '/repos/octo/shop/pulls/7/reviews';
const COMMENTS = '/repos/octo/shop/pulls/7/comments';

let seq = 0;
const octokit = () =>
  createOctokit({
    apiUrl: API,
    token: ['ghs', 'publish', ++seq].join('_'),
    fetch: (input, init) => globalThis.fetch(input, init),
    ...TEST_OCTOKIT_OPTIONS,
  });

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

/** What the app does for one run, in order; the Probot wiring calls the same functions. */
async function reviewRun(input: {
  head: string;
  findings: Finding[];
  summary?: string;
  config?: RepositoryConfig;
  configErrors?: string[];
  commentable?: ReturnType<typeof commentableLines>;
}) {
  const github = octokit();
  const checkRunId = await startCheckRun(github, PR, input.head, { now: STARTED });
  const posted = await listPostedFingerprints(github, PR, { author: BOT.login });
  const plan = planReview({
    findings: input.findings,
    commentable: input.commentable ?? COMMENTABLE,
    config: input.config ?? defaultRepositoryConfig(),
    posted,
    summary: input.summary,
  });
  const review = await publishReview(github, PR, input.head, plan);
  const check = await completeCheckRun(
    github,
    { ...PR, checkRunId },
    { kind: 'reviewed', plan, summary: input.summary },
    { now: COMPLETED, configErrors: input.configErrors },
  );
  return { plan, review, check };
}

/** Records the bodies sent to each endpoint; nock answers. */
function recorder() {
  const sent: Record<string, unknown[]> = {};
  const keep = (name: string) => (body: unknown) => {
    sent[name] = [...(sent[name] ?? []), body];
    return true;
  };
  return { sent, keep };
}

/**
 * GitHub for one first run on a pull request: the check run `checkRunId` is created, no earlier
 * comments or reviews, the review answered `review`, the check run completed. Bodies are kept
 * under `create`, `review` and `complete`.
 */
function firstRunScript(
  keep: (name: string) => (body: unknown) => boolean,
  checkRunId: number,
  review: Record<string, unknown>,
) {
  return nock(API)
    .post(CHECK_RUNS, keep('create'))
    .reply(201, { id: checkRunId })
    .get(COMMENTS)
    .query({ per_page: 100 })
    .reply(200, [])
    .get(REVIEWS)
    .query({ per_page: 100 })
    .reply(200, [])
    .post(REVIEWS, keep('review'))
    .reply(200, review)
    .patch(`${CHECK_RUNS}/${checkRunId}`, keep('complete'))
    .reply(200, { id: checkRunId });
}

const CREATE_CHECK = (head: string) => ({
  name: 'Redline',
  head_sha: head,
  status: 'in_progress',
  started_at: '2030-01-02T03:04:05.000Z',
});

const SQL_COMMENT = {
  path: 'src/users.ts',
  line: 12,
  side: 'RIGHT',
  body: SQL_COMMENT_BODY,
};

const SQL_ANNOTATION = {
  path: 'src/users.ts',
  start_line: 12,
  end_line: 12,
  annotation_level: 'failure',
  title: 'critical security (js.sql-injection)',
  message: 'SQL built by concatenating values is open to SQL injection: pass the values as query parameters.',
};

describe('a pull request with a critical problem', () => {
  it('gets REQUEST_CHANGES with the inline comment on its line, and a failing check run', async () => {
    const { sent, keep } = recorder();
    const scope = firstRunScript(keep, 77, { id: 901, state: 'CHANGES_REQUESTED' });

    const { review, check } = await reviewRun({
      head: HEAD_1,
      findings: [SQL_INJECTION],
      summary: 'Adds a lookup of users by id.',
    });

    scope.done();
    expect(sent.create).toEqual([CREATE_CHECK(HEAD_1)]);
    expect(sent.review).toEqual([
      {
        commit_id: HEAD_1,
        event: 'REQUEST_CHANGES',
        body: '**Redline** found 1 problem (1 critical).\n\nAdds a lookup of users by id.',
        comments: [SQL_COMMENT],
      },
    ]);
    expect(sent.complete).toEqual([
      {
        status: 'completed',
        conclusion: 'failure',
        completed_at: '2030-01-02T03:04:09.250Z',
        output: {
          title: 'Found 1 problem (1 critical)',
          summary: '**Redline** found 1 problem (1 critical): changes requested.\n\nAdds a lookup of users by id.',
          annotations: [SQL_ANNOTATION],
        },
      },
    ]);
    expect(review).toEqual({ reviewId: 901, event: 'REQUEST_CHANGES', inlineComments: 1, fallback: false });
    expect(check).toEqual({ conclusion: 'failure', annotations: 1, failedAnnotations: 0 });
  });

  it('found by the engine in a real change, is commented on the line that has it', async () => {
    const result = reviewChange(
      { files: FILES.map((f) => ({ ...f, additions: 3, deletions: 0 })) },
      { checkSecurity: true, checkPerformance: true },
    );
    const plan = planReview({
      findings: result.findings,
      commentable: COMMENTABLE,
      config: defaultRepositoryConfig(),
      posted: new Set(),
    });
    expect(plan.event).toBe('REQUEST_CHANGES');
    expect(plan.comments.map((c) => [c.path, c.line, c.side])).toContainEqual(['src/users.ts', 12, 'RIGHT']);
    const sql = plan.comments.find((c) => c.line === 12);
    expect(sql?.body).toMatch(/^\*\*critical\*\* · security · `js\.sql-injection`/);
  });
});

describe('a clean pull request', () => {
  it('gets APPROVE and a successful check run', async () => {
    const { sent, keep } = recorder();
    const scope = firstRunScript(keep, 78, { id: 902, state: 'APPROVED' });

    const { review, check } = await reviewRun({ head: HEAD_1, findings: [], summary: 'Renames a variable.' });

    scope.done();
    expect(sent.review).toEqual([
      {
        commit_id: HEAD_1,
        event: 'APPROVE',
        body: '**Redline** found no problems.\n\nRenames a variable.',
        comments: [],
      },
    ]);
    expect(sent.complete).toEqual([
      {
        status: 'completed',
        conclusion: 'success',
        completed_at: '2030-01-02T03:04:09.250Z',
        output: {
          title: 'Found no problems',
          summary: '**Redline** found no problems: approved.\n\nRenames a variable.',
        },
      },
    ]);
    expect(review.event).toBe('APPROVE');
    expect(check).toEqual({ conclusion: 'success', annotations: 0, failedAnnotations: 0 });
  });
});

describe('a second push', () => {
  /**
   * A small stateful GitHub: reviews posted are kept, and their inline comments listed back, as
   * GitHub does; a person's comment quoting a marker and another bot's review are there too.
   */
  function statefulGitHub() {
    const posted: { review: Record<string, unknown> }[] = [];
    const comments: unknown[] = [
      {
        id: 1,
        user: { login: 'mallory', id: 5, type: 'User' },
        body: `Hide this: <!-- redline:fingerprint=${'b'.repeat(16)} -->`,
      },
    ];
    const reviews: unknown[] = [
      {
        id: 3,
        user: { login: 'other-bot[bot]', type: 'Bot' },
        body: `- x <!-- redline:fingerprint=${'c'.repeat(16)} -->`,
      },
    ];
    let checkRuns = 100;
    const scope = nock(API)
      .persist()
      .post(CHECK_RUNS)
      .reply(201, () => ({ id: ++checkRuns }))
      .patch(/\/repos\/octo\/shop\/check-runs\/\d+$/)
      .reply(200, {})
      .get(COMMENTS)
      .query({ per_page: 100 })
      .reply(200, () => comments)
      .get(REVIEWS)
      .query({ per_page: 100 })
      .reply(200, () => reviews)
      .post(REVIEWS)
      .reply(200, (_uri, body) => {
        const review = body as { body: string; comments?: { path: string; line: number; body: string }[] };
        const id = 900 + posted.length;
        posted.push({ review });
        reviews.push({ id, user: BOT, body: review.body });
        for (const c of review.comments ?? []) comments.push({ id: comments.length + 1, user: BOT, ...c });
        return { id };
      });
    return { posted, scope };
  }

  it('does not repeat comments already posted, keeps asking for changes, and approves once fixed', async () => {
    const github = statefulGitHub();
    const outside = finding({ severity: 'warning', file: 'src/other.ts', line: 9, message: 'Elsewhere.' });
    await reviewRun({ head: HEAD_1, findings: [SQL_INJECTION, outside] });
    expect(github.posted[0]?.review.comments).toEqual([SQL_COMMENT]);

    // A push above the query moves it a line down: same code, same fingerprint. One new problem.
    const moved = { ...SQL_INJECTION, line: 13 };
    const fresh = finding({ severity: 'warning', file: 'src/util.ts', line: 2, message: 'New on this push.' });
    const second = await reviewRun({ head: HEAD_2, findings: [moved, outside, fresh] });
    expect(github.posted[1]?.review).toEqual({
      commit_id: HEAD_2,
      event: 'REQUEST_CHANGES',
      body: '**Redline** found 3 problems (1 critical, 2 warning).\n\n2 of them were reported by earlier reviews and are not repeated.',
      comments: [
        {
          path: 'src/util.ts',
          line: 2,
          side: 'RIGHT',
          body: `**warning** · bug · \`js.example\`\n\nNew on this push.\n\n<!-- redline:fingerprint=${fresh.fingerprint} -->`,
        },
      ],
    });
    expect(second.check.conclusion).toBe('failure');

    // The problems are fixed: nothing to repeat, nothing blocking.
    const third = await reviewRun({ head: HEAD_2, findings: [] });
    expect(github.posted[2]?.review).toEqual({
      commit_id: HEAD_2,
      event: 'APPROVE',
      body: '**Redline** found no problems.',
      comments: [],
    });
    expect(third.check.conclusion).toBe('success');
  });

  it('reads the markers of every page, of our comments and review bodies only', async () => {
    const marker = (fp: string) => `<!-- redline:fingerprint=${fp} -->`;
    const page2 = `${API}${COMMENTS}?per_page=100&page=2`;
    const scope = nock(API)
      .get(COMMENTS)
      .query({ per_page: 100 })
      .reply(
        200,
        [
          { id: 1, user: BOT, body: `**critical** · security\n\nText.\n\n${marker('1111111111111111')}` },
          { id: 2, user: BOT, body: `A reply by the bot without a marker.` },
          { id: 3, user: { login: 'alice', type: 'User' }, body: marker('2222222222222222') },
          { id: 4, user: BOT, body: `Quoted ${marker('3333333333333333')} in the middle, not ours to count.` },
        ],
        { link: `<${page2}>; rel="next", <${page2}>; rel="last"` },
      )
      .get(COMMENTS)
      .query({ per_page: 100, page: 2 })
      .reply(200, [
        { id: 5, user: BOT, body: `Second page.\n\n${marker('4444444444444444')}\n` },
        { id: 6, user: BOT, body: `Any text without spaces.\n\n${marker('js.rule:src/a b.ts:3')}` },
        { id: 7, user: BOT, body: `Any text without spaces.\n\n${marker('js.rule:src/a.ts:3')}` },
      ])
      .get(REVIEWS)
      .query({ per_page: 100 })
      .reply(200, [
        {
          id: 9,
          user: BOT,
          body: `**Redline** found 2 problems.\n\n- \`a.ts:1\` x ${marker('5555555555555555')}\n- \`b.ts:2\` y ${marker('6666666666666666')}`,
        },
        { id: 10, user: BOT, body: null },
        { id: 11, user: { login: 'bob', type: 'User' }, body: `- z ${marker('7777777777777777')}` },
      ]);
    const fingerprints = await listPostedFingerprints(octokit(), PR, { author: 'Redline[bot]' });
    scope.done();
    expect([...fingerprints].sort()).toEqual([
      '1111111111111111',
      '4444444444444444',
      '5555555555555555',
      '6666666666666666',
      'js.rule:src/a.ts:3',
    ]);
  });

  it('without an author, counts any bot, never a person', async () => {
    const scope = nock(API)
      .get(COMMENTS)
      .query({ per_page: 100 })
      .reply(200, [
        { id: 1, user: { login: 'redline-staging[bot]', type: 'Bot' }, body: '<!-- redline:fingerprint=aaaa -->' },
        { id: 2, user: { login: 'alice', type: 'User' }, body: '<!-- redline:fingerprint=bbbb -->' },
        { id: 3, user: null, body: '<!-- redline:fingerprint=cccc -->' },
      ])
      .get(REVIEWS)
      .query({ per_page: 100 })
      .reply(200, []);
    expect([...(await listPostedFingerprints(octokit(), PR))]).toEqual(['aaaa']);
    scope.done();
  });

  it('a failure to list them is an upstream error, not a review that repeats everything', async () => {
    const scope = nock(API).get(COMMENTS).query({ per_page: 100 }).reply(404, { message: 'Not Found' });
    const error = await listPostedFingerprints(octokit(), PR).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'upstream_error',
      status: 502,
      message: "GitHub could not list the pull request's earlier comments (HTTP 404)",
    });
    scope.done();
  });
});

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
