import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { claimJob } from '../../src/jobs/claim-job.js';
import { completeJob } from '../../src/jobs/complete-job.js';
import { enqueueJob } from '../../src/jobs/enqueue-job.js';
import { extendLease } from '../../src/jobs/extend-lease.js';
import { failJob } from '../../src/jobs/fail-job.js';
import { retryJob } from '../../src/jobs/retry-job.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { type TestClock, testClock } from '../helpers/test-clock.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const LEASE = 30_000;

describe('job queue', () => {
  let t: TestDatabase;
  let clock: TestClock;
  beforeAll(async () => {
    t = await createTestDatabase();
    clock = testClock('2026-03-01T09:00:00.000Z');
  });
  afterAll(async () => t.close());

  // The file's tests share one database: each works in a queue of its own.
  const newQueue = () => `q_${randomBytes(4).toString('hex')}`;
  const claim = (queue: string, workerId = 'w1', leaseMs = LEASE) =>
    claimJob(t.db, { queues: [queue], workerId, leaseMs, now: clock.now() });
  const row = (id: string) => t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();

  it('enqueues inside the caller transaction: gone with a rollback, claimable after a commit', async () => {
    const queue = newQueue();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, { queue, payload: { n: 1 } }, clock.now());
        throw new Error('business change failed');
      }),
    ).rejects.toThrow('business change failed');
    expect(await claim(queue)).toBeUndefined();

    const { id, enqueued } = await t.db
      .transaction()
      .execute((trx) => enqueueJob(trx, { queue, payload: { n: 2 } }, clock.now()));
    expect(enqueued).toBe(true);
    expect(id).toMatch(/^job_[0-9A-Za-z]{22}$/);
    const job = await claim(queue);
    expect(job).toMatchObject({ id, queue, payload: { n: 2 }, status: 'running', attempts: 1, locked_by: 'w1' });
    expect(job?.locked_until).toEqual(new Date(clock.now().getTime() + LEASE));
  });

  it('treats a second enqueue of the same id as a no-op while the job exists', async () => {
    const queue = newQueue();
    const first = await enqueueJob(t.db, { queue, payload: { v: 1 }, id: `job_${queue}` }, clock.now());
    const again = await enqueueJob(t.db, { queue, payload: { v: 2 }, id: `job_${queue}` }, clock.now());
    expect(first).toEqual({ id: `job_${queue}`, enqueued: true });
    expect(again).toEqual({ id: `job_${queue}`, enqueued: false });
    expect((await row(`job_${queue}`))?.payload).toEqual({ v: 1 });
  });

  it('claims only from the given queues, nothing with no queue', async () => {
    const [a, b] = [newQueue(), newQueue()];
    await enqueueJob(t.db, { queue: b, payload: {} }, clock.now());
    expect(await claim(a)).toBeUndefined();
    expect(await claimJob(t.db, { queues: [], workerId: 'w1', leaseMs: LEASE, now: clock.now() })).toBeUndefined();
    expect((await claim(b))?.queue).toBe(b);
  });

  it('does not claim a job before its run_at, and claims the earliest run_at first', async () => {
    const queue = newQueue();
    const at = (ms: number) => new Date(clock.now().getTime() + ms);
    const late = await enqueueJob(t.db, { queue, payload: {}, runAt: at(3000) }, clock.now());
    const early = await enqueueJob(t.db, { queue, payload: {}, runAt: at(1000) }, clock.now());
    const middle = await enqueueJob(t.db, { queue, payload: {}, runAt: at(2000) }, clock.now());
    expect(await claim(queue)).toBeUndefined();
    clock.advance(999);
    expect(await claim(queue)).toBeUndefined();
    clock.advance(1);
    expect((await claim(queue))?.id).toBe(early.id);
    expect(await claim(queue)).toBeUndefined();
    clock.advance(5000);
    expect((await claim(queue))?.id).toBe(middle.id);
    expect((await claim(queue))?.id).toBe(late.id);
  });

  it('leases a claimed job; after the lease expires another worker takes it and the first is refused', async () => {
    const queue = newQueue();
    const { id } = await enqueueJob(t.db, { queue, payload: {} }, clock.now());
    const first = await claim(queue, 'w1');
    expect(first?.attempts).toBe(1);
    clock.advance(LEASE - 1);
    expect(await claim(queue, 'w2')).toBeUndefined();
    clock.advance(1);
    const second = await claim(queue, 'w2');
    expect(second).toMatchObject({ id, attempts: 2, locked_by: 'w2', status: 'running' });
    if (first === undefined || second === undefined) throw new Error('unreachable');

    // The first worker comes back: every outcome of its run is refused and changes nothing.
    expect(await completeJob(t.db, first)).toBe(false);
    expect(await retryJob(t.db, first, new Error('late'), 0, clock.now())).toBe(false);
    expect(await failJob(t.db, first, new Error('late'), clock.now())).toBe(false);
    expect(await extendLease(t.db, first, LEASE, clock.now())).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'running', locked_by: 'w2', attempts: 2, last_error: null });

    expect(await completeJob(t.db, second)).toBe(true);
    expect(await row(id)).toBeUndefined();
  });

  it('fences by attempt, not only by worker id: a stale run of the same worker is refused', async () => {
    const queue = newQueue();
    const { id } = await enqueueJob(t.db, { queue, payload: {} }, clock.now());
    const stale = await claim(queue, 'w1');
    clock.advance(LEASE);
    const fresh = await claim(queue, 'w1');
    if (stale === undefined || fresh === undefined) throw new Error('both claims should succeed');
    expect(await completeJob(t.db, stale)).toBe(false);
    expect((await row(id))?.attempts).toBe(2);
    expect(await completeJob(t.db, fresh)).toBe(true);
  });

  it('keeps a lease alive with extendLease', async () => {
    const queue = newQueue();
    await enqueueJob(t.db, { queue, payload: {} }, clock.now());
    const job = await claim(queue, 'w1');
    if (job === undefined) throw new Error('claim failed');
    clock.advance(LEASE - 1000);
    expect(await extendLease(t.db, job, LEASE, clock.now())).toBe(true);
    clock.advance(LEASE - 1000);
    expect(await claim(queue, 'w2')).toBeUndefined();
    clock.advance(1000);
    expect((await claim(queue, 'w2'))?.attempts).toBe(2);
  });

  it('retries with a delay, then fails at max_attempts and keeps the failed job with its error', async () => {
    const queue = newQueue();
    const { id } = await enqueueJob(t.db, { queue, payload: {}, maxAttempts: 2 }, clock.now());
    const first = await claim(queue);
    if (first === undefined) throw new Error('claim failed');
    expect(await retryJob(t.db, first, new Error('boom 1'), 5000, clock.now())).toBe(true);
    expect(await row(id)).toMatchObject({
      status: 'queued',
      locked_by: null,
      locked_until: null,
      last_error: 'Error: boom 1',
      run_at: new Date(clock.now().getTime() + 5000),
    });
    clock.advance(4999);
    expect(await claim(queue)).toBeUndefined();
    clock.advance(1);
    const second = await claim(queue);
    expect(second?.attempts).toBe(2);
    if (second === undefined) throw new Error('claim failed');
    expect(await failJob(t.db, second, 'boom 2', clock.now())).toBe(true);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'boom 2', locked_by: null });
    clock.advance(LEASE * 10);
    expect(await claim(queue)).toBeUndefined();
  });

  it('fails, instead of running again, a job whose lease expired on its last attempt, and claims the next one', async () => {
    const queue = newQueue();
    const { id } = await enqueueJob(t.db, { queue, payload: {}, maxAttempts: 1 }, clock.now());
    expect((await claim(queue))?.id).toBe(id);
    clock.advance(1);
    const next = await enqueueJob(t.db, { queue, payload: {} }, clock.now());
    clock.advance(LEASE);
    expect((await claim(queue, 'w2'))?.id).toBe(next.id);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, locked_by: null });
    expect((await row(id))?.last_error).toMatch(/lease expired/);
  });

  itOnPostgres('does not let another connection claim a job whose enqueueing transaction is still open', async () => {
    const queue = newQueue();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let enqueued!: () => void;
    const inserted = new Promise<void>((resolve) => {
      enqueued = resolve;
    });
    const trx = t.db.transaction().execute(async (tx) => {
      await enqueueJob(tx, { queue, payload: {} }, clock.now());
      enqueued();
      await held;
    });
    await inserted;
    expect(await claim(queue)).toBeUndefined();
    release();
    await trx;
    expect(await claim(queue)).toBeDefined();
  });

  itOnPostgres(
    'never hands one job to two claimers: 4 pools racing over 200 jobs without completing any',
    async () => {
      const queue = newQueue();
      for (let i = 0; i < 200; i++) await enqueueJob(t.db, { queue, payload: { i } }, clock.now());
      const pools = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ url: t.url ?? '', poolSize: 3 })));
      try {
        const now = clock.now();
        const claimed: string[] = [];
        // Three claimers per pool; none completes, so only the claim itself keeps them apart.
        const claimers = pools.flatMap((pool, p) =>
          [0, 1, 2].map(async (c) => {
            for (;;) {
              const job = await claimJob(pool.db, { queues: [queue], workerId: `w${p}.${c}`, leaseMs: LEASE, now });
              if (job === undefined) return;
              claimed.push(job.id);
            }
          }),
        );
        await Promise.all(claimers);
        expect(claimed).toHaveLength(200);
        expect(new Set(claimed).size).toBe(200);
        const rows = await t.db.selectFrom('jobs').select(['attempts', 'status']).where('queue', '=', queue).execute();
        expect(rows.every((r) => r.attempts === 1 && r.status === 'running')).toBe(true);
      } finally {
        await Promise.all(pools.map((p) => p.close()));
      }
    },
    60_000,
  );
});
