import { randomBytes } from 'node:crypto';
import { enqueueJob } from '../../src/jobs/enqueue-job.js';
import { type JobHandler, type JobLogger, JobRunner, type JobRunnerOptions } from '../../src/jobs/job-runner.js';
import type { TestClock } from '../helpers/test-clock.js';
import type { TestDatabase } from '../helpers/test-database.js';

export const LEASE = 30_000;

/** A promise the test settles by hand: a handler "in flight" until the test says so. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A logger that remembers messages, so tests can see what the loop survived. */
export function memoryLogger() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, msg, obj });
  const logger: JobLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

/** What the JobRunner tests do over and over, on the file's database and clock (read when called). */
export function jobRunnerHelpers(database: () => TestDatabase, now: () => TestClock) {
  const newQueue = () => `q_${randomBytes(4).toString('hex')}`;
  const row = (id: string) => database().db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  const enqueue = (queue: string, payload: Record<string, unknown> = {}, maxAttempts?: number) =>
    enqueueJob(database().db, { queue, payload, ...(maxAttempts ? { maxAttempts } : {}) }, now().now());
  const worker = (handlers: Record<string, JobHandler>, options: Partial<JobRunnerOptions> = {}) =>
    new JobRunner({
      db: database().db,
      clock: now(),
      workerId: 'w1',
      handlers,
      leaseMs: LEASE,
      pollMs: 5,
      ...options,
    });
  return { newQueue, row, enqueue, worker };
}
