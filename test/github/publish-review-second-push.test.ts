import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { listPostedFingerprints } from '../../src/github/posted-fingerprints.js';
import {
  API,
  BOT,
  CHECK_RUNS,
  COMMENTS,
  HEAD_1,
  HEAD_2,
  octokit,
  PR,
  REVIEWS,
  reviewRun,
  SQL_COMMENT,
  useNockOnly,
} from './publish-review-harness.js';
import { finding, SQL_INJECTION } from './review-fixtures.js';

useNockOnly();

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
