import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  UnknownRow,
} from 'kysely';
import { EVENT_LOOP_TURN_BUDGET_MS, turnBudget } from '../common/turn-budget.js';

/**
 * A Kysely plugin for the embedded database only: after each statement, a turnBudget pause, so
 * statements that have kept the event loop from a turn for over `budgetMs` wait for one. PGlite
 * runs inside this process and its node-postgres shim answers through promise callbacks, never
 * through I/O: while statements are queued (the workers' jobs, other requests) each one starts in
 * the callbacks of the last, and the whole queue runs as one unbroken chain of microtasks.
 * Sockets are not read until it ends. Under 50 connections of POST /v1/reviews the event loop
 * stalled for up to a second at a time, and requests waited seconds before they were even read
 * (client p99 5.3-6.4 s while no request took over 133 ms once read).
 *
 * Kysely calls a plugin's transformResult only for a statement that succeeded: a run of failing
 * statements does not pause (none is long: each fails at once).
 *
 * Only when the budget is spent: a turn after every statement fixed that too, but split a GET
 * burst's work into more, smaller batches and cost PGlite GET a fifth of its throughput
 * (bench/README, "The embedded database and the event loop"). Not for PostgreSQL: there every
 * answer arrives as socket I/O, in a turn of its own.
 */
export function yieldAfterQuery(budgetMs = EVENT_LOOP_TURN_BUDGET_MS): KyselyPlugin {
  const pause = turnBudget(budgetMs);
  return {
    transformQuery: (args: PluginTransformQueryArgs) => args.node,
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      await pause();
      return args.result;
    },
  };
}
