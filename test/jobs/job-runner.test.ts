import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobLogger } from '../../src/jobs/job-runner.js';
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
});
