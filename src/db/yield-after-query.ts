import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  UnknownRow,
} from 'kysely';

/**
 * A Kysely plugin that lets the event loop take a turn (setImmediate) after every statement, for
 * the embedded database only. PGlite runs inside this process and its node-postgres shim answers
 * through promise callbacks, never through I/O: while statements are queued (the workers' jobs,
 * other requests) each one starts in the callbacks of the last, and the whole queue runs as one
 * unbroken chain of microtasks. Sockets are not read until it ends. Under 50 connections of
 * POST /v1/reviews the event loop stalled for up to a second at a time, and requests waited
 * seconds before they were even read (client p99 5.3-6.4 s while no request took over 133 ms
 * once read). A turn after each statement lets incoming requests, timers and health checks in
 * between statements (bench/README, "The embedded database and the event loop").
 *
 * Not for PostgreSQL: there every answer already arrives as socket I/O, in its own turn.
 */
export const yieldAfterQuery: KyselyPlugin = {
  transformQuery: (args: PluginTransformQueryArgs) => args.node,
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return args.result;
  },
};
