import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  UnknownRow,
} from 'kysely';

/** The longest the embedded database's statements may keep the event loop from a turn. */
export const EMBEDDED_TURN_BUDGET_MS = 10;

/**
 * A Kysely plugin for the embedded database only: when the statements answered since the event
 * loop's last turn have taken more than `budgetMs`, the caller waits for a turn (setImmediate)
 * before it goes on. PGlite runs
 * inside this process and its node-postgres shim answers through promise callbacks, never
 * through I/O: while statements are queued (the workers' jobs, other requests) each one starts in
 * the callbacks of the last, and the whole queue runs as one unbroken chain of microtasks.
 * Sockets are not read until it ends. Under 50 connections of POST /v1/reviews the event loop
 * stalled for up to a second at a time, and requests waited seconds before they were even read
 * (client p99 5.3-6.4 s while no request took over 133 ms once read).
 *
 * Only when the budget is spent: a turn after every statement fixed that too, but split a GET
 * burst's work into more, smaller batches and cost PGlite GET a fifth of its throughput
 * (bench/README, "The embedded database and the event loop"). Not for PostgreSQL: there every
 * answer arrives as socket I/O, in a turn of its own.
 */
export function yieldAfterQuery(budgetMs = EMBEDDED_TURN_BUDGET_MS): KyselyPlugin {
  // Set while statements answer with no turn of the event loop in between: a watcher, queued
  // for the loop's next check phase, clears it.
  let chainStartedAt: number | undefined;
  return {
    transformQuery: (args: PluginTransformQueryArgs) => args.node,
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const now = performance.now();
      if (chainStartedAt === undefined) {
        chainStartedAt = now;
        setImmediate(() => {
          chainStartedAt = undefined;
        });
      } else if (now - chainStartedAt > budgetMs) {
        // The watcher was queued first: by the time this resumes, it has ended the chain.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return args.result;
    },
  };
}
