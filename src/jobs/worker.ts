/** A background loop (review processing, webhook delivery) that serve starts and stops. */
export interface Worker {
  name: string;
  start(): Promise<void>;
  /** Stops taking work and resolves once the work in flight has finished. */
  stop(): Promise<void>;
  /** Ends an idle pause early, when work was just queued in this process. */
  wake?(): void;
}
