import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QUEUES } from '../../src/jobs/queues.js';
import { type HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver.js';
import { describeOnPostgres } from '../helpers/postgres-only.js';
import { type RoleProcess, serveRole, testAppEnv } from '../helpers/serve-role.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Issue 5's at-least-once promise with real processes (`redline serve --role worker`, the
 * compiled build) on one PostgreSQL: a worker killed with SIGKILL while a subscriber holds its
 * request is replaced by another that sends the same delivery again, with the same ids; and two
 * workers sharing the queue never send one attempt twice. PostgreSQL pass only (PGlite is one
 * process).
 */
describeOnPostgres('webhook delivery across worker processes', () => {
  let receiver: HttpsReceiver;
  let t: TestApp;
  let dir: string;
  let caFile: string;
  let key: string;
  const processes: RoleProcess[] = [];

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    dir = await mkdtemp(path.join(os.tmpdir(), 'redline-hooks-'));
    caFile = path.join(dir, 'ca.pem');
    await writeFile(caFile, receiver.ca);
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    const { user } = await t.createUser();
    key = await t.createToken(user.id, { mode: 'test' });
  });
  afterAll(async () => {
    for (const child of processes) await child.stop('SIGKILL');
    await t?.close();
    await receiver?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('webhooks').execute();
    receiver.requests.length = 0;
  });

  // A short lease lets a replacement take over a killed worker's delivery soon. Where no worker is
  // killed, a minute: a short one would run out whenever load delays a heartbeat, and
  // another worker would then send the delivery again (as at-least-once allows).
  const startWorker = async (leaseMs = '1500') => {
    const worker = await serveRole('worker', {
      ...testAppEnv(t),
      JOB_LEASE_MS: leaseMs,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NODE_EXTRA_CA_CERTS: caFile,
    });
    processes.push(worker);
    return worker;
  };
  const subscribe = async (events: string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'x-api-key': key },
      payload: { url: `${receiver.url}/hook`, events },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  const createReview = async (n: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': key },
      payload: { pull_request_url: `https://github.com/acme/kill/pull/${n}` },
    });
    expect(res.statusCode).toBe(201);
  };

  it('redelivers a delivery cut off by SIGKILL, with the same delivery id and body', async () => {
    const webhookId = await subscribe(['review.created']);
    receiver.setHandler((_request, index) => (index === 0 ? { hang: true } : { status: 200 }));
    await createReview(1);
    const first = await startWorker();
    await until('the first attempt to arrive', () => receiver.requests.length === 1);
    await first.stop('SIGKILL');

    const second = await startWorker();
    await until('the redelivery', () => receiver.requests.length === 2);
    const [cut, again] = receiver.requests;
    expect(again?.headers['x-svc-delivery']).toBe(cut?.headers['x-svc-delivery']);
    expect(again?.headers['webhook-id']).toBe(cut?.headers['webhook-id']);
    expect(again?.body).toBe(cut?.body);
    await until('the delivery to be recorded', async () => {
      const row = await t.database.db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('webhook_id', '=', webhookId)
        .executeTakeFirst();
      return row?.status === 'delivered';
    });
    const attempts = await t.database.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.attempt', 'a.status_code'])
      .where('d.webhook_id', '=', webhookId)
      .execute();
    // The cut-off attempt left no record: it is the same attempt, made again.
    expect(attempts).toEqual([{ attempt: 1, status_code: 200 }]);
    await second.stop('SIGTERM');
  });

  it('sends each delivery once when two workers share the queue', async () => {
    await subscribe(['review.created']);
    receiver.setHandler(() => ({ status: 200, delayMs: 30 }));
    const workers = [await startWorker('60000'), await startWorker('60000')];
    const count = 40;
    for (let n = 1; n <= count; n += 1) await createReview(100 + n);
    await until('every delivery', () => receiver.requests.length >= count);
    // Every delivery recorded and its job gone: no worker holds one it could still send again.
    await until('every delivery to be recorded and its job finished', async () => {
      const db = t.database.db;
      const open = await db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'delivered').execute();
      const jobs = await db.selectFrom('jobs').select('id').where('queue', '=', QUEUES.webhookDelivery).execute();
      return open.length === 0 && jobs.length === 0;
    });
    const ids = receiver.requests.map((r) => r.headers['x-svc-delivery']);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    for (const worker of workers) await worker.stop('SIGTERM');
  });
});

/**
 * The laptop case: `redline serve` on the embedded database, killed with SIGKILL while a
 * subscriber holds the delivery's request, then started again on the same DATA_DIR: the delivery
 * is sent again with the same ids.
 */
describe('an embedded server killed mid-delivery', () => {
  let receiver: HttpsReceiver;
  let dir: string;
  const processes: RoleProcess[] = [];

  beforeAll(async () => {
    receiver = await startHttpsReceiver((_request, index) => (index === 0 ? { hang: true } : { status: 200 }));
    dir = await mkdtemp(path.join(os.tmpdir(), 'redline-hooks-embedded-'));
    await writeFile(path.join(dir, 'ca.pem'), receiver.ca);
  });
  afterAll(async () => {
    for (const child of processes) await child.stop('SIGKILL');
    await receiver?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the delivery again after a restart, with the same delivery id', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      JOB_LEASE_MS: '1500',
      LOG_LEVEL: 'warn' as const,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem'),
    };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bin/redline.js', 'token', 'create', '--user', 'laptop', '--test', '--scopes', 'review:write,org:write'],
      { cwd: ROOT, env },
    );
    const key = stdout.trim();
    // API and workers in one process, as on a laptop; returned once /readyz answers.
    const start = async () => {
      const server = await serveRole('all', env, { port });
      processes.push(server);
      return server;
    };
    const post = (url: string, body: object) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const first = await start();
    expect((await post('/v1/webhooks', { url: `${receiver.url}/hook`, events: ['review.created'] })).status).toBe(201);
    expect((await post('/v1/reviews', { pull_request_url: 'https://github.com/acme/kill/pull/1' })).status).toBe(201);
    await until('the first attempt', () => receiver.requests.length === 1);
    await first.stop('SIGKILL');

    const second = await start();
    await until('the redelivery', () => receiver.requests.length === 2);
    const [cut, again] = receiver.requests;
    expect(again?.headers['x-svc-delivery']).toBe(cut?.headers['x-svc-delivery']);
    expect(again?.headers['webhook-id']).toBe(cut?.headers['webhook-id']);
    expect(again?.body).toBe(cut?.body);
    await second.stop('SIGTERM');
  });
});
