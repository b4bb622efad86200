import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QUEUES } from '../../src/jobs/queues.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples') as {
  name: string;
  examples: ({ action?: string } & Record<string, unknown>)[];
}[];

/** A real payload from @octokit/webhooks-examples (Codertocat/Hello-World #2), adjusted per test. */
function pullRequestPayload(action: string, changes: { sha?: string; draft?: boolean; updatedAt?: string } = {}) {
  const source = examples.find((e) => e.name === 'pull_request')?.examples.find((x) => x.action === action);
  if (source === undefined) throw new Error(`no pull_request.${action} example`);
  const payload = structuredClone(source) as {
    pull_request: { head: { sha: string }; draft: boolean; updated_at: string };
    installation?: { id: number };
  };
  if (changes.sha) payload.pull_request.head.sha = changes.sha;
  if (changes.updatedAt) payload.pull_request.updated_at = changes.updatedAt;
  payload.pull_request.draft = changes.draft ?? false;
  payload.installation = { id: INSTALLATION };
  return payload;
}

const API = 'https://api.github.com';
const REPO = '/repos/Codertocat/Hello-World';
const INSTALLATION = 4242;
const CHECK_RUN = 555;

const VULNERABLE = [
  "import { db } from './db.js';",
  '',
  'export function findUser(req) {',
  "  return db.query('SELECT * FROM users WHERE id = ' + req.params.id);",
  '}',
  '',
].join('\n');
const CLEAN = ['export function add(a, b) {', '  return a + b;', '}', ''].join('\n');

const patchOf = (content: string) => {
  const lines = content.split('\n').slice(0, -1);
  return [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n');
};

/** What the fake GitHub answers and what it was sent (bodies of POST/PATCH requests). */
interface GitHubScript {
  files: { filename: string; content: string }[];
  /** The pull request's head now (default: the example's). */
  head?: string;
  config?: string;
  posted?: { body: string; user: { login: string; type: string } }[];
}

describe('the GitHub App', () => {
  let t: TestApp;
  const secret = randomBytes(20).toString('hex');
  let sent: { method: string; path: string; body: unknown }[];

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    t = await createTestApp({
      env: {
        APP_ID: '12345',
        PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
        WEBHOOK_SECRET: secret,
      },
    });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    nock.disableNetConnect();
    sent = [];
  });
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const deliver = (name: string, payload: unknown, id = randomBytes(8).toString('hex'), key = secret) => {
    const body = JSON.stringify(payload);
    return t.app.inject({
      method: 'POST',
      url: '/api/github/webhooks',
      headers: {
        'content-type': 'application/json',
        'x-github-event': name,
        'x-github-delivery': id,
        'x-hub-signature-256': `sha256=${createHmac('sha256', key).update(body).digest('hex')}`,
      },
      payload: body,
    });
  };

  /** Routes GitHub's API for one pull request; records what Redline writes. */
  function fakeGitHub(script: GitHubScript) {
    const record = (method: string) =>
      function (this: { req: { path: string } }, _uri: string, body: unknown) {
        sent.push({ method, path: this.req.path, body });
      };
    nock(API)
      .persist()
      .get('/app')
      .reply(200, { id: 12345, slug: 'redline' })
      .get(`${REPO}/pulls/2`)
      .reply(() => {
        const pr = pullRequestPayload('opened').pull_request;
        if (script.head) pr.head.sha = script.head;
        return [200, pr];
      })
      .get(`${REPO}/installation`)
      .reply(200, { id: INSTALLATION })
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .reply(201, () => ({
        token: ['ghs', randomBytes(18).toString('hex')].join('_'),
        expires_at: '2099-01-01T00:00:00Z',
      }))
      .get(`${REPO}/contents/.github%2Fredline.yml`)
      .query(true)
      .reply(() => (script.config === undefined ? [404, { message: 'Not Found' }] : [200, script.config]))
      .post(`${REPO}/check-runs`)
      .reply(201, function (uri, body) {
        record('POST').call(this, uri, body);
        return { id: CHECK_RUN };
      })
      .patch(`${REPO}/check-runs/${CHECK_RUN}`)
      .reply(200, function (uri, body) {
        record('PATCH').call(this, uri, body);
        return { id: CHECK_RUN };
      })
      .get(`${REPO}/pulls/2/files`)
      .query(true)
      .reply(() => [
        200,
        script.files.map((f) => ({
          filename: f.filename,
          status: 'added',
          additions: f.content.split('\n').length - 1,
          deletions: 0,
          patch: patchOf(f.content),
        })),
      ])
      .get(/\/repos\/Codertocat\/Hello-World\/contents\/src%2F.*/)
      .query(true)
      .reply((uri) => {
        const path = decodeURIComponent(uri.split('/contents/')[1]?.split('?')[0] ?? '');
        const file = script.files.find((f) => f.filename === path);
        return file ? [200, file.content] : [404, {}];
      })
      .get(`${REPO}/pulls/2/comments`)
      .query(true)
      .reply(() => [200, script.posted ?? []])
      .get(`${REPO}/pulls/2/reviews`)
      .query(true)
      .reply(200, [])
      .post(`${REPO}/pulls/2/reviews`)
      .reply(200, function (uri, body) {
        record('POST').call(this, uri, body);
        return { id: 9001 };
      });
  }

  const reviewsOf = () =>
    t.database.db
      .selectFrom('reviews')
      .selectAll()
      .where('source', '=', 'app')
      .orderBy('created_at')
      .orderBy('pr_updated_at')
      .execute();

  it('requests changes on a critical problem, inline on its line, and fails the check run', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/users.js', content: VULNERABLE }] });
    const payload = pullRequestPayload('opened');
    const res = await deliver('pull_request', payload);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'queued' });
    await t.runJobs();

    const [review] = await reviewsOf();
    expect(review).toMatchObject({ status: 'completed', check_run_id: CHECK_RUN, github_review_id: 9001 });
    const head = payload.pull_request.head.sha;
    const now = t.clock.now().toISOString();
    const comments = await t.database.db
      .selectFrom('review_comments')
      .selectAll()
      .where('review_id', '=', review?.id ?? '')
      .execute();
    expect(comments).toHaveLength(1);
    const [sql] = comments;
    expect(sql).toMatchObject({ type: 'security', severity: 'critical', file: 'src/users.js', line: 4 });
    const message =
      'SQL built by interpolating or concatenating values is open to SQL injection: pass the values as query parameters (placeholders) instead.';
    const summary =
      'Reviewed 1 file (+5 −0) in JavaScript. Found 1 critical issue. Most severe: SQL built by interpolating or concatenating values is open to SQL injection (src/users.js:4).';
    expect(sent).toEqual([
      {
        method: 'POST',
        path: `${REPO}/check-runs`,
        body: { name: 'Redline', head_sha: head, status: 'in_progress', started_at: now },
      },
      {
        method: 'POST',
        path: `${REPO}/pulls/2/reviews`,
        body: {
          commit_id: head,
          event: 'REQUEST_CHANGES',
          body: `**Redline** found 1 problem (1 critical).\n\n${summary}`,
          comments: [
            {
              path: 'src/users.js',
              line: 4,
              side: 'RIGHT',
              body: `**critical** · security · \`js.sql-injection\`\n\n${message}\n\n<!-- redline:fingerprint=${sql?.fingerprint} -->`,
            },
          ],
        },
      },
      {
        method: 'PATCH',
        path: `${REPO}/check-runs/${CHECK_RUN}`,
        body: {
          status: 'completed',
          conclusion: 'failure',
          completed_at: now,
          output: {
            title: 'Found 1 problem (1 critical)',
            summary: `**Redline** found 1 problem (1 critical): changes requested.\n\n${summary}`,
            annotations: [
              {
                path: 'src/users.js',
                start_line: 4,
                end_line: 4,
                annotation_level: 'failure',
                title: 'critical security (js.sql-injection)',
                message,
              },
            ],
          },
        },
      },
    ]);
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('review_id', '=', review?.id ?? '')
      .where('type', 'like', 'pr.%')
      .execute();
    expect(events).toEqual([{ type: 'pr.changes_requested', data: expect.objectContaining({ score: review?.score }) }]);
  });

  it('does not repeat a comment already posted on the next push', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    const first = { files: [{ filename: 'src/users.js', content: VULNERABLE }] } as GitHubScript;
    fakeGitHub(first);
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const firstReview = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as {
      comments: { body: string }[];
    };
    expect(firstReview.comments.length).toBeGreaterThan(0);
    // GitHub now holds those comments, written by our bot.
    first.posted = firstReview.comments.map((c) => ({ body: c.body, user: { login: 'redline[bot]', type: 'Bot' } }));
    sent = [];
    first.head = 'f'.repeat(40);
    await deliver('pull_request', pullRequestPayload('synchronize', { sha: 'f'.repeat(40) }));
    await t.runJobs();
    const second = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as {
      commit_id: string;
      event: string;
      comments: unknown[];
    };
    expect(second.commit_id).toBe('f'.repeat(40));
    expect(second.comments).toEqual([]);
    // The problem is still there: the verdict stands.
    expect(second.event).toBe('REQUEST_CHANGES');
  });

  it("posts again a comment whose marker another bot copied: only the app's own comments count", async () => {
    await t.database.db.deleteFrom('reviews').execute();
    const first = { files: [{ filename: 'src/users.js', content: VULNERABLE }] } as GitHubScript;
    fakeGitHub(first);
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const firstReview = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as { comments: unknown[] };
    first.posted = (firstReview.comments as { body: string }[]).map((c) => ({
      body: c.body,
      user: { login: 'copycat[bot]', type: 'Bot' },
    }));
    sent = [];
    first.head = 'e'.repeat(40);
    await deliver('pull_request', pullRequestPayload('synchronize', { sha: 'e'.repeat(40) }));
    await t.runJobs();
    const second = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as { comments: unknown[] };
    expect(second.comments).toEqual(firstReview.comments);
  });

  it('approves a clean pull request with a successful check run', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const review = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as Record<string, unknown>;
    expect(review).toMatchObject({ event: 'APPROVE', comments: [] });
    const completion = sent.find((s) => s.method === 'PATCH')?.body as Record<string, unknown>;
    expect(completion).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(completion).not.toHaveProperty('output.annotations');
  });

  it('explains an invalid .github/redline.yml in the check run and reviews with the defaults', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }], config: 'max_comments: lots\n' });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const completion = sent.find((s) => s.method === 'PATCH')?.body as { conclusion: string; output: { text: string } };
    expect(completion.conclusion).toBe('success');
    expect(completion.output.text).toContain('.github/redline.yml');
    expect(completion.output.text).toContain('max_comments');
  });

  it('refuses a bad signature without calling GitHub or queueing anything', async () => {
    const before = await t.database.db.selectFrom('jobs').select('id').execute();
    const res = await deliver('pull_request', pullRequestPayload('opened'), undefined, 'not-the-secret');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/github/webhooks',
      headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-github-delivery': 'x' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(401);
    expect(await t.database.db.selectFrom('jobs').select('id').execute()).toEqual(before);
    await t.runJobs();
    expect(sent).toEqual([]);
  });

  it('makes one review of the same delivery received twice', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    const payload = pullRequestPayload('opened');
    const first = await deliver('pull_request', payload, 'delivery-1');
    const second = await deliver('pull_request', payload, 'delivery-1');
    expect(first.json().status).toBe('queued');
    expect(second.statusCode).toBe(202);
    expect(second.json().status).toBe('duplicate');
    await t.runJobs();
    expect(await reviewsOf()).toHaveLength(1);
    expect(sent.filter((s) => s.path.endsWith('/pulls/2/reviews'))).toHaveLength(1);
  });

  it('skips a draft with a neutral check run that says why', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [] });
    await deliver('pull_request', pullRequestPayload('opened', { draft: true }));
    await t.runJobs();
    expect(await reviewsOf()).toEqual([]);
    const completion = sent.find((s) => s.method === 'PATCH')?.body as {
      conclusion: string;
      output: { summary: string };
    };
    expect(completion.conclusion).toBe('neutral');
    expect(completion.output.summary).toContain('Draft');
  });

  const example = (name: string, action?: string) => {
    const found = examples
      .find((e) => e.name === name)
      ?.examples.find((x) => action === undefined || x.action === action);
    if (found === undefined) throw new Error(`no ${name}.${action} example`);
    return structuredClone(found) as Record<string, unknown> & Record<string, never>;
  };

  it('records the organization of a new installation', async () => {
    const payload = example('installation', 'created') as unknown as {
      installation: { account: { id: number; login: string } };
    };
    payload.installation.account = { ...payload.installation.account, id: 777_001, login: 'installed-org' };
    expect((await deliver('installation', payload)).statusCode).toBe(202);
    await t.runJobs();
    const org = await t.database.db
      .selectFrom('organizations')
      .select(['login', 'scm_id'])
      .where('scm_id', '=', 777_001)
      .executeTakeFirst();
    expect(org).toEqual({ login: 'installed-org', scm_id: 777_001 });
  });

  it('supersedes the queued review of an older head when a newer push arrives', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }], head: 'a'.repeat(40) });
    await deliver('pull_request', pullRequestPayload('opened', { updatedAt: '2026-01-01T10:00:00Z' }));
    t.clock.advance(1000);
    await deliver(
      'pull_request',
      pullRequestPayload('synchronize', { sha: 'a'.repeat(40), updatedAt: '2026-01-01T10:05:00Z' }),
    );
    // Both events are handled before any review runs: the first review is still queued.
    await t.runJobs({ only: [QUEUES.githubEvent] });
    await t.runJobs();
    const reviews = await reviewsOf();
    expect(reviews.map((r) => [r.head_sha, r.status])).toEqual([
      [pullRequestPayload('opened').pull_request.head.sha, 'cancelled'],
      ['a'.repeat(40), 'completed'],
    ]);
    // One GitHub review, for the newer head; the older check run closed as neutral.
    const published = sent.filter((s) => s.path.endsWith('/pulls/2/reviews'));
    expect(published.map((p) => (p.body as { commit_id: string }).commit_id)).toEqual(['a'.repeat(40)]);
    const neutral = sent.filter(
      (s) => s.method === 'PATCH' && (s.body as { conclusion?: string }).conclusion === 'neutral',
    );
    expect(neutral.map((n) => (n.body as { output: { summary: string } }).output.summary)).toEqual([
      'Superseded by a newer push (aaaaaaa).',
    ]);
  });

  it('ignores a late event of an older push once a newer one is reviewed', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    await deliver(
      'pull_request',
      pullRequestPayload('synchronize', { sha: 'c'.repeat(40), updatedAt: '2026-02-01T10:05:00Z' }),
    );
    await t.runJobs();
    sent = [];
    await deliver('pull_request', pullRequestPayload('opened', { updatedAt: '2026-02-01T10:00:00Z' }));
    await t.runJobs();
    expect((await reviewsOf()).map((r) => [r.head_sha, r.status])).toEqual([['c'.repeat(40), 'completed']]);
    const completion = sent.find((s) => s.method === 'PATCH')?.body as {
      conclusion: string;
      output: { summary: string };
    };
    expect(completion).toMatchObject({
      conclusion: 'neutral',
      output: { summary: 'A newer push of this pull request is already reviewed.' },
    });
  });

  it('re-reviews on "/redline review" from a writer and ignores it from a reader', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    const comment = (login: string) => {
      const payload = example('issue_comment', 'created') as unknown as {
        issue: { number: number; pull_request?: unknown };
        comment: { body: string; user: { login: string; type: string } };
      };
      payload.issue.number = 2;
      payload.issue.pull_request = { url: `${API}${REPO}/pulls/2` };
      payload.comment.body = 'Could you look again?\n/redline review';
      payload.comment.user = { ...payload.comment.user, login, type: 'User' };
      return payload;
    };
    nock(API)
      .get(`${REPO}/collaborators/reader/permission`)
      .reply(200, { permission: 'read' })
      .get(`${REPO}/collaborators/writer/permission`)
      .reply(200, { permission: 'write' });
    await deliver('issue_comment', comment('reader'));
    await t.runJobs();
    expect(await reviewsOf()).toEqual([]);
    await deliver('issue_comment', comment('writer'));
    await t.runJobs();
    expect((await reviewsOf()).map((r) => r.status)).toEqual(['completed']);
    expect(nock.pendingMocks().filter((m) => m.includes('collaborators'))).toEqual([]);
  });

  it('emits config.updated when a push to the default branch changes .github/redline.yml', async () => {
    fakeGitHub({ files: [], config: 'max_comments: 5\n' });
    const payload = example('push') as unknown as {
      ref: string;
      after: string;
      repository: { id: number; default_branch: string; full_name: string };
      commits: { added: string[]; modified: string[]; removed: string[] }[];
    };
    payload.ref = `refs/heads/${payload.repository.default_branch}`;
    payload.after = 'b'.repeat(40);
    payload.commits = [{ ...(payload.commits[0] ?? {}), added: [], modified: ['.github/redline.yml'], removed: [] }];
    await deliver('push', payload, 'push-delivery-1');
    await t.runJobs();
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data', 'mode'])
      .where('type', '=', 'config.updated')
      .execute();
    expect(events).toEqual([
      {
        type: 'config.updated',
        mode: 'live',
        data: {
          repository: { id: String(payload.repository.id), name: payload.repository.full_name, provider: 'github' },
          path: '.github/redline.yml',
          commit_sha: 'b'.repeat(40),
          valid: true,
          errors: [],
        },
      },
    ]);
  });

  it('lists every finding in the body when the pull request moved on before publishing', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    // GitHub's head is already a newer commit than the one reviewed.
    fakeGitHub({ files: [{ filename: 'src/users.js', content: VULNERABLE }], head: 'd'.repeat(40) });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const review = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as {
      commit_id: string;
      event: string;
      body: string;
      comments: unknown[];
    };
    expect(review.commit_id).toBe(pullRequestPayload('opened').pull_request.head.sha);
    expect(review.comments).toEqual([]);
    expect(review.event).toBe('REQUEST_CHANGES');
    expect(review.body).toContain('src/users.js:4');
  });

  it('closes the check run as neutral when GitHub keeps refusing the review', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    nock(API)
      .persist()
      .post(`${REPO}/pulls/2/reviews`)
      .reply(403, { message: 'Resource not accessible by integration' });
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const [review] = await reviewsOf();
    expect(review).toMatchObject({ status: 'completed', github_review_id: null });
    expect(review?.published_at).not.toBeNull();
    const completion = sent.find((s) => s.method === 'PATCH')?.body as {
      conclusion: string;
      output: { summary: string };
    };
    expect(completion.conclusion).toBe('neutral');
    expect(completion.output.summary).toContain('could not post its review');
  });

  it('publishes a review made through the API with inline comments on a repository the app is on', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/users.js', content: VULNERABLE }] });
    const pr = pullRequestPayload('opened').pull_request;
    const { user } = await t.createUser();
    const key = await t.createToken(user.id);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': key },
      payload: { pull_request_url: 'https://github.com/Codertocat/Hello-World/pull/2' },
    });
    expect(created.statusCode).toBe(201);
    await t.runJobs();
    // No check run for an API review: one GitHub review, on the reviewed commit.
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([`POST ${REPO}/pulls/2/reviews`]);
    expect(sent[0]?.body).toMatchObject({ commit_id: pr.head.sha, event: 'REQUEST_CHANGES' });
    const review = await t.database.db
      .selectFrom('reviews')
      .select(['source', 'github_review_id'])
      .where('id', '=', created.json().data.id)
      .executeTakeFirst();
    expect(review).toEqual({ source: 'api', github_review_id: 9001 });
  });
});
