import { backoffPause } from '../common/backoff-pause.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import type { BackgroundLoop } from './background-loop.js';
import type { JobLogger } from './job-runner.js';

/**
 * Runs a housekeeping task every `everyMs` (deadline sweeps, pruning). Every instance may run it:
 * the tasks are idempotent conditional updates, so doing one twice is harmless. A failed run
 * (usually the database away) is logged and the next one waits longer, as JobRunner's polls do.
 * stop() waits for a run under way.
 */
export class PeriodicTask implements BackgroundLoop {
  readonly name: string;
  readonly #task: () => Promise<void>;
  readonly #everyMs: number;
  readonly #logger: JobLogger | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;

  constructor(options: { name: string; everyMs: number; task: () => Promise<void>; logger?: JobLogger }) {
    this.name = options.name;
    this.#task = options.task;
    this.#everyMs = options.everyMs;
    this.#logger = options.logger;
  }

  async start(): Promise<void> {
    this.#stopped = false;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(failures = 0) {
    if (this.#stopped) return;
    const delayMs = failures === 0 ? this.#everyMs : backoffPause(this.#everyMs, failures);
    this.#timer = setTimeout(() => {
      let failed = false;
      this.#running = this.#task()
        .catch((error: unknown) => {
          failed = true;
          const details = { err: error, worker: this.name, failures: failures + 1 };
          if (isDatabaseUnavailable(error)) this.#logger?.warn(details, 'periodic task failed: database unavailable');
          else this.#logger?.error(details, 'periodic task failed');
        })
        .finally(() => {
          this.#running = undefined;
          this.#schedule(failed ? failures + 1 : 0);
        });
    }, delayMs);
  }
}
