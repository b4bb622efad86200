import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { API_KEY, contextFor, example, REDLINE, run, TOKEN, useNock } from './github-action-harness.js';

/**
 * Issue 20: the action reads its pull request through @actions/github's context and, when the
 * Redline App does not post the review, posts it with the workflow's token. Redline's API and
 * GitHub's are nock; the event payloads are @octokit/webhooks-examples' (Codertocat/Hello-World #2).
 */
useNock();

const GITHUB = 'https://api.github.com';
const REPO = '/repos/Codertocat/Hello-World';
const PULL = `${REPO}/pulls/2`;
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
const PR_URL = 'https://github.com/Codertocat/Hello-World/pull/2';

const inputs = { 'api-key': API_KEY, 'api-url': `${REDLINE}/v1`, 'github-token': TOKEN };

const SUGGESTION = "  return db.query('select * from users where id = ?', [id]);";
const comments = [
  {
    id: 'cmt_1',
    type: 'security',
    severity: 'critical',
    message: 'SQL built from user input.',
    file: 'src/users.js',
    line: 3,
    rule_id: 'js.sql-injection',
    fingerprint: '0000000000000001',
    suggestion: SUGGESTION,
  },
  {
    id: 'cmt_2',
    type: 'style',
    severity: 'warning',
    message: 'Debug output left in.',
    file: 'src/users.js',
    line: 40,
    rule_id: 'js.console-log',
    fingerprint: '0000000000000002',
  },
  {
    id: 'cmt_3',
    type: 'bug',
    severity: 'important',
    message: 'The promise is not awaited.',
    file: 'src/users.js',
    line: 5,
    rule_id: 'js.floating-promise',
    fingerprint: '0000000000000003',
  },
];

/** src/users.js: new lines 1-6 are in the diff (1 and 6 context, 2-5 added); line 40 is not. */
const FILES = [
  {
    filename: 'src/users.js',
    status: 'modified',
    patch:
      "@@ -1,2 +1,6 @@\n const db = require('./db');\n+function find(id) {\n+  return db.query('select * from users where id = ' + id);\n+}\n+find(1);\n module.exports = {};",
  },
];

const marker = (n: number) => `<!-- redline:fingerprint=000000000000000${n} -->`;
const BODY_1 = `**critical** · security · \`js.sql-injection\`\n\nSQL built from user input.\n\n\`\`\`suggestion\n${SUGGESTION}\n\`\`\`\n\n${marker(1)}`;
const BODY_3 = `**important** · bug · \`js.floating-promise\`\n\nThe promise is not awaited.\n\n${marker(3)}`;
const OUTSIDE = `**Outside the diff** (GitHub takes inline comments only on lines of the diff):\n- \`src/users.js:40\` **warning** style: Debug output left in. ${marker(2)}`;

/** Redline's API: the review is created, read once (completed) and its comments listed. */
function redline(options: { publication?: (string | undefined)[]; comments?: unknown[]; prUrl?: string } = {}) {
  const prUrl = options.prUrl ?? PR_URL;
  const review = (publication: string | undefined) => ({
    id: 'rev_1',
    status: 'completed',
    score: 40,
    summary: 'Three problems.',
    pull_request: { url: prUrl, number: 2, repository: 'Codertocat/Hello-World' },
    stats: null,
    created_at: '2026-11-26T00:00:00.000Z',
    ...(publication === undefined ? {} : { publication }),
  });
  const scope = nock(REDLINE)
    .post('/v1/reviews', (body) => body.pull_request_url === prUrl)
    .reply(201, {
      data: { id: 'rev_1', status: 'pending', pull_request: { url: prUrl, number: 2 }, created_at: 'x' },
    });
  const [first, ...later] = options.publication ?? ['unpublished'];
  scope.get('/v1/reviews/rev_1').reply(200, { data: review(first) });
  scope.get('/v1/reviews/rev_1/comments').reply(200, { data: options.comments ?? comments });
  for (const publication of later) scope.get('/v1/reviews/rev_1').reply(200, { data: review(publication) });
  return scope;
}

interface Earlier {
  comments?: { user: { login: string; type: string }; body: string }[];
  reviews?: { user: { login: string; type: string }; body: string }[];
}

/** GitHub's API for pull request #2; `sent` receives the review the action posts. */
function gitHub(base = GITHUB, earlier: Earlier = {}, head = HEAD) {
  const sent: unknown[] = [];
  const scope = nock(base)
    .get(PULL)
    .reply(200, { number: 2, head: { sha: head } })
    .get(`${PULL}/files`)
    .query({ per_page: '100' })
    .reply(200, FILES)
    .get(`${PULL}/comments`)
    .query({ per_page: '100' })
    .reply(200, earlier.comments ?? [])
    .get(`${PULL}/reviews`)
    .query({ per_page: '100' })
    .reply(200, earlier.reviews ?? [])
    .post(`${PULL}/reviews`, (body) => {
      sent.push(body);
      return true;
    })
    .reply(200, { id: 77, html_url: `${PR_URL}#pullrequestreview-77` });
  return { scope, sent };
}

const pullRequest = (name = 'pull_request') => ({ name, payload: example('pull_request', 'synchronize') });

const FAILED_VERDICT = 'Redline found 1 comment at or above fail-on "critical": 1 critical.';

describe('the action without the Redline App', () => {
  it('posts one review on the head commit: diff lines inline with suggestions, the rest in the body', async () => {
    redline();
    const { sent } = gitHub();
    const result = await run(inputs, contextFor(pullRequest()));

    expect(sent).toEqual([
      {
        commit_id: HEAD,
        event: 'REQUEST_CHANGES',
        body: `**Redline** found 3 problems (1 critical, 1 important, 1 warning).\n\nThree problems.\n\n${OUTSIDE}`,
        comments: [
          { path: 'src/users.js', line: 3, side: 'RIGHT', body: BODY_1 },
          { path: 'src/users.js', line: 5, side: 'RIGHT', body: BODY_3 },
        ],
      },
    ]);
    const posted = `Posted [a review](${PR_URL}#pullrequestreview-77) on the pull request, requesting changes: 2 inline comments, 1 in its body.`;
    expect(result.summary).toContain(`\n${posted}\n\n❌ **Failed:** ${FAILED_VERDICT}\n`);
    expect(result.failed).toBe(FAILED_VERDICT);
    expect(result.calls).toContainEqual({ method: 'setSecret', args: [TOKEN] });
  });

  it('does the same on pull_request_target, from a fork too (the target run has a writable token)', async () => {
    const event = pullRequest('pull_request_target');
    event.payload.pull_request.head.repo.full_name = 'someone/Hello-World';
    redline();
    const { sent } = gitHub();
    const result = await run(inputs, contextFor(event));
    expect(sent).toHaveLength(1);
    expect(result.failed).toBe(FAILED_VERDICT);
  });

  it('approves when nothing reaches warning, and comments when only warnings remain', async () => {
    const info = { ...comments[0], severity: 'info', suggestion: undefined };
    redline({ comments: [info] });
    const approve = gitHub();
    await run({ ...inputs, 'fail-on': 'never' }, contextFor(pullRequest()));
    expect(approve.sent).toMatchObject([{ event: 'APPROVE' }]);

    redline({ comments: [comments[1]] });
    const comment = gitHub();
    await run({ ...inputs, 'fail-on': 'never' }, contextFor(pullRequest()));
    expect(comment.sent).toMatchObject([{ event: 'COMMENT', comments: [] }]);
  });

  it('posts through GITHUB_API_URL on GitHub Enterprise Server', async () => {
    const server = { serverUrl: 'https://octocoders.github.io', apiUrl: 'https://octocoders.github.io/api/v3' };
    const event = { name: 'pull_request', payload: example('pull_request', 'opened', true) };
    const head = event.payload.pull_request.head.sha as string;
    redline({ prUrl: 'https://octocoders.github.io/Codertocat/Hello-World/pull/2' });
    const { sent } = gitHub(`${server.apiUrl}`, {}, head);
    const result = await run(inputs, contextFor(event, server));
    expect(sent).toMatchObject([{ commit_id: head, event: 'REQUEST_CHANGES' }]);
    expect(result.failed).toBe(FAILED_VERDICT);
  });

  it('reviews the pull request named by pull-request-url on workflow_dispatch, on its current head', async () => {
    redline();
    const { sent } = gitHub();
    const event = { name: 'workflow_dispatch', payload: example('workflow_dispatch', undefined) };
    const result = await run({ ...inputs, 'pull-request-url': PR_URL }, contextFor(event));
    expect(sent).toMatchObject([{ commit_id: HEAD }]);
    expect(result.failed).toBe(FAILED_VERDICT);
  });

  it('on a new push posts only what no bot posted before; a person pasting a marker hides nothing', async () => {
    redline();
    const bot = { login: 'github-actions[bot]', type: 'Bot' };
    const { sent } = gitHub(GITHUB, {
      comments: [
        { user: bot, body: BODY_1 },
        { user: { login: 'octocat', type: 'User' }, body: `quoting: ${marker(3)}` },
      ],
      reviews: [{ user: { login: 'redline[bot]', type: 'Bot' }, body: `**Redline** …\n\n${OUTSIDE}` }],
    });
    const result = await run(inputs, contextFor(pullRequest()));
    expect(sent).toEqual([
      {
        commit_id: HEAD,
        event: 'REQUEST_CHANGES',
        body:
          '**Redline** found 3 problems (1 critical, 1 important, 1 warning).\n\nThree problems.\n\n' +
          '2 of them were reported by earlier reviews and are not repeated.',
        comments: [{ path: 'src/users.js', line: 5, side: 'RIGHT', body: BODY_3 }],
      },
    ]);
    expect(result.summary).toContain(
      'requesting changes: 1 inline comment, 0 in its body; 2 already posted by an earlier review.',
    );
  });

  it('after a newer push, lists every finding in the body on the commit the run is about', async () => {
    redline();
    const sent: unknown[] = [];
    nock(GITHUB)
      .get(PULL)
      .reply(200, { number: 2, head: { sha: 'f'.repeat(40) } })
      .get(`${PULL}/comments`)
      .query(true)
      .reply(200, [])
      .get(`${PULL}/reviews`)
      .query(true)
      .reply(200, [])
      .post(`${PULL}/reviews`, (body) => sent.push(body) > 0)
      .reply(200, { id: 78, html_url: `${PR_URL}#pullrequestreview-78` });
    await run(inputs, contextFor(pullRequest()));
    expect(sent).toMatchObject([{ commit_id: HEAD, comments: [] }]);
  });
});

describe('the action where it must not post', () => {
  it('posts nothing when the Redline App posted the review, after waiting while it was pending', async () => {
    redline({ publication: ['pending', 'pending', 'published'] });
    const result = await run(inputs, contextFor(pullRequest()));
    expect(result.summary).toContain('\nPosted on the pull request by the Redline App.\n');
    expect(result.warnings).toEqual([]);
    expect(result.failed).toBe(FAILED_VERDICT);
  });

  it("posts nothing from a fork's pull_request run (read-only token) and says so instead of failing", async () => {
    const event = pullRequest();
    event.payload.pull_request.head.repo.full_name = 'someone/Hello-World';
    redline({ comments: [comments[1]] });
    const result = await run({ ...inputs, 'fail-on': 'warning' }, contextFor(event));
    expect(result.summary).toContain(
      '\nNot posted on the pull request: this `pull_request` run comes from a fork (or Dependabot), and GitHub gives it a read-only token.',
    );
    expect(result.warnings).toEqual([]);
    expect(result.failed).toBe('Redline found 1 comment at or above fail-on "warning": 1 warning.');
  });

  it('posts nothing when the Redline server does not say whether its App posts reviews', async () => {
    redline({ publication: [undefined] });
    const result = await run(inputs, contextFor(pullRequest()));
    expect(result.summary).toContain(
      '\nNot posted on the pull request: this Redline server does not say whether its GitHub App posts reviews; update it.\n',
    );
    expect(result.failed).toBe(FAILED_VERDICT);
  });

  it('posts nothing when the Redline API fails while the App may still post, and keeps the verdict', async () => {
    redline({ publication: ['pending'] });
    nock(REDLINE)
      .get('/v1/reviews/rev_1')
      .reply(401, {
        error: { type: 'authentication_error', code: 'unauthorized', message: 'Token revoked.', status: 401 },
      });
    const result = await run(inputs, contextFor(pullRequest()));
    const why = 'the Redline API did not say whether its App posts the review (';
    expect(result.warnings).toEqual([expect.stringContaining(`Redline: ${why}`)]);
    expect(result.summary).toContain(`\nNot posted on the pull request: ${why}`);
    expect(result.failed).toBe(FAILED_VERDICT);
  });

  it.each([
    ['without a github-token', { 'github-token': '' }, 'github-token is empty'],
    ['with inline-comments false', { 'inline-comments': 'false' }, 'inline-comments is false'],
  ])('posts nothing %s, and the summary is as before', async (_, changes, why) => {
    redline();
    const result = await run({ ...inputs, ...changes }, contextFor(pullRequest()));
    expect(result.summary).not.toContain('pull request:');
    expect(result.calls).toContainEqual({
      method: 'info',
      args: [`${why}: the review is not posted on the pull request (annotations only).`],
    });
    expect(result.failed).toBe(FAILED_VERDICT);
  });
});

describe("GitHub's API failing", () => {
  // Each failure answers the calls before it as a healthy GitHub would.
  const pullRead = (s: nock.Scope) => s.get(PULL).reply(200, { head: { sha: HEAD } });
  const filesListed = (s: nock.Scope) => pullRead(s).get(`${PULL}/files`).query(true).reply(200, FILES);
  const commentsListed = (s: nock.Scope) => filesListed(s).get(`${PULL}/comments`).query(true).reply(200, []);
  const reviewsListed = (s: nock.Scope) => commentsListed(s).get(`${PULL}/reviews`).query(true).reply(200, []);
  const failures: [string, (scope: nock.Scope) => nock.Scope, string][] = [
    [
      'reading the pull request',
      (s) => s.get(PULL).reply(500, { message: 'Server Error' }),
      'GitHub answered 500 when reading the pull request: Server Error',
    ],
    [
      'listing files',
      (s) =>
        pullRead(s).get(`${PULL}/files`).query(true).reply(403, { message: 'Resource not accessible by integration' }),
      "GitHub answered 403 when listing the pull request's files: Resource not accessible by integration (the token needs `pull-requests: write`, and a read-only token cannot post: see docs/ci-action.md)",
    ],
    [
      'listing earlier review comments',
      (s) => filesListed(s).get(`${PULL}/comments`).query(true).reply(502, { message: 'Bad Gateway' }),
      "GitHub answered 502 when listing the pull request's review comments: Bad Gateway",
    ],
    [
      'listing earlier reviews, the connection dropped',
      (s) => commentsListed(s).get(`${PULL}/reviews`).query(true).replyWithError('socket hang up'),
      "GitHub failed when listing the pull request's reviews: socket hang up",
    ],
    [
      'posting',
      (s) => reviewsListed(s).post(`${PULL}/reviews`).reply(401, { message: 'Bad credentials' }),
      'GitHub answered 401 when posting the review on the pull request: Bad credentials (the github-token input is not a valid token)',
    ],
    [
      'refusing an inline comment, then the fallback',
      (s) =>
        reviewsListed(s)
          .post(`${PULL}/reviews`)
          .reply(422, { message: 'Unprocessable Entity' })
          .post(`${PULL}/reviews`)
          .reply(422, { message: 'Validation Failed' }),
      'GitHub answered 422 when posting the review on the pull request: Validation Failed',
    ],
  ];

  it.each(failures)(
    '%s: a warning and a line in the summary, the fail-on verdict unchanged',
    async (_, fail, message) => {
      redline();
      fail(nock(GITHUB));
      const result = await run(inputs, contextFor(pullRequest()));
      expect(result.warnings).toEqual([`Could not post the review on the pull request: ${message}`]);
      expect(result.summary).toContain(
        `\nNot posted on the pull request: ${message}\n\n❌ **Failed:** ${FAILED_VERDICT}\n`,
      );
      expect(result.failed).toBe(FAILED_VERDICT);
      expect(result.outputs['critical-count']).toBe('1');
    },
  );

  it('a GitHub failure leaves a passing step passing', async () => {
    redline();
    nock(GITHUB).get(PULL).reply(503, { message: 'Unavailable' });
    const result = await run({ ...inputs, 'fail-on': 'never' }, contextFor(pullRequest()));
    expect(result.failed).toBeUndefined();
    expect(result.warnings).toEqual([
      'Could not post the review on the pull request: GitHub answered 503 when reading the pull request: Unavailable',
    ]);
  });
});
