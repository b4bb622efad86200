import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalUser, setPlan } from '../../src/auth/accounts.js';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { jwtKeys, signUserJwt } from '../../src/auth/jwt.js';
import { SCOPES } from '../../src/auth/scopes.js';
import { loadConfig } from '../../src/config/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { isDatabaseUnavailable } from '../../src/db/database-unavailable.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/schema.js';
import { buildApp } from '../../src/http/build-app.js';
import { expectDatabaseUnavailable } from '../helpers/expect-unavailable.js';
import { type HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver.js';
import { describeOnPostgres } from '../helpers/postgres-only.js';
import { freePort, type PrivatePostgres, startPrivatePostgres } from '../helpers/private-postgres.js';
import { type RoleProcess, serveRole } from '../helpers/serve-role.js';
import { testSecrets } from '../helpers/test-app.js';
import { testClock } from '../helpers/test-clock.js';
import { until } from '../helpers/until.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Errors as node-postgres and Node give them, built here: their shape is what is classified. */
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is down, restarting, unreachable or full', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      new Error('Migration 0001-accounts failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it('leaves faults of ours alone: they stay 500s', () => {
    for (const error of [
      withCode('syntax error at or near "selec"', '42601'),
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('canceling statement due to statement timeout', '57014'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'a string',
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});

/**
 * The HTTP side: an app over a database whose every connection is refused answers an
 * authenticated request 503 service_unavailable in the spec 7.1 shape with Retry-After, never a
 * 500, and never shows the driver's message (host, user) to the client.
 */
describe('requests while the database refuses connections', () => {
  const clock = testClock();
  const secrets = testSecrets();
  const publicUrl = 'http://redline.test';
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    const pool = {
      connect: async (): Promise<never> => {
        throw withCode('connect ECONNREFUSED 10.9.8.7:5432 (user redline_admin)', 'ECONNREFUSED');
      },
      end: async () => {},
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const database: DatabaseHandle = { db, kind: 'postgres', ping: async () => false, close: () => db.destroy() };
    app = await buildApp({ config: loadConfig({ PUBLIC_URL: publicUrl }), database, secrets, clock });
    await app.ready();
  });
  afterAll(async () => app?.close());

  it('answers 503 service_unavailable with Retry-After', async () => {
    const jwt = await signUserJwt(jwtKeys(secrets.jwtSecret, publicUrl), 'usr_x', clock.now());
    for (const url of ['/v1/reviews', '/v1/organizations']) {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${jwt}` } });
      expectDatabaseUnavailable(res, clock.now());
      expect(res.body).not.toMatch(/ECONNREFUSED|10\.9\.8\.7|redline_admin/);
    }
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
  });
});

/**
 * A process started while the database is down exits (its supervisor restarts it) with words an
 * operator can act on, not "Migration unknown failed". Nothing listens on the port given.
 */
describe('serve started while the database is down', () => {
  it('exits 1 saying the database is not answering', async () => {
    const port = await freePort();
    const secrets = testSecrets();
    const run = promisify(execFile)(process.execPath, ['bin/redline.js', 'serve', '--role', 'worker'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: `postgres://redline@127.0.0.1:${port}/redline`,
        JWT_SECRET: secrets.jwtSecret,
        ENCRYPTION_KEY: secrets.encryptionKey.toString('hex'),
        LOG_LEVEL: 'warn',
      },
    });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`the database is not answering (connect ECONNREFUSED 127.0.0.1:${port})`),
    });
  });
});

/** What a client of the api process saw. */
interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
  requestId: string | null;
}

/**
 * Issue 8: PostgreSQL stopped (fast shutdown: sessions cut mid-query) and started again while an
 * api and a worker process (the compiled build, `serve --role`) are under load. On a private
 * cluster of this file's own (test/helpers/private-postgres.ts): the shared server serves the
 * other test files meanwhile. Proves: during the outage every request is answered, 503
 * `service_unavailable` in the spec 7.1 shape with Retry-After, /readyz 503 and /healthz 200;
 * neither process dies; once the database is back both carry on without a restart, and no review
 * or webhook delivery is lost or processed twice.
 */
describeOnPostgres('PostgreSQL stopped and started under load', () => {
  let server: PrivatePostgres | undefined;
  let receiver: HttpsReceiver | undefined;
  let dir: string | undefined;
  let key = '';
  const processes: RoleProcess[] = [];
  const secrets = testSecrets();

  beforeAll(async () => {
    server = await startPrivatePostgres();
    // Slow enough that deliveries are in flight when the database goes: their outcome cannot be
    // recorded, so they are sent again later, with the same delivery id.
    receiver = await startHttpsReceiver(() => ({ status: 200, delayMs: 300 }));
    dir = await mkdtemp(path.join(os.tmpdir(), 'redline-outage-'));
    await writeFile(path.join(dir, 'ca.pem'), receiver.ca);
    const database = await openDatabase({ url: server.url, poolSize: 2 });
    try {
      await migrateToLatest(database.db);
      const user = await createLocalUser(database.db, 'outage');
      // The load below is several hundred requests: the free plan's 100 an hour would end it.
      await setPlan(database.db, user.id, 'enterprise');
      ({ token: key } = await createApiToken(database.db, {
        userId: user.id,
        name: 'outage',
        scopes: [...SCOPES],
        mode: 'test',
        expiresInSeconds: 3600,
        now: new Date(),
      }));
    } finally {
      await database.close();
    }
  });

  afterAll(async () => {
    for (const child of processes) await child.stop('SIGKILL');
    await server?.destroy();
    await receiver?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 with the error shape while the database is away, and recovers without a restart', async () => {
    if (server === undefined || receiver === undefined || dir === undefined) throw new Error('setup failed');
    const pgServer = server;
    const env = {
      DATABASE_URL: pgServer.url,
      JWT_SECRET: secrets.jwtSecret,
      ENCRYPTION_KEY: secrets.encryptionKey.toString('hex'),
      PUBLIC_URL: 'http://redline.test',
      // A job cut off by the outage is taken over soon after the database is back.
      JOB_LEASE_MS: '3000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem'),
    };
    const api = await serveRole('api', env);
    processes.push(api);
    const worker = await serveRole('worker', env);
    processes.push(worker);

    const call = async (method: 'GET' | 'POST', url: string, body?: object): Promise<Answer> => {
      const res = await fetch(`${api.baseUrl}${url}`, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return {
        status: res.status,
        body: await res.json(),
        retryAfter: res.headers.get('retry-after'),
        requestId: res.headers.get('x-request-id'),
      };
    };
    let next = 10;
    // Test mode: numbers other than 1, 2 and 3 complete with results that depend on the URL.
    const createReview = () =>
      call('POST', '/v1/reviews', { pull_request_url: `https://github.com/acme/outage/pull/${next++}` });
    const created: string[] = [];
    const remember = (answer: Answer) => {
      if (answer.status === 201) created.push((answer.body as { data: { id: string } }).data.id);
      return answer;
    };

    const hook = await call('POST', '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['review.completed'] });
    expect(hook.status).toBe(201);
    for (let i = 0; i < 5; i++) expect(remember(await createReview()).status).toBe(201);
    // The worker is up (it migrated and runs jobs) before the database goes away.
    await until('the first deliveries', () => receiver?.requests.length === 5);

    // Two clients keep reading and creating throughout; every answer is kept.
    const answers: Answer[] = [];
    const unanswered: string[] = [];
    let loading = true;
    const client = async (create: boolean) => {
      while (loading) {
        try {
          answers.push(create ? remember(await createReview()) : await call('GET', '/v1/reviews?limit=5'));
        } catch (error) {
          unanswered.push(String(error));
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const load = Promise.all([client(true), client(false)]);
    try {
      await until('some load before the outage', () => answers.length >= 10);

      await pgServer.stop();
      // A process that died on the outage (an 'error' event nobody listened to) ends the wait.
      const dead = () => !api.alive() || !worker.alive();
      await until(
        'the api to report the outage',
        async () => dead() || (await fetch(`${api.baseUrl}/readyz`)).status === 503,
      );
      expectAlive(api, worker);
      const unavailable = (answer: Answer) => {
        expect(answer).toEqual({
          status: 503,
          body: {
            error: {
              type: 'api_error',
              code: 'service_unavailable',
              status: 503,
              message: expect.stringContaining('database'),
            },
            meta: { request_id: answer.requestId, timestamp: expect.any(String) },
          },
          retryAfter: '5',
          requestId: expect.stringMatching(/^req_/),
        });
      };
      unavailable(await call('GET', '/v1/reviews'));
      unavailable(await createReview());
      expect((await fetch(`${api.baseUrl}/readyz`)).headers.get('retry-after')).toBe('5');
      expect((await fetch(`${api.baseUrl}/healthz`)).status).toBe(200);
      // Three failed claims in a row: it keeps trying, with longer pauses (500 ms, 1 s, 2 s).
      const triedThrice = () =>
        worker
          .output()
          .split('\n')
          .some((line) => line.includes('job worker: database error') && line.includes('"failures":3'));
      await until('the worker to retry through the outage', () => dead() || triedThrice());
      expectAlive(api, worker);
      await until('the load to meet the outage', () => answers.some((a) => a.status === 503));

      await pgServer.start();
      await until('the api to be ready again', async () => (await fetch(`${api.baseUrl}/readyz`)).status === 200);
      await until(
        'the load to be served again',
        () => answers.at(-1)?.status === 201 || answers.at(-1)?.status === 200,
      );
    } finally {
      loading = false;
      await load;
    }
    for (let i = 0; i < 5; i++) expect(remember(await createReview()).status).toBe(201);

    // The same two processes all along.
    expectAlive(api, worker);
    expect(unanswered).toEqual([]);
    for (const answer of answers) {
      if (answer.status === 503)
        expect((answer.body as { error: { code: string } }).error.code).toBe('service_unavailable');
      else expect([200, 201], JSON.stringify(answer.body)).toContain(answer.status);
    }

    // Every review created (those whose 201 got lost in the outage included) is processed once,
    // and its completion delivered; a delivery sent twice keeps its delivery id.
    const database = await openDatabase({ url: pgServer.url, poolSize: 2 });
    try {
      const reviews = await reviewsAndCompletions(database);
      await until('every review to complete and its completion to be delivered', async () => {
        const now = await reviewsAndCompletions(database);
        reviews.splice(0, reviews.length, ...now);
        const delivered = new Set(receiver?.requests.map((r) => JSON.parse(r.body).data.review_id));
        return now.every((r) => r.status === 'completed' && delivered.has(r.id));
      });
      const ids = reviews.map((r) => r.id);
      for (const id of created) expect(ids).toContain(id);
      for (const review of reviews) expect(review.completions, review.id).toBe(1);
      const deliveryIds = new Map<string, Set<string>>();
      for (const request of receiver.requests) {
        const eventId = JSON.parse(request.body).id as string;
        const ids = deliveryIds.get(eventId) ?? new Set();
        ids.add(String(request.headers['x-svc-delivery']));
        deliveryIds.set(eventId, ids);
      }
      expect(deliveryIds.size).toBe(reviews.length);
      for (const [eventId, ids] of deliveryIds) expect(ids.size, eventId).toBe(1);
      await until('every delivery to be recorded', async () => {
        const open = await database.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '!=', 'delivered')
          .execute();
        return open.length === 0;
      });
      // Nothing given up on: no job failed over the outage.
      expect(
        await database.db.selectFrom('jobs').select(['queue', 'last_error']).where('status', '=', 'failed').execute(),
      ).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

/** Both processes still run; if not, the failure shows what the dead one wrote last. */
function expectAlive(...processes: RoleProcess[]) {
  for (const child of processes) {
    expect(child.alive(), `the ${child.role} process exited:\n${child.output().slice(-4000)}`).toBe(true);
  }
}

async function reviewsAndCompletions(database: DatabaseHandle) {
  const rows = await database.db
    .selectFrom('reviews as r')
    .leftJoin('events as e', (join) => join.onRef('e.review_id', '=', 'r.id').on('e.type', '=', 'review.completed'))
    .select(['r.id', 'r.status'])
    .select((eb) => eb.fn.count<number>('e.id').as('completions'))
    .groupBy(['r.id', 'r.status'])
    .execute();
  return rows.map((r) => ({ id: r.id, status: r.status, completions: Number(r.completions) }));
}
