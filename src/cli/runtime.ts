import pino, { type Logger } from 'pino';
import { type Config, loadConfig } from '../config/config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import { migrateToLatest } from '../db/migrate.js';

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  /** The migrations this open applied (none when the database was up to date). */
  migrations: string[];
}

/** The most log output held while stdout or stderr is not taking it. */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

export interface RuntimeOptions {
  /**
   * Where logs go. Only `serve` logs to stdout; every other command keeps stdout for its answer
   * (`TOKEN=$(redline token create …)` must capture the token alone), so its logs go to stderr.
   */
  logTo?: 'stdout' | 'stderr';
}

/** Configuration, logger and a migrated database: what every command that touches data needs. */
export async function openRuntime(
  env: Record<string, string | undefined>,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const config = loadConfig(env);
  // Written asynchronously: lines logged while a write is out go together in the next one (a
  // synchronous write per request line was a visible part of a request's CPU), and pino writes
  // what is left synchronously when the process exits. If the output stalls, lines beyond
  // LOG_BUFFER_BYTES are dropped rather than held without bound (a synchronous write would
  // have stalled the server instead).
  const logger = pino(
    { level: config.logLevel, base: { service: 'redline' } },
    pino.destination({ fd: options.logTo === 'stdout' ? 1 : 2, sync: false, maxLength: LOG_BUFFER_BYTES }),
  );
  if (config.databaseUrl === undefined) {
    // Embedded: one handle (the data directory is locked to it), and no query time-out to mind.
    const database = await openDatabase({ dataDir: config.dataDir });
    try {
      return { config, database, logger, migrations: await migrate(database, logger) };
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  // A migration may run long (an index on a large table): on PostgreSQL it gets a connection of
  // its own without DATABASE_QUERY_TIMEOUT_MS, which bounds the serving pool's queries.
  const url = config.databaseUrl;
  const migrator = await openDatabase({ url, poolSize: 1, timeouts: { ...config.databaseTimeouts, queryMs: 0 } });
  let migrations: string[];
  try {
    migrations = await migrate(migrator, logger);
  } finally {
    await migrator.close();
  }
  const database = await openDatabase({ url, timeouts: config.databaseTimeouts });
  return { config, database, logger, migrations };
}

/** Applies pending migrations; a database that is away is said in words an operator can act on. */
async function migrate(database: DatabaseHandle, logger: Logger): Promise<string[]> {
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    return applied;
  } catch (error) {
    // The first query of a process is the migration: a database that is down is the likely
    // reason, and "Migration unknown failed" would send the operator looking at migrations.
    if (isDatabaseUnavailable(error)) {
      const reason = innermostMessage(error);
      throw new Error(`the database is not answering (${reason}); check DATABASE_URL and that it runs`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** The message of the deepest cause: the driver's own words (e.g. "connect ECONNREFUSED 127.0.0.1:5432"). */
function innermostMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown }).cause;
    const errors = (current as { errors?: unknown }).errors;
    const next = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
    if (next === undefined || next === null) break;
    current = next;
  }
  return current instanceof Error ? current.message || current.name : String(current);
}
