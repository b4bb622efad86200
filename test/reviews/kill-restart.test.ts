import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '../fakes/fake-github.js';
import { describeOnPostgres } from '../helpers/postgres-only.js';
import { type RoleProcess, serveRole, testAppEnv } from '../helpers/serve-role.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Issue 3: a process killed mid-review leaves a job that a restarted process finishes. Real
 * processes (`redline serve --role worker`, the compiled build) on one PostgreSQL, a real SIGKILL
 * while the review waits on GitHub, and a second worker that takes the job over once its lease
 * (JOB_LEASE_MS) runs out. PGlite is single-process, so this runs in the PostgreSQL pass only.
 */
describeOnPostgres('a worker killed mid-review', () => {
  let github: FakeGitHub;
  let t: TestApp;
  const processes: RoleProcess[] = [];

  beforeAll(async () => {
    github = await FakeGitHub.start({ apiBasePath: '/api' });
    t = await createTestApp({ env: github.env() });
  });
  afterAll(async () => {
    for (const child of processes) await child.stop('SIGKILL');
    await t?.close();
    await github?.close();
  });

  const startWorker = async () => {
    const worker = await serveRole('worker', {
      ...testAppEnv(t),
      JOB_LEASE_MS: '1500',
      ...github.env(),
    });
    processes.push(worker);
    return worker;
  };

  it('is finished by the next worker, once, with the same results', async () => {
    const org = github.addOrg('killco');
    const repo = github.addRepo(org, 'shop');
    const files = [
      { filename: 'src/a.ts', status: 'modified' as const, additions: 7, deletions: 2, patch: '@@ -1 +1 @@\n-a\n+b' },
      { filename: 'src/b.ts', status: 'added' as const, additions: 11, deletions: 0, patch: '@@ -0,0 +1 @@\n+c' },
    ];
    const pull = github.addPullRequest(repo, { number: 9, files });
    const { user } = await t.createUser();
    const key = await t.createToken(user.id, { scopes: ['review:read', 'review:write'] });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': key },
      payload: { pull_request_url: github.pullRequestUrl(repo, pull) },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;

    // The first worker reaches GitHub's file list, which never answers; it is killed there.
    github.fail('pull_files', { hang: true, times: 1 });
    const first = await startWorker();
    await until('the first worker to read the files', () => github.requestsTo('pull_files').length === 1);
    await first.stop('SIGKILL');
    const stuck = await t.database.db
      .selectFrom('reviews')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stuck.status).toBe('in_progress');

    await startWorker();
    await until('the review to complete', async () => {
      const row = await t.database.db
        .selectFrom('reviews')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.status === 'completed';
    });
    const review = (
      await t.app.inject({ method: 'GET', url: `/v1/reviews/${id}`, headers: { 'x-api-key': key } })
    ).json().data;
    expect(review.stats).toEqual({
      files_changed: 2,
      lines_added: 18,
      lines_deleted: 2,
      comments_count: 0,
      issues: { critical: 0, important: 0, warning: 0, suggestion: 0 },
    });
    expect(github.requestsTo('pull_files')).toHaveLength(2);
    // Completion enqueues the publish job (a no-op for an API review without inline comments);
    // the queue must drain, leaving no job behind.
    await until('the queue to drain', async () => {
      const left = await t.database.db.selectFrom('jobs').select('id').execute();
      return left.length === 0;
    });
    const completions = await t.database.db
      .selectFrom('events')
      .select('type')
      .where('review_id', '=', id)
      .where('type', '=', 'review.completed')
      .execute();
    expect(completions).toHaveLength(1);
  });
});

/**
 * The laptop case: `redline serve` on the embedded database, killed with SIGKILL while a review
 * waits on GitHub, then started again on the same DATA_DIR. The stale pid lock is taken over, the
 * database opens, and the review completes.
 */
describe('an embedded server killed mid-review', () => {
  let github: FakeGitHub;
  let dataDir: string;
  const processes: RoleProcess[] = [];

  beforeAll(async () => {
    github = await FakeGitHub.start({ apiBasePath: '/api' });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'redline-kill-'));
  });
  afterAll(async () => {
    for (const child of processes) await child.stop('SIGKILL');
    await github?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = (port: number) => ({
    PATH: process.env.PATH ?? '',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    JOB_LEASE_MS: '1500',
    LOG_LEVEL: 'warn' as const,
    ...github.env(),
  });

  it('completes the review after a restart', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const base = `http://127.0.0.1:${port}`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bin/redline.js', 'token', 'create', '--user', 'laptop', '--scopes', 'review:read,review:write'],
      { cwd: ROOT, env: env(port) },
    );
    const key = stdout.trim();
    // API and workers in one process, as on a laptop; returned once /readyz answers.
    const start = async () => {
      const server = await serveRole('all', env(port), { port });
      processes.push(server);
      return server;
    };

    const repo = github.addRepo(github.addOrg('laptopco'), 'app');
    const pull = github.addPullRequest(repo, {
      files: [{ filename: 'lib/x.py', status: 'modified', additions: 4, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b' }],
    });
    github.fail('pull_files', { hang: true, times: 1 });

    const first = await start();
    const created = await fetch(`${base}/v1/reviews`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ pull_request_url: github.pullRequestUrl(repo, pull) }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    await until('the worker to read the files', async () => github.requestsTo('pull_files').length === 1);
    await first.stop('SIGKILL');

    await start();
    let review: { status: string; stats: { files_changed: number; lines_added: number } } | undefined;
    await until('the review to complete', async () => {
      const res = await fetch(`${base}/v1/reviews/${id}`, { headers: { 'x-api-key': key } });
      review = ((await res.json()) as { data: typeof review }).data;
      return review?.status === 'completed';
    });
    expect(review?.stats).toMatchObject({ files_changed: 1, lines_added: 4 });
    expect(github.requestsTo('pull_files')).toHaveLength(2);
  });
});
