import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/engine/review-change.js';
import type { ChangedFile } from '../../src/engine/types.js';
import { FakeGitHub, type FakePullFile } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The optional language model (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY) in a live review:
 * recorded OpenAI-compatible answers through nock add comments on added lines and the summary;
 * comments outside the diff are dropped; a timeout or an invalid answer leaves the rule engine's
 * result standing. GitHub is the fake (a real server on 127.0.0.1, let through nock).
 */

const LLM_BASE = 'https://llm.example.test/v1';
const MODEL = 'review-small-2025';
// Assembled at run time: nothing committed looks like a provider key.
const apiKey = ['llm', 'test', Date.now().toString(36), Math.random().toString(36).slice(2)].join('-');

let github: FakeGitHub;
let t: TestApp;
let prNumber = 0;

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1/);
  github = await FakeGitHub.start({ apiBasePath: '/api' });
  t = await createTestApp({
    env: { ...github.env(), LLM_BASE_URL: LLM_BASE, LLM_MODEL: MODEL, LLM_API_KEY: apiKey },
  });
});

afterEach(() => {
  nock.abortPendingRequests();
  nock.cleanAll();
});

afterAll(async () => {
  await t?.close();
  await github?.close();
  nock.enableNetConnect();
});

const ORDERS = [
  "const db = require('../db');",
  '',
  'async function findOrders(req, res) {',
  "  const rows = await db.query('SELECT * FROM orders WHERE customer = ' + req.query.customer);",
  '  res.json(rows);',
  '}',
  '',
  'module.exports = { findOrders };',
];
const INDEX_HEAD = [
  "const { findOrders } = require('./find-orders');",
  '',
  'module.exports = { findOrders, version: 2 };',
];

const FILES: FakePullFile[] = [
  {
    filename: 'src/orders/find-orders.js',
    status: 'added',
    additions: ORDERS.length,
    deletions: 0,
    patch: [`@@ -0,0 +1,${ORDERS.length} @@`, ...ORDERS.map((l) => `+${l}`)].join('\n'),
    content: `${ORDERS.join('\n')}\n`,
  },
  {
    filename: 'src/orders/index.js',
    status: 'modified',
    additions: 1,
    deletions: 1,
    patch: [
      '@@ -1,3 +1,3 @@',
      " const { findOrders } = require('./find-orders');",
      ' ',
      '-module.exports = { findOrders };',
      '+module.exports = { findOrders, version: 2 };',
    ].join('\n'),
    content: `${INDEX_HEAD.join('\n')}\n`,
  },
  {
    filename: 'yarn.lock',
    status: 'modified',
    additions: 1,
    deletions: 1,
    patch: ['@@ -3,3 +3,3 @@', ' express@^4:', '-  version "4.18.2"', '+  version "4.21.2"', ' '].join('\n'),
  },
];

/** What the rule engine alone makes of the same files (the fallback). */
const ENGINE = reviewChange(
  {
    files: FILES.map(
      (f): ChangedFile => ({
        path: f.filename,
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
        patch: f.patch,
        content: f.content,
      }),
    ),
  },
  { checkSecurity: true, checkPerformance: true },
);

const RULE_COMMENTS = [{ file: 'src/orders/find-orders.js', line: 4, type: 'security', severity: 'critical' }];

/** A recorded chat completion, trimmed to what an OpenAI-compatible server answers. */
function completion(content: string, totalTokens: number) {
  return {
    id: 'chatcmpl-9xyz',
    object: 'chat.completion',
    created: 1735689600,
    model: MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: totalTokens - 120, completion_tokens: 120, total_tokens: totalTokens },
  };
}

const MODEL_REVIEW = {
  summary:
    'Adds an orders lookup endpoint and exports it with a version. The query concatenates the customer parameter into SQL.',
  comments: [
    {
      file: 'src/orders/find-orders.js',
      line: 3,
      type: 'bug',
      severity: 'warning',
      message: 'A rejected query is not caught: the request hangs instead of answering 500.',
      suggestion: 'async function findOrders(req, res, next) {',
    },
    // Repeats the rule's finding on the same line: dropped.
    {
      file: 'src/orders/find-orders.js',
      line: 4,
      type: 'security',
      severity: 'critical',
      message: 'SQL injection through the customer query parameter.',
    },
    // A context line, not an added one: outside the diff, dropped.
    {
      file: 'src/orders/index.js',
      line: 1,
      type: 'style',
      severity: 'info',
      message: 'Prefer ES module imports over require in new code.',
    },
    // A line past the end of the change, and a file the pull request does not touch: dropped.
    {
      file: 'src/orders/find-orders.js',
      line: 40,
      type: 'bug',
      severity: 'important',
      message: 'This line does not exist in the change at all.',
    },
    {
      file: 'src/payments/charge.js',
      line: 2,
      type: 'security',
      severity: 'important',
      message: 'A file that is not part of this pull request.',
    },
  ],
};

type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

/** A fresh pull request with FILES, reviewed live by a local user's svc_live_ key, jobs run. */
async function reviewOnce() {
  const org = github.addOrg(`llm-org-${++prNumber}`);
  const repo = github.addRepo(org, 'shop');
  const pull = github.addPullRequest(repo, { number: prNumber, files: FILES });
  const { user } = await t.createUser();
  const headers = { 'x-api-key': await t.createToken(user.id) };
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/reviews',
    headers,
    payload: { pull_request_url: github.pullRequestUrl(repo, pull) },
  });
  expect(created.statusCode).toBe(201);
  const id: string = created.json().data.id;
  await t.runJobs();
  const get = (path: string): Promise<Reply> =>
    t.app.inject({ method: 'GET', url: `/v1/reviews/${id}${path}`, headers });
  const review = (await get('')).json().data;
  const comments = (await get('/comments')).json().data as Record<string, unknown>[];
  const stats = (await get('/stats')).json().data;
  return { review, comments, stats };
}

const brief = (comments: Record<string, unknown>[]) =>
  comments.map(({ file, line, type, severity }) => ({ file, line, type, severity }));

describe('the language model in a live review', () => {
  it('adds its comment on an added line, replaces the summary, records tokens_used; sends the diff', async () => {
    let sent: { model?: string; messages?: { role: string; content: string }[] } = {};
    const scope = nock(LLM_BASE, { reqheaders: { authorization: `Bearer ${apiKey}` } })
      .post('/chat/completions', (body) => {
        sent = body;
        return true;
      })
      .reply(200, completion(JSON.stringify(MODEL_REVIEW), 1843));

    const { review, comments, stats } = await reviewOnce();
    scope.done();

    // The request: the configured model, the reviewed files' diff, the rules' findings; no lock file.
    expect(sent.model).toBe(MODEL);
    expect(sent.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    const user = sent.messages?.[1]?.content ?? '';
    expect(user).toContain(`--- src/orders/find-orders.js\n${FILES[0]?.patch}`);
    expect(user).toContain(`--- src/orders/index.js\n${FILES[1]?.patch}`);
    expect(user).not.toContain('yarn.lock');
    expect(user).toContain('- src/orders/find-orders.js:4 critical security:');

    expect(brief(comments)).toEqual([
      { file: 'src/orders/find-orders.js', line: 3, type: 'bug', severity: 'warning' },
      ...RULE_COMMENTS,
    ]);
    expect(comments[0]).toMatchObject({
      message: MODEL_REVIEW.comments[0]?.message,
      suggestion: MODEL_REVIEW.comments[0]?.suggestion,
      code_snippet: 'async function findOrders(req, res) {',
    });
    // The model's summary, with the engine's list of what was not reviewed kept.
    expect(review.summary).toBe(`${MODEL_REVIEW.summary} Not reviewed, 1 file: yarn.lock (lock file).`);
    expect(review).toMatchObject({
      status: 'completed',
      score: 100 - 25 - 3,
      stats: { comments_count: 2, issues: { critical: 1, important: 0, warning: 1, suggestion: 0 } },
    });
    expect(stats).toMatchObject({
      tokens_used: 1843,
      issues_by_type: { security: 1, bug: 1, performance: 0, style: 0, suggestion: 0 },
    });
  });

  it('a timeout leaves the rules result standing (same comments, engine summary, tokens_used 0)', async () => {
    // Past the 2,000 ms the test app gives the model.
    const scope = nock(LLM_BASE)
      .post('/chat/completions')
      .delay(3000)
      .reply(200, completion(JSON.stringify(MODEL_REVIEW), 999));
    const { review, comments, stats } = await reviewOnce();
    expect(scope.isDone()).toBe(true);
    expect(brief(comments)).toEqual(RULE_COMMENTS);
    expect(review.summary).toBe(ENGINE.summary);
    expect(review.summary).toContain('Not reviewed, 1 file: yarn.lock (lock file).');
    expect(review.score).toBe(75);
    expect(stats.tokens_used).toBe(0);
  });

  it('an answer that is not JSON leaves the rules result standing, with the tokens it cost', async () => {
    const scope = nock(LLM_BASE)
      .post('/chat/completions')
      .reply(200, completion('Sure! The change looks mostly fine, but watch the SQL on line 4.', 512));
    const { review, comments, stats } = await reviewOnce();
    scope.done();
    expect(brief(comments)).toEqual(RULE_COMMENTS);
    expect(review.summary).toBe(ENGINE.summary);
    expect(stats.tokens_used).toBe(512);
  });

  it('JSON of the wrong shape (a comment without a message) is invalid too: the rules stand', async () => {
    const wrong = { summary: 'Looks fine.', comments: [{ file: 'src/orders/find-orders.js', line: 3, type: 'bug' }] };
    const scope = nock(LLM_BASE)
      .post('/chat/completions')
      .reply(200, completion(JSON.stringify(wrong), 77));
    const { review, comments, stats } = await reviewOnce();
    scope.done();
    expect(brief(comments)).toEqual(RULE_COMMENTS);
    expect(review.summary).toBe(ENGINE.summary);
    expect(stats.tokens_used).toBe(77);
  });

  it('an error status from the model leaves the rules result standing', async () => {
    const scope = nock(LLM_BASE)
      .post('/chat/completions')
      .reply(503, { error: { message: 'overloaded' } });
    const { review, comments, stats } = await reviewOnce();
    scope.done();
    expect(brief(comments)).toEqual(RULE_COMMENTS);
    expect(review.summary).toBe(ENGINE.summary);
    expect(stats.tokens_used).toBe(0);
  });
});
