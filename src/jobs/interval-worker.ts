import type { JobLogger } from './job-worker.js';
import type { Worker } from './worker.js';

/**
 * Runs a housekeeping task every `everyMs` (deadline sweeps, pruning). Every instance may run it:
 * the tasks are idempotent conditional updates, so doing one twice is harmless. stop() waits for
 * a run under way.
 */
export class IntervalWorker implements Worker {
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

  #schedule() {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#task()
        .catch((error: unknown) => this.#logger?.error({ err: error, worker: this.name }, 'periodic task failed'))
        .finally(() => {
          this.#running = undefined;
          this.#schedule();
        });
    }, this.#everyMs);
  }
}
