import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGithub } from './fake-github.js';
import { RedlineProcess } from './redline-process.js';
import { runDist } from './run-dist.js';

/**
 * Issue 20, end to end: the committed dist/index.js, run as a runner runs it, against a real
 * Redline (test mode: the App never posts those reviews, so `publication` is `unpublished`) and a
 * local GitHub API at GITHUB_API_URL, reached through @actions/github's own fetch.
 */

const HEAD = 'c'.repeat(40);
const PULL = '/repos/acme/shop/pulls/2';
const TOKEN = ['ghs', 'd'.repeat(36)].join('_');
// Test-mode pull request 2 (decisions §2): a critical at src/api/users.js:42 (in this diff) and an
// important at src/db/queries.js:17 (not).
const FILES = [{ filename: 'src/api/users.js', status: 'modified', patch: '@@ -40,3 +40,4 @@\n a\n b\n+c\n d' }];

let redline: RedlineProcess;
let github: FakeGithub;

beforeAll(async () => {
  redline = await RedlineProcess.start();
  github = await FakeGithub.start(
    {
      [PULL]: { number: 2, head: { sha: HEAD } },
      [`${PULL}/files?per_page=100`]: FILES,
      [`${PULL}/comments?per_page=100`]: [],
      [`${PULL}/reviews?per_page=100`]: [],
    },
    { id: 9, html_url: 'https://github.com/acme/shop/pull/2#pullrequestreview-9' },
  );
});
afterAll(async () => {
  await github?.close();
  await redline?.stop();
});

interface ApiComment {
  file: string;
  line: number;
  message: string;
  rule_id: string;
  fingerprint: string;
  suggestion?: string;
}

describe('the bundle posting the review itself', () => {
  it('posts one review through GITHUB_API_URL with the github-token, and keeps the fail-on verdict', async () => {
    const url = 'https://github.com/acme/shop/pull/2';
    const run = await runDist({
      inputs: { 'api-key': redline.key, 'api-url': `${redline.baseUrl}/v1`, 'github-token': TOKEN },
      event: {
        name: 'pull_request',
        payload: { action: 'synchronize', pull_request: { html_url: url, head: { sha: HEAD } } },
      },
      env: { GITHUB_API_URL: github.baseUrl },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::Redline found 1 comment at or above fail-on "critical": 1 critical.');
    // The token is only ever printed inside the add-mask command that hides it.
    expect(run.stdout.split(TOKEN)).toHaveLength(2);
    expect(run.stdout).toContain(`::add-mask::${TOKEN}\n`);

    const id = /Redline review (rev_\w+)/.exec(run.stdout)?.[1];
    const comments = (await redline.get<{ data: ApiComment[] }>(`/v1/reviews/${id}/comments`)).body.data;
    const [sql, promise] = comments as [ApiComment, ApiComment];
    const marker = (c: ApiComment) => `<!-- redline:fingerprint=${c.fingerprint} -->`;
    const posts = github.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.path, r.headers.authorization])).toEqual([[`${PULL}/reviews`, `token ${TOKEN}`]]);
    expect(posts[0]?.body).toEqual({
      commit_id: HEAD,
      event: 'REQUEST_CHANGES',
      body:
        '**Redline** found 2 problems (1 critical, 1 important).\n\n' +
        'Test mode: a critical SQL injection and an unawaited promise; this would request changes.\n\n' +
        '**Outside the diff** (GitHub takes inline comments only on lines of the diff):\n' +
        `- \`src/db/queries.js:17\` **important** bug: ${promise.message} ${marker(promise)}`,
      comments: [
        {
          path: 'src/api/users.js',
          line: 42,
          side: 'RIGHT',
          body: `**critical** · security · \`js.sql-injection\`\n\n${sql.message}\n\n\`\`\`suggestion\n${sql.suggestion}\n\`\`\`\n\n${marker(sql)}`,
        },
      ],
    });
    expect(run.summaryFile).toContain(
      'Posted [a review](https://github.com/acme/shop/pull/2#pullrequestreview-9) on the pull request, requesting changes: 1 inline comment, 1 in its body.',
    );
  });
});
