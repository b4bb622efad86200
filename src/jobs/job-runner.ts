import type { Kysely } from 'kysely';
import { backoffPause } from '../common/backoff-pause.js';
import type { Clock } from '../common/clock.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import type { Database, JobRow } from '../db/schema.js';
import type { BackgroundLoop } from './background-loop.js';
import { claimJob } from './claim-job.js';
import { completeJob } from './complete-job.js';
import { extendLease } from './extend-lease.js';
import { failJob } from './fail-job.js';
import { retryJob } from './retry-job.js';

/**
 * Runs one job. `signal` aborts when the job's lease was lost (another worker now owns it): a
 * long handler should stop then, since its outcome will be refused anyway. Jobs run at least
 * once, so a handler must tolerate running again after a crash.
 */
export type JobHandler = (job: JobRow, context: { signal: AbortSignal }) => Promise<void>;

/** The part of pino the runner (and a periodic task) uses. */
export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobRunnerOptions {
  db: Kysely<Database>;
  clock: Clock;
  /** Unique per running worker (e.g. host, pid and a random part): leases are held in its name. */
  workerId: string;
  /** One per queue this runner takes jobs from; it claims from no other queue. */
  handlers: Record<string, JobHandler>;
  /** How long a claim lasts without a heartbeat before another worker may take the job over. */
  leaseMs?: number;
  /** The pause when no job is due, or after a database error. */
  pollMs?: number;
  /** Heartbeat period; default a third of the lease, so two missed beats still keep it. */
  heartbeatMs?: number;
  /** The delay before the next attempt, given the number of the attempt that just failed. */
  backoff?: (attempt: number) => number;
  logger?: JobLogger;
  name?: string;
}

/** 1 s, 2 s, 4 s ... capped at 5 minutes. */
export function defaultBackoff(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt - 1), 300_000);
}

const silent: JobLogger = { info() {}, warn() {}, error() {} };

/**
 * Claims and runs jobs one at a time. The claim is its own short statement and no transaction is
 * held while a handler runs: on PGlite the pool has one connection, and the handler needs it.
 */
export class JobRunner implements BackgroundLoop {
  readonly name: string;
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #workerId: string;
  readonly #handlers: Record<string, JobHandler>;
  readonly #queues: string[];
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #heartbeatMs: number;
  readonly #backoff: (attempt: number) => number;
  readonly #logger: JobLogger;
  #loop: Promise<void> | undefined;
  #stopping = false;
  #wake: (() => void) | undefined;

  constructor(options: JobRunnerOptions) {
    this.#queues = Object.keys(options.handlers);
    if (this.#queues.length === 0) throw new Error('JobRunner needs at least one handler');
    this.#db = options.db;
    this.#clock = options.clock;
    this.#workerId = options.workerId;
    this.#handlers = options.handlers;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 500;
    this.#heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(this.#leaseMs / 3));
    this.#backoff = options.backoff ?? defaultBackoff;
    this.#logger = options.logger ?? silent;
    this.name = options.name ?? `jobs(${this.#queues.join(',')})`;
  }

  async start(): Promise<void> {
    if (this.#loop !== undefined) return;
    this.#stopping = false;
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
  }

  /** Ends the idle pause now: a caller that just queued work spares it the poll interval. */
  wake(): void {
    this.#wake?.();
  }

  /**
   * Claims one due job and runs it to its outcome. False when nothing was due. For tests and
   * one-shot callers; do not call it while the loop runs. Database errors propagate.
   */
  async runOnce(): Promise<boolean> {
    const job = await claimJob(this.#db, {
      queues: this.#queues,
      workerId: this.#workerId,
      leaseMs: this.#leaseMs,
      now: this.#clock.now(),
    });
    if (job === undefined) return false;
    await this.#execute(job);
    return true;
  }

  /** Runs jobs until none is due at the clock's current time; returns how many ran. */
  async drain(): Promise<number> {
    let count = 0;
    while (await this.runOnce()) count += 1;
    return count;
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#stopping) {
      let worked = false;
      let pauseMs = this.#pollMs;
      try {
        worked = await this.runOnce();
        failures = 0;
      } catch (error) {
        // Most likely the database is away (restart, failover); the loop must outlive it, and
        // ask less often the longer it lasts, so a fleet of workers does not hammer a database
        // that is coming back. wake() still ends the pause early.
        failures += 1;
        pauseMs = backoffPause(this.#pollMs, failures);
        // An outage is expected now and then (a warning); anything else is a bug to look at.
        const log = isDatabaseUnavailable(error) ? this.#logger.warn : this.#logger.error;
        log.call(
          this.#logger,
          { err: error, worker: this.#workerId, failures, retryInMs: pauseMs },
          'job worker: database error, waiting',
        );
      }
      if (!worked && !this.#stopping) await this.#sleep(pauseMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  async #execute(job: JobRow): Promise<void> {
    const log = { job: job.id, queue: job.queue, attempt: job.attempts, worker: this.#workerId };
    const handler = this.#handlers[job.queue];
    const lost = new AbortController();
    const heartbeat = this.#startHeartbeat(job, lost, log);
    let failure: { error: unknown } | undefined;
    try {
      if (handler === undefined) throw new Error(`no handler for queue ${job.queue}`);
      await handler(job, { signal: lost.signal });
    } catch (error) {
      failure = { error };
    } finally {
      await heartbeat.stop();
    }

    const now = this.#clock.now();
    let settled: boolean;
    if (failure === undefined) {
      settled = await completeJob(this.#db, job);
    } else if (isDatabaseUnavailable(failure.error)) {
      // The database went away under the job: not the job's failure, so the attempt is given
      // back (else an outage during a last attempt would fail the job for good). The database
      // may still be away: the release is retried, with the loop's pauses, until it answers or
      // the worker stops (then the lease runs out and another worker takes the job).
      const delayMs = this.#backoff(job.attempts);
      this.#logger.warn(
        { ...log, err: failure.error, delayMs },
        'job interrupted by a database outage, will run again',
      );
      const error = failure.error;
      settled = await this.#whileDatabaseAway(() =>
        retryJob(this.#db, job, error, delayMs, this.#clock.now(), { refundAttempt: true }),
      );
    } else if (job.attempts >= job.max_attempts) {
      this.#logger.error({ ...log, err: failure.error }, 'job failed on its last attempt');
      settled = await failJob(this.#db, job, failure.error, now);
    } else {
      const delayMs = this.#backoff(job.attempts);
      this.#logger.warn({ ...log, err: failure.error, delayMs }, 'job failed, will retry');
      settled = await retryJob(this.#db, job, failure.error, delayMs, now);
    }
    if (!settled) this.#logger.warn(log, 'job lease was lost: another worker owns it now, outcome dropped');
  }

  /** Runs `write` until the database answers it; other errors, and a stopping worker, end the tries. */
  async #whileDatabaseAway<T>(write: () => Promise<T>): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        return await write();
      } catch (error) {
        if (this.#stopping || !isDatabaseUnavailable(error)) throw error;
        await this.#sleep(backoffPause(this.#pollMs, failures));
      }
    }
  }

  #startHeartbeat(job: JobRow, lost: AbortController, log: object): { stop(): Promise<void> } {
    let beating: Promise<void> | undefined;
    const beat = async () => {
      try {
        if (!(await extendLease(this.#db, job, this.#leaseMs, this.#clock.now()))) {
          this.#logger.warn(log, 'job lease was lost during the run');
          lost.abort(new Error('job lease lost'));
          clearInterval(timer);
        }
      } catch (error) {
        // A missed beat is not fatal: the lease allows for two more before it runs out.
        this.#logger.warn({ ...log, err: error }, 'job heartbeat failed');
      }
    };
    const timer = setInterval(() => {
      // One beat at a time: a slow database must not pile them up.
      if (beating === undefined) beating = beat().finally(() => (beating = undefined));
    }, this.#heartbeatMs);
    // The handler's own work keeps the process alive; a heartbeat alone must not.
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await beating;
      },
    };
  }
}
