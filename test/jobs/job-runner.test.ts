import { randomBytes } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import type { JobRow } from '../../src/db/schema.js';
import { enqueueJob } from '../../src/jobs/enqueue-job.js';
import { type JobHandler, type JobLogger, JobRunner, type JobRunnerOptions } from '../../src/jobs/job-runner.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { type TestClock, testClock } from '../helpers/test-clock.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { eventually } from '../helpers/until.js';

const LEASE = 30_000;

/** A promise the test settles by hand: a handler "in flight" until the test says so. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A logger that remembers messages, so tests can see what the loop survived. */
function memoryLogger() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, msg, obj });
  const logger: JobLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

describe('JobRunner', () => {
  let t: TestDatabase;
  let clock: TestClock;
  beforeAll(async () => {
    t = await createTestDatabase();
    clock = testClock('2026-03-01T09:00:00.000Z');
  });
  afterAll(async () => t.close());

  const newQueue = () => `q_${randomBytes(4).toString('hex')}`;
  const row = (id: string) => t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  const enqueue = (queue: string, payload: Record<string, unknown> = {}, maxAttempts?: number) =>
    enqueueJob(t.db, { queue, payload, ...(maxAttempts ? { maxAttempts } : {}) }, clock.now());
  const worker = (handlers: Record<string, JobHandler>, options: Partial<JobRunnerOptions> = {}) =>
    new JobRunner({ db: t.db, clock, workerId: 'w1', handlers, leaseMs: LEASE, pollMs: 5, ...options });

  it('accepts pino as its logger', () => {
    const logger: JobLogger = pino({ enabled: false });
    expect(logger).toBeDefined();
  });

  it('runs each due job with its handler and removes it', async () => {
    const [a, b] = [newQueue(), newQueue()];
    const seen: string[] = [];
    const w = worker({
      [a]: async (job) => void seen.push(`a:${job.payload.n}`),
      [b]: async (job) => void seen.push(`b:${job.payload.n}`),
    });
    const jobs = [await enqueue(a, { n: 1 }), await enqueue(b, { n: 2 }), await enqueue(a, { n: 3 })];
    expect(await w.drain()).toBe(3);
    expect(seen.sort()).toEqual(['a:1', 'a:3', 'b:2']);
    for (const { id } of jobs) expect(await row(id)).toBeUndefined();
    expect(await w.drain()).toBe(0);
  });

  it('retries a failing handler with the backoff of the attempt, then fails it at max_attempts', async () => {
    const queue = newQueue();
    const attempts: number[] = [];
    const w = worker(
      {
        [queue]: async (job) => {
          attempts.push(job.attempts);
          throw new Error(`boom ${job.attempts}`);
        },
      },
      { backoff: (attempt) => attempt * 1000 },
    );
    const { id } = await enqueue(queue, {}, 3);
    expect(await w.drain()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 1, last_error: 'Error: boom 1' });
    clock.advance(999);
    expect(await w.drain()).toBe(0);
    clock.advance(1);
    expect(await w.drain()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 2, last_error: 'Error: boom 2' });
    clock.advance(2000);
    expect(await w.drain()).toBe(1);
    expect(await row(id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'Error: boom 3',
      locked_by: null,
    });
    clock.advance(LEASE * 10);
    expect(await w.drain()).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('succeeds on a retry after a failure', async () => {
    const queue = newQueue();
    let calls = 0;
    const w = worker(
      {
        [queue]: async () => {
          calls += 1;
          if (calls === 1) throw new Error('flaky');
        },
      },
      { backoff: () => 0 },
    );
    const { id } = await enqueue(queue);
    expect(await w.drain()).toBe(2);
    expect(await row(id)).toBeUndefined();
  });

  it('runs jobs from its loop, and stop() waits for the job in flight', async () => {
    const queue = newQueue();
    const started = deferred<string>();
    const release = deferred();
    const w = worker({
      [queue]: async (job) => {
        started.resolve(job.id);
        await release.promise;
      },
    });
    const { id } = await enqueue(queue);
    await w.start();
    expect(await started.promise).toBe(id);

    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'running', locked_by: 'w1' });

    release.resolve();
    await stopping;
    expect(await row(id)).toBeUndefined();

    // Stopped means stopped: a new job stays queued.
    const later = await enqueue(queue);
    await new Promise((r) => setTimeout(r, 50));
    expect(await row(later.id)).toMatchObject({ status: 'queued', attempts: 0 });
    await w.drain();
  });

  it('stops at once when idle, and stop() before start() is harmless', async () => {
    // An hour's poll: a stop() that waited for the next poll would meet the suite's hang detector
    // long before; one that returns does so without waiting for anything.
    const w = worker({ [newQueue()]: async () => {} }, { pollMs: 3_600_000 });
    await w.stop();
    await w.start();
    await w.stop();
  });

  it('keeps looping after a handler throws and after a transient database error', async () => {
    const queue = newQueue();
    const { logger, lines } = memoryLogger();
    // The next query to reach the database fails once, like a dropped connection.
    let failNext = false;
    const flaky: KyselyPlugin = {
      transformQuery(args) {
        if (failNext) {
          failNext = false;
          throw new Error('connection terminated unexpectedly');
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const done: number[] = [];
    const w = worker(
      {
        [queue]: async (job) => {
          if (job.payload.n === 1) throw new Error('handler blew up');
          done.push(job.payload.n as number);
        },
      },
      { db: t.db.withPlugin(flaky), logger, backoff: () => 60_000 },
    );
    await w.start();
    try {
      const bad = await enqueue(queue, { n: 1 });
      await eventually(async () =>
        expect(await row(bad.id)).toMatchObject({
          status: 'queued',
          attempts: 1,
          last_error: 'Error: handler blew up',
        }),
      );

      failNext = true;
      await eventually(() => expect(lines.some((l) => l.msg.includes('database error'))).toBe(true));
      await enqueue(queue, { n: 2 });
      await eventually(() => expect(done).toEqual([2]));
    } finally {
      await w.stop();
    }
    expect(lines.filter((l) => l.level === 'warn' && l.msg === 'job failed, will retry')).toHaveLength(1);
  });

  it('gives the attempt back when the database went away under the job, even its last one', async () => {
    const queue = newQueue();
    const { logger, lines } = memoryLogger();
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    // The database is still away when the worker gives the job back: its first two tries fail.
    let releasesToFail = 0;
    const away: KyselyPlugin = {
      transformQuery(args) {
        if (releasesToFail > 0 && args.node.kind === 'UpdateQueryNode') {
          releasesToFail -= 1;
          throw refused();
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const attempts: number[] = [];
    const w = worker(
      {
        [queue]: async (job) => {
          attempts.push(job.attempts);
          if (attempts.length === 1) {
            releasesToFail = 2;
            throw refused();
          }
        },
      },
      { db: t.db.withPlugin(away), logger, backoff: (attempt) => attempt * 1000 },
    );
    const { id } = await enqueue(queue, {}, 1);
    expect(await w.drain()).toBe(1);
    expect(releasesToFail).toBe(0);
    expect(await row(id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      locked_by: null,
      run_at: new Date(clock.now().getTime() + 1000),
      last_error: 'Error: connect ECONNREFUSED 127.0.0.1:5432',
    });
    expect(lines.map((l) => `${l.level} ${l.msg}`)).toEqual([
      'warn job interrupted by a database outage, will run again',
    ]);
    clock.advance(1000);
    expect(await w.drain()).toBe(1);
    expect(attempts).toEqual([1, 1]);
    expect(await row(id)).toBeUndefined();
  });

  it('runs a job again when completing it failed (at least once)', async () => {
    const queue = newQueue();
    let runs = 0;
    let failNext = false;
    const flaky: KyselyPlugin = {
      transformQuery(args) {
        if (failNext && args.node.kind === 'DeleteQueryNode') {
          failNext = false;
          throw new Error('connection terminated unexpectedly');
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const w = worker(
      {
        [queue]: async () => {
          runs += 1;
        },
      },
      { db: t.db.withPlugin(flaky) },
    );
    const { id } = await enqueue(queue);
    failNext = true;
    await expect(w.runOnce()).rejects.toThrow('connection terminated');
    expect(await row(id)).toMatchObject({ status: 'running' });
    clock.advance(LEASE);
    expect(await w.drain()).toBe(1);
    expect(runs).toBe(2);
    expect(await row(id)).toBeUndefined();
  });

  it('keeps a long job alive with a heartbeat, so no one else takes it', async () => {
    const queue = newQueue();
    const started = deferred();
    const release = deferred();
    const slow = worker(
      {
        [queue]: async () => {
          started.resolve();
          await release.promise;
        },
      },
      { heartbeatMs: 10 },
    );
    const other = worker({ [queue]: async () => {} }, { workerId: 'w2' });
    const { id } = await enqueue(queue);
    const run = slow.runOnce();
    await started.promise;
    const firstLease = (await row(id))?.locked_until;

    clock.advance(LEASE - 1000);
    await eventually(async () => expect((await row(id))?.locked_until).not.toEqual(firstLease));
    clock.advance(LEASE - 1000);
    // Without the heartbeat the lease would have run out LEASE - 2000 ms ago.
    expect(await other.drain()).toBe(0);

    release.resolve();
    expect(await run).toBe(true);
    expect(await row(id)).toBeUndefined();
  });

  it('finishes, with a second worker, a job whose worker died mid-run, and aborts the stale run', async () => {
    const queue = newQueue();
    const started = deferred<AbortSignal>();
    const never = new Promise<void>(() => {});
    // The first worker's handler never returns and its heartbeat never lands: a hung or dead process.
    let deaf = false;
    const dead: KyselyPlugin = {
      transformQuery(args) {
        if (deaf) throw new Error('process is gone');
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const doomed = worker(
      {
        [queue]: async (_job, { signal }) => {
          started.resolve(signal);
          await never;
        },
      },
      { db: t.db.withPlugin(dead), heartbeatMs: 10 },
    );
    const seen: JobRow[] = [];
    const rescuer = worker({ [queue]: async (job) => void seen.push(job) }, { workerId: 'w2' });
    const { id } = await enqueue(queue, { n: 7 });
    void doomed.start();
    const signal = await started.promise;
    deaf = true;

    clock.advance(LEASE - 1);
    expect(await rescuer.drain()).toBe(0);
    clock.advance(1);
    expect(await rescuer.drain()).toBe(1);
    expect(seen.map((j) => [j.id, j.attempts, j.payload])).toEqual([[id, 2, { n: 7 }]]);
    expect(await row(id)).toBeUndefined();

    // Had it only hung, its next heartbeat learns the job is gone and tells the handler to give up.
    deaf = false;
    await eventually(() => expect(signal.aborted).toBe(true));
    // The doomed worker is abandoned, never stopped (its handler never returns).
  });

  itOnPostgres(
    '4 workers with pools of their own run 200 jobs, each exactly once',
    async () => {
      const queue = newQueue();
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) ids.push((await enqueue(queue, { i })).id);
      const pools = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ url: t.url ?? '', poolSize: 2 })));
      const runs = new Map<string, number>();
      const byWorker = new Map<string, number>();
      try {
        const workers = pools.map(
          (pool, n) =>
            new JobRunner({
              db: pool.db,
              clock,
              workerId: `w${n}`,
              leaseMs: LEASE,
              pollMs: 5,
              handlers: {
                [queue]: async (job) => {
                  runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
                  byWorker.set(`w${n}`, (byWorker.get(`w${n}`) ?? 0) + 1);
                  await new Promise((r) => setTimeout(r, Math.random() * 3));
                },
              },
            }),
        );
        await Promise.all(workers.map((w) => w.start()));
        await eventually(async () => {
          const left = await t.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('queue', '=', queue)
            .executeTakeFirstOrThrow();
          expect(Number(left.n)).toBe(0);
        });
        await Promise.all(workers.map((w) => w.stop()));
      } finally {
        await Promise.all(pools.map((p) => p.close()));
      }
      expect(runs.size).toBe(200);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(ids)).toEqual(new Set(runs.keys()));
      // They shared the work (not one worker doing it all while the others waited).
      expect(byWorker.size).toBeGreaterThan(1);
    },
    60_000,
  );

  itOnPostgres('lets a second process finish a job whose worker lost its database connections', async () => {
    const queue = newQueue();
    const started = deferred();
    const own = await openDatabase({ url: t.url ?? '', poolSize: 1 });
    const doomed = new JobRunner({
      db: own.db,
      clock,
      workerId: 'doomed',
      leaseMs: LEASE,
      pollMs: 5,
      handlers: {
        [queue]: async () => {
          started.resolve();
          await new Promise(() => {});
        },
      },
    });
    const { id } = await enqueue(queue);
    void doomed.start();
    await started.promise;
    // Its pool is gone (as with a killed process): no transaction or row lock survives it,
    // because none is held while a handler runs.
    await own.close();
    const rescuer = worker({ [queue]: async () => {} }, { workerId: 'w2' });
    expect(await rescuer.drain()).toBe(0);
    clock.advance(LEASE);
    expect(await rescuer.drain()).toBe(1);
    expect(await row(id)).toBeUndefined();
  });
});
