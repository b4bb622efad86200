import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeScore } from '../../src/engine/score.js';
import type { Finding } from '../../src/engine/types.js';
import { fakes } from '../engine/secrets/fake-secrets.js';
import { FakeGitHub, type FakePullFile } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 4, "Done when": a live review of a pull request served by the fake GitHub runs the real
 * engine over files with planted problems (their whole text served at the head commit) and
 * completes with comments on the right lines, stats, a score by the formula, a specific summary,
 * and its events (review.completed counts, one security.alert per serious security comment).
 */

let github: FakeGitHub;
let t: TestApp;

beforeAll(async () => {
  github = await FakeGitHub.start({ apiBasePath: '/api' });
  t = await createTestApp({ env: github.env() });
});

afterAll(async () => {
  await t?.close();
  await github?.close();
});

/** A file the pull request adds: its patch is every line added, its content the same text. */
function addedFile(filename: string, lines: string[]): FakePullFile {
  return {
    filename,
    status: 'added',
    additions: lines.length,
    deletions: 0,
    patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n'),
    content: `${lines.join('\n')}\n`,
  };
}

// Built at run time: nothing committed looks like a credential.
const accessKeyId = fakes(11).awsAccessKeyId();

const PLANTED_FILES: FakePullFile[] = [
  addedFile('src/orders/find-orders.js', [
    "const db = require('../db');",
    '',
    'async function findOrders(req, res) {',
    "  const rows = await db.query('SELECT * FROM orders WHERE customer = ' + req.query.customer);",
    '  res.json(rows);',
    '}',
    '',
    'module.exports = { findOrders };',
  ]),
  addedFile('app/calc.py', [
    'from flask import request',
    '',
    '',
    'def calc():',
    '    expression = request.args.get("expr")',
    '    return str(eval(expression))',
  ]),
  addedFile('src/config/aws.js', [
    '// Uploads reports to S3.',
    `const accessKeyId = '${accessKeyId}';`,
    "module.exports = { region: 'us-east-1', accessKeyId };",
  ]),
  {
    filename: 'package-lock.json',
    status: 'modified',
    additions: 1,
    deletions: 1,
    patch: [
      '@@ -9,7 +9,7 @@',
      '       "version": "1.0.0",',
      '       "dependencies": {',
      '-        "express": "^4.18.2"',
      '+        "express": "^4.21.2"',
      '       }',
      '     }',
      '   }',
    ].join('\n'),
  },
];

const alertFile = (data: unknown) => (data as { file?: unknown }).file;

/** The comments a reviewer expects, by file then line. */
const PLANTED_COMMENTS = [
  { file: 'app/calc.py', line: 6, type: 'security', severity: 'critical', rule_id: 'py.eval', cwe: 'CWE-94' },
  {
    file: 'src/config/aws.js',
    line: 2,
    type: 'security',
    severity: 'critical',
    rule_id: 'secrets.aws-access-key-id',
    cwe: 'CWE-798',
  },
  {
    file: 'src/orders/find-orders.js',
    line: 4,
    type: 'security',
    severity: 'critical',
    rule_id: 'js.sql-injection',
    cwe: 'CWE-89',
  },
];

describe('a live review runs the engine over the pull request', () => {
  it('completes with comments on the planted lines, stats, the score, a specific summary and its events', async () => {
    const org = github.addOrg('planted-org');
    const repo = github.addRepo(org, 'shop');
    const pull = github.addPullRequest(repo, {
      number: 9,
      title: 'Orders, calculator and S3 upload',
      head: { ref: 'feature/planted', sha: 'd'.repeat(40) },
      files: PLANTED_FILES,
    });
    const { user } = await t.createUser();
    const key = await t.createToken(user.id);
    expect(key.startsWith('svc_live_')).toBe(true);
    const headers = { 'x-api-key': key };

    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers,
      payload: { pull_request_url: github.pullRequestUrl(repo, pull) },
    });
    expect(created.statusCode).toBe(201);
    const id: string = created.json().data.id;
    await t.runJobs();

    // The engine read each code file's whole text at the head commit.
    const fetched = github.requestsTo('contents').map((r) => `${decodeURIComponent(r.path)} ${r.query.ref}`);
    for (const path of ['src/orders/find-orders.js', 'app/calc.py', 'src/config/aws.js']) {
      expect(fetched).toContainEqual(expect.stringContaining(`/contents/${path} ${'d'.repeat(40)}`));
    }

    const review = (await t.app.inject({ method: 'GET', url: `/v1/reviews/${id}`, headers })).json().data;
    const commentsRes = await t.app.inject({ method: 'GET', url: `/v1/reviews/${id}/comments`, headers });
    expect(commentsRes.statusCode).toBe(200);
    const comments = commentsRes.json().data as { file: string; line: number; type: string; severity: string }[];

    expect(comments.map((c) => ({ file: c.file, line: c.line, type: c.type, severity: c.severity }))).toEqual(
      PLANTED_COMMENTS.map(({ file, line, type, severity }) => ({ file, line, type, severity })),
    );
    // The secret is redacted in what is shown.
    expect(JSON.stringify(comments)).not.toContain(accessKeyId);
    const rows = await t.database.db
      .selectFrom('review_comments')
      .select(['file', 'line', 'rule_id', 'cwe'])
      .where('review_id', '=', id)
      .orderBy('file')
      .orderBy('line')
      .execute();
    expect(rows).toEqual(PLANTED_COMMENTS.map(({ file, line, rule_id, cwe }) => ({ file, line, rule_id, cwe })));

    const linesChanged = PLANTED_FILES.reduce((n, f) => n + f.additions + f.deletions, 0);
    expect(review).toMatchObject({
      status: 'completed',
      stats: {
        files_changed: 4,
        lines_added: PLANTED_FILES.reduce((n, f) => n + f.additions, 0),
        lines_deleted: 1,
        comments_count: 3,
        issues: { critical: 3, important: 0, warning: 0, suggestion: 0 },
      },
    });
    // Decisions §4: 100 − 25 per critical, no scaling under 200 changed lines.
    expect(review.score).toBe(100 - 3 * 25);
    expect(review.score).toBe(computeScore(comments as unknown as Finding[], linesChanged));

    // The summary: what was reviewed, the most severe finding with its place, the skipped lock file.
    expect(review.summary).toMatch(
      /^Reviewed 3 files \(\+17 −0\) in JavaScript and Python\. Found 3 critical issues\./,
    );
    expect(review.summary).toMatch(
      /Most severe: [^.]+ \((src\/orders\/find-orders\.js:4|app\/calc\.py:6|src\/config\/aws\.js:2)\)/,
    );
    expect(review.summary).toContain('Not reviewed, 1 file: package-lock.json (lock file).');
    expect(review.summary).not.toContain(accessKeyId);

    const stats = (await t.app.inject({ method: 'GET', url: `/v1/reviews/${id}/stats`, headers })).json().data;
    expect(stats).toMatchObject({
      files_analyzed: 3,
      lines_analyzed: 17,
      tokens_used: 0,
      issues_by_type: { security: 3, performance: 0, style: 0, bug: 0, suggestion: 0 },
      issues_by_severity: { critical: 3, important: 0, warning: 0, info: 0 },
    });

    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('review_id', '=', id)
      .orderBy('seq')
      .execute();
    const completed = events.filter((e) => e.type === 'review.completed');
    expect(completed).toHaveLength(1);
    expect((completed[0]?.data as { summary?: unknown } | undefined)?.summary).toEqual({
      status: expect.any(String),
      issues_found: 3,
      critical: 3,
      high: 0,
      medium: 0,
      low: 0,
    });
    const alerts = events
      .filter((e) => e.type === 'security.alert')
      .map((e) => e.data as { file: string; line: number; severity: string; type: string; cwe: string });
    expect(
      alerts
        .map((a) => ({ file: a.file, line: a.line, severity: a.severity, rule_id: a.type, cwe: a.cwe }))
        .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line),
    ).toEqual(
      PLANTED_COMMENTS.map(({ file, line, severity, rule_id, cwe }) => ({ file, line, severity, rule_id, cwe })),
    );
    expect(JSON.stringify(alerts)).not.toContain(accessKeyId);

    // Spec 6.3: a secret's alert carries its CWE and a numeric CVSS score like any other.
    const secretComment = (commentsRes.json().data as { id: string; file: string }[]).find(
      (c) => c.file === 'src/config/aws.js',
    );
    const reviewRow = await t.database.db
      .selectFrom('reviews')
      .select(['repository_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const awsMessage =
      'An AWS access key ID is committed: anyone with read access to the repository can act as that AWS identity. ' +
      'Deactivate the key in IAM and load credentials from the environment or an IAM role.';
    expect(events.find((e) => e.type === 'security.alert' && alertFile(e.data) === 'src/config/aws.js')?.data).toEqual({
      alert_id: secretComment?.id,
      severity: 'critical',
      type: 'secrets.aws-access-key-id',
      repository: { id: reviewRow.repository_id, name: 'planted-org/shop' },
      file: 'src/config/aws.js',
      line: 2,
      description: awsMessage,
      recommendation: awsMessage,
      cwe: 'CWE-798',
      cvss_score: 9.8,
    });
  });

  it('check_security false: no security comments, no alerts, and the score stays 100', async () => {
    const org = github.addOrg('planted-org-2');
    const repo = github.addRepo(org, 'shop');
    const pull = github.addPullRequest(repo, { number: 3, files: PLANTED_FILES });
    const { user } = await t.createUser();
    const headers = { 'x-api-key': await t.createToken(user.id) };
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers,
      payload: { pull_request_url: github.pullRequestUrl(repo, pull), check_security: false },
    });
    expect(created.statusCode).toBe(201);
    const id: string = created.json().data.id;
    await t.runJobs();
    const review = (await t.app.inject({ method: 'GET', url: `/v1/reviews/${id}`, headers })).json().data;
    expect(review).toMatchObject({ status: 'completed', score: 100, stats: { comments_count: 0 } });
    expect(review.summary).toContain('No issues found.');
    expect(review.summary).toContain('Not reviewed, 1 file: package-lock.json (lock file).');
    const alerts = await t.database.db
      .selectFrom('events')
      .select('type')
      .where('review_id', '=', id)
      .where('type', '=', 'security.alert')
      .execute();
    expect(alerts).toEqual([]);
  });
});
