/**
 * Something a worker process runs in the background (a job runner, a periodic task) that serve
 * starts and stops.
 */
export interface BackgroundLoop {
  name: string;
  start(): Promise<void>;
  /** Stops taking work and resolves once the work in flight has finished. */
  stop(): Promise<void>;
  /** Ends an idle pause early, when work was just queued in this process. */
  wake?(): void;
}
