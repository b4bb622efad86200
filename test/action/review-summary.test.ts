import { describe, expect, it } from 'vitest';
import { annotateComments } from '../../src/action/annotate-comments.js';
import { commentsAtOrAbove, failOnMessage } from '../../src/action/fail-on.js';
import { renderReviewSummary, type SummaryReview } from '../../src/action/review-summary.js';
import type { ReviewComment } from '../../src/client/api-types.js';

const SHA = 'a'.repeat(40);
const PR = 'https://github.com/acme/shop/pull/2';
const URL = 'https://redline.example.com/v1/reviews/rev_2';

const completed: SummaryReview = {
  id: 'rev_2',
  status: 'completed',
  score: 43,
  summary: 'Two problems.\nOne of them is serious.',
  pull_request: { url: PR, number: 2, repository: 'acme/shop' },
  error: null,
};

const comments: ReviewComment[] = [
  {
    id: 'cmt_1',
    type: 'security',
    severity: 'critical',
    message: 'SQL built by concatenation | use <params>\nnow',
    file: 'src/api/users.js',
    line: 42,
    suggestion: 'db.query(sql, [id])',
  },
  { id: 'cmt_2', type: 'bug', severity: 'important', message: 'Unawaited promise', file: 'src/db/my [x].js', line: 17 },
  { id: 'cmt_3', type: 'performance', severity: 'warning', message: 'Await in loop', file: 'a.go', line: 3 },
  { id: 'cmt_4', type: 'style', severity: 'info', message: 'Debug output', file: 'b.py', line: 9 },
];

describe('renderReviewSummary', () => {
  it('renders a completed review: score, counts, summary, comments linked at the head commit, verdict', () => {
    const markdown = renderReviewSummary({
      review: completed,
      comments,
      reviewUrl: URL,
      headSha: SHA,
      verdict: { passed: false, message: 'Redline found 1 comment at or above fail-on "critical": 1 critical.' },
    });
    expect(markdown).toBe(
      [
        '## Redline review',
        '',
        '| score | status | critical | important | warning | info | comments |',
        '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
        '| 43 | completed | 1 | 1 | 1 | 1 | 4 |',
        '',
        'Review [rev_2](https://redline.example.com/v1/reviews/rev_2) of [acme/shop#2](https://github.com/acme/shop/pull/2).',
        '',
        '> Two problems.',
        '> One of them is serious.',
        '',
        '### Comments',
        '',
        '| severity | type | location | message |',
        '| --- | --- | --- | --- |',
        `| critical | security | [src/api/users.js:42](https://github.com/acme/shop/blob/${SHA}/src/api/users.js#L42) | SQL built by concatenation \\| use &lt;params&gt;<br>now |`,
        `| important | bug | [src/db/my \\[x\\].js:17](https://github.com/acme/shop/blob/${SHA}/src/db/my%20%5Bx%5D.js#L17) | Unawaited promise |`,
        `| warning | performance | [a.go:3](https://github.com/acme/shop/blob/${SHA}/a.go#L3) | Await in loop |`,
        `| info | style | [b.py:9](https://github.com/acme/shop/blob/${SHA}/b.py#L9) | Debug output |`,
        '',
        '❌ **Failed:** Redline found 1 comment at or above fail-on "critical": 1 critical.',
        '',
      ].join('\n'),
    );
  });

  it('renders a clean review, and plain locations when the head commit is unknown', () => {
    const clean = renderReviewSummary({
      review: { ...completed, score: 100, summary: 'Clean.' },
      comments: [],
      reviewUrl: URL,
      headSha: undefined,
      verdict: { passed: true, message: 'Redline found no comments; none at or above fail-on "critical".' },
    });
    expect(clean).toBe(
      [
        '## Redline review',
        '',
        '| score | status | critical | important | warning | info | comments |',
        '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
        '| 100 | completed | 0 | 0 | 0 | 0 | 0 |',
        '',
        'Review [rev_2](https://redline.example.com/v1/reviews/rev_2) of [acme/shop#2](https://github.com/acme/shop/pull/2).',
        '',
        '> Clean.',
        '',
        'No comments.',
        '',
        '✅ **Passed:** Redline found no comments; none at or above fail-on "critical".',
        '',
      ].join('\n'),
    );
    const plain = renderReviewSummary({
      review: completed,
      comments: comments.slice(3),
      reviewUrl: URL,
      headSha: undefined,
      verdict: { passed: true, message: 'ok' },
    });
    expect(plain).toContain('| info | style | `b.py:9` | Debug output |');
  });

  it('renders a failed review with its error and dashes for what it does not have', () => {
    const markdown = renderReviewSummary({
      review: {
        id: 'rev_3',
        status: 'failed',
        score: null,
        summary: null,
        // No repository field: the name comes from the URL.
        pull_request: { url: 'https://github.com/acme/shop/pull/3', number: 3 },
        error: { code: 'test_failure', message: 'Test pull request #3 always fails (test mode).' },
      },
      comments: [],
      reviewUrl: 'https://redline.example.com/v1/reviews/rev_3',
      headSha: SHA,
      verdict: { passed: false, message: 'Redline review rev_3 failed.' },
    });
    expect(markdown).toBe(
      [
        '## Redline review',
        '',
        '| score | status | critical | important | warning | info | comments |',
        '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
        '| – | failed | – | – | – | – | – |',
        '',
        'Review [rev_3](https://redline.example.com/v1/reviews/rev_3) of [acme/shop#3](https://github.com/acme/shop/pull/3).',
        '',
        '> The review failed: Test pull request #3 always fails (test mode). (test_failure)',
        '',
        '❌ **Failed:** Redline review rev_3 failed.',
        '',
      ].join('\n'),
    );
  });
});

describe('fail-on', () => {
  it.each([
    ['critical', ['cmt_1']],
    ['important', ['cmt_1', 'cmt_2']],
    ['warning', ['cmt_1', 'cmt_2', 'cmt_3']],
    ['info', ['cmt_1', 'cmt_2', 'cmt_3', 'cmt_4']],
    ['never', []],
  ] as const)('%s fails on %j', (level, ids) => {
    expect(commentsAtOrAbove(comments, level).map((c) => c.id)).toEqual(ids);
  });

  it('says how many comments are at or above the level, by severity', () => {
    expect(failOnMessage(comments, 'warning')).toBe(
      'Redline found 3 comments at or above fail-on "warning": 1 critical, 1 important, 1 warning.',
    );
    expect(failOnMessage(comments.slice(2), 'important')).toBeUndefined();
  });
});

describe('annotateComments', () => {
  it('gives error for critical and important, warning, notice for info, each on its file and line', () => {
    const calls: [string, string, object | undefined][] = [];
    const record = (level: string) => (message: string, properties?: object) => {
      calls.push([level, message, properties]);
    };
    annotateComments({ error: record('error'), warning: record('warning'), notice: record('notice') }, comments);
    expect(calls).toEqual([
      [
        'error',
        'SQL built by concatenation | use <params>\nnow\n\nSuggested fix:\ndb.query(sql, [id])',
        { title: 'Redline: critical security', file: 'src/api/users.js', startLine: 42 },
      ],
      ['error', 'Unawaited promise', { title: 'Redline: important bug', file: 'src/db/my [x].js', startLine: 17 }],
      ['warning', 'Await in loop', { title: 'Redline: warning performance', file: 'a.go', startLine: 3 }],
      ['notice', 'Debug output', { title: 'Redline: info style', file: 'b.py', startLine: 9 }],
    ]);
  });
});
