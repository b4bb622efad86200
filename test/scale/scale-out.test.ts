import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { FakeGitHub } from '../fakes/fake-github.js';
import { type HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver.js';
import { describeOnPostgres } from '../helpers/postgres-only.js';
import { type RoleProcess, serveRole, testAppEnv } from '../helpers/serve-role.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: { id: string }; error?: { code: string } };
}

/**
 * Issue 8: Redline scaled out as the README says, two `serve --role api` and two `serve --role
 * worker` processes (the compiled build) on one PostgreSQL database. Proves that nothing lives in
 * one process's memory that another needs: every review is processed exactly once whichever api
 * took it and whichever worker claimed it, every webhook delivery reaches the subscriber
 * (a duplicate only ever repeats a delivery id), also when a worker is killed (SIGKILL) in the
 * middle of it, and the request rate and the review quota are exact across the api processes. PostgreSQL pass only: PGlite is one process's.
 */
describeOnPostgres('two api and two worker processes on one database', () => {
  let github: FakeGitHub | undefined;
  let receiver: HttpsReceiver | undefined;
  let t: TestApp | undefined;
  let dir: string | undefined;
  const apis: RoleProcess[] = [];
  const workers: RoleProcess[] = [];
  let workerEnv: Record<string, string> = {};

  beforeAll(async () => {
    github = await FakeGitHub.start({ apiBasePath: '/api' });
    // A little slow, so that deliveries are in flight when a worker is killed.
    receiver = await startHttpsReceiver(() => ({ status: 200, delayMs: 25 }));
    dir = await mkdtemp(path.join(os.tmpdir(), 'redline-scale-'));
    await writeFile(path.join(dir, 'ca.pem'), receiver.ca);
    // Its database (a copy of the run's template), secrets and helpers; the processes do the work.
    t = await createTestApp({ env: github.env() });
    const env = {
      ...testAppEnv(t),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem'),
      // The worker killed below leaves its jobs to the others after this.
      JOB_LEASE_MS: '3000',
      ...github.env(),
    };
    workerEnv = env;
    const started = await Promise.allSettled([
      serveRole('api', env),
      serveRole('api', env),
      serveRole('worker', env),
      serveRole('worker', env),
    ]);
    for (const result of started) {
      if (result.status === 'fulfilled') (result.value.role === 'api' ? apis : workers).push(result.value);
    }
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  });

  afterAll(async () => {
    for (const child of [...apis, ...workers]) await child.stop('SIGKILL');
    await t?.close();
    await github?.close();
    await receiver?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const call = async (api: RoleProcess, key: string, method: 'GET' | 'POST', url: string, body?: object) => {
    const res = await fetch(`${api.baseUrl}${url}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
  };
  /** Runs `count` tasks, `parallel` at a time, each on the api of its index's parity. */
  const spread = async (count: number, parallel: number, task: (api: RoleProcess, i: number) => Promise<Answer>) => {
    const answers: Answer[] = new Array(count);
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const i = next++;
          answers[i] = await task(apis[i % apis.length] as RoleProcess, i);
        }
      }),
    );
    return answers;
  };
  const ctx = () => {
    if (t === undefined || receiver === undefined || github === undefined) throw new Error('setup failed');
    return { t, receiver, github };
  };

  it('processes each of 200 reviews once and delivers every one of 500+ events, a worker killed meanwhile', async () => {
    const { t, receiver, github } = ctx();
    const { user } = await t.createUser();
    await setPlan(t.database.db, user.id, 'enterprise'); // 200 creates and more: past the free rate
    const key = await t.createToken(user.id, { mode: 'test' });
    const events = ['review.created', 'review.completed', 'security.alert'];
    const hook = await call(apis[0] as RoleProcess, key, 'POST', '/v1/webhooks', {
      url: `${receiver.url}/hook`,
      events,
    });
    expect(hook.status).toBe(201);

    // Test mode: #2 completes with a critical security comment (a security.alert); others vary by URL.
    const created = await spread(200, 16, (api, i) =>
      call(api, key, 'POST', '/v1/reviews', {
        pull_request_url: `${github.serverUrl}/scale/repo-${i}/pull/${i % 2 === 0 ? 2 : 10 + i}`,
      }),
    );
    expect(created.filter((a) => a.status !== 201).map((a) => [a.status, a.body])).toEqual([]);
    const ids = created.map((a) => a.body.data?.id as string);
    expect(new Set(ids).size).toBe(200);

    // A worker dies (SIGKILL) in the middle of the work and a new one takes its place: the jobs
    // it held (reviews, deliveries in flight) are taken over once their lease runs out.
    await until('the deliveries to be under way', () => receiver.requests.length >= 100);
    const victim = workers.shift() as RoleProcess;
    await victim.stop('SIGKILL');
    workers.push(await serveRole('worker', workerEnv));

    const db = t.database.db;
    await until('every review to complete', async () => {
      const done = await db.selectFrom('reviews').select('id').where('status', '=', 'completed').execute();
      return done.length === 200;
    });
    const counts = await db
      .selectFrom('events')
      .select('type')
      .select((eb) => eb.fn.count<number>('id').as('n'))
      .select((eb) => eb.fn.count<number>('review_id').distinct().as('reviews'))
      .where('review_id', 'in', ids)
      .groupBy('type')
      .execute();
    const byType = Object.fromEntries(counts.map((c) => [c.type, { n: Number(c.n), reviews: Number(c.reviews) }]));
    // Exactly once: one start and one completion per review, whichever worker ran it.
    for (const type of ['review.created', 'review.started', 'review.completed']) {
      expect(byType[type], type).toEqual({ n: 200, reviews: 200 });
    }
    expect(byType['security.alert']?.reviews).toBeGreaterThanOrEqual(100);

    const expected = await db
      .selectFrom('events')
      .select('id')
      .where('review_id', 'in', ids)
      .where('type', 'in', events)
      .execute();
    expect(expected.length).toBeGreaterThanOrEqual(500);
    const eventIds = new Set(expected.map((e) => e.id));
    const deliveryIdsOf = () => {
      const map = new Map<string, Set<string>>();
      for (const request of receiver.requests) {
        const eventId = JSON.parse(request.body).id as string;
        const set = map.get(eventId) ?? new Set<string>();
        set.add(String(request.headers['x-svc-delivery']));
        map.set(eventId, set);
      }
      return map;
    };
    await until('every delivery', () => deliveryIdsOf().size >= eventIds.size);
    const received = deliveryIdsOf();
    expect(new Set(received.keys())).toEqual(eventIds);
    for (const [eventId, deliveryIds] of received) expect(deliveryIds.size, eventId).toBe(1);
    await until('every delivery to be recorded', async () => {
      const pending = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '!=', 'delivered')
        .execute();
      return pending.length === 0;
    });
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'attempt', 'status_code'])
      .execute();
    // One recorded attempt per delivery: the subscriber always said 200.
    expect(attempts).toHaveLength(eventIds.size);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(eventIds.size);
    expect(attempts.every((a) => a.attempt === 1 && a.status_code === 200)).toBe(true);
    expect(
      await db.selectFrom('jobs').select(['queue', 'last_error']).where('status', '=', 'failed').execute(),
    ).toEqual([]);
    for (const child of [...apis, ...workers]) expect(child.alive(), child.output().slice(-4000)).toBe(true);
  });

  it('lets exactly the plan request rate through across both api processes', async () => {
    const { t } = ctx();
    // The window is the UTC hour: a burst must not straddle two of them.
    const toNextHour = 3_600_000 - (Date.now() % 3_600_000);
    if (toNextHour < 20_000) await new Promise((r) => setTimeout(r, toNextHour + 100));
    const { user } = await t.createUser(); // free plan: 100 requests an hour
    const key = await t.createToken(user.id, { mode: 'test' });
    const answers = await spread(130, 20, (api) => call(api, key, 'GET', '/v1/reviews?limit=1'));
    const allowed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(allowed).toHaveLength(100);
    expect(refused).toHaveLength(30);
    // Each allowed request took its own slot of the shared counter.
    expect(allowed.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
    for (const answer of refused) {
      expect(answer.body.error?.code).toBe('rate_limit_exceeded');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('creates exactly the review quota across both api processes, and processes each once', async () => {
    const { t, github } = ctx();
    const org = github.addOrg(`scaleco-${Date.now().toString(36)}`);
    const repo = github.addRepo(org, 'shop');
    const pull = github.addPullRequest(repo, {
      files: [{ filename: 'src/a.ts', status: 'modified', additions: 3, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b' }],
    });
    const { user } = await t.createUser(); // no GitHub token: public repositories are read anonymously
    await setPlan(t.database.db, user.id, 'enterprise'); // the request rate stays out of the way
    const key = await t.createToken(user.id);
    const before = github.requestsTo('pull_files').length;
    // The organization is on the free plan: 10 reviews an hour.
    const answers = await spread(16, 16, (api) =>
      call(api, key, 'POST', '/v1/reviews', { pull_request_url: github.pullRequestUrl(repo, pull) }),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(10);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(6);
    for (const answer of refused) {
      expect(answer.body.error?.code).toBe('rate_limit_exceeded');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    const ids = created.map((a) => a.body.data?.id as string);
    const db = t.database.db;
    await until('the live reviews to complete', async () => {
      const rows = await db.selectFrom('reviews').select('status').where('id', 'in', ids).execute();
      return rows.every((r) => r.status === 'completed');
    });
    // Each review read its files from GitHub once: no worker ran one twice.
    expect(github.requestsTo('pull_files').length - before).toBe(10);
    const completions = await db
      .selectFrom('events')
      .select('review_id')
      .where('type', '=', 'review.completed')
      .where('review_id', 'in', ids)
      .execute();
    expect(completions.map((c) => c.review_id).sort()).toEqual([...ids].sort());
  });
});

/**
 * The same property in one process, for both database passes: two app instances over one
 * database share the request rate, so no count lives in an instance's memory.
 */
describe('two app instances over one database', () => {
  let first: TestApp | undefined;
  let second: TestApp | undefined;

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ database: first.database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('let exactly the plan request rate through between them', async () => {
    if (first === undefined || second === undefined) throw new Error('setup failed');
    // One instant for both, mid-hour: the burst stays in one rate window.
    for (const app of [first, second]) app.clock.set('2026-03-02T10:30:00.000Z');
    const { user } = await first.createUser(); // free plan: 100 requests an hour
    const key = await first.createToken(user.id, { mode: 'test' });
    const apps = [first, second];
    const answers = await Promise.all(
      Array.from({ length: 130 }, (_, i) =>
        apps[i % 2]?.app.inject({ method: 'GET', url: '/v1/reviews?limit=1', headers: { 'x-api-key': key } }),
      ),
    );
    const statuses = answers.map((a) => a?.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const remaining = answers
      .filter((a) => a?.statusCode === 200)
      .map((a) => Number(a?.headers['x-ratelimit-remaining']));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});
