import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import type { JobRow } from '../../src/db/schema.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { type TestClock, testClock } from '../helpers/test-clock.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { eventually } from '../helpers/until.js';
import { deferred, jobRunnerHelpers, LEASE, memoryLogger } from './job-runner-harness.js';

describe('JobRunner', () => {
  let t: TestDatabase;
  let clock: TestClock;
  beforeAll(async () => {
    t = await createTestDatabase();
    clock = testClock('2026-03-01T09:00:00.000Z');
  });
  afterAll(async () => t.close());
  const { newQueue, row, enqueue, worker } = jobRunnerHelpers(
    () => t,
    () => clock,
  );

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
