import pino, { type Logger } from 'pino';
import { type Config, loadConfig } from '../config/config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import { migrateToLatest } from '../db/migrate.js';

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
}

export interface RuntimeOptions {
  /** Apply pending migrations on open (default true; `redline migrate` does it itself, to report). */
  migrate?: boolean;
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
  const logger = pino(
    { level: config.logLevel, base: { service: 'redline' } },
    pino.destination({ fd: options.logTo === 'stdout' ? 1 : 2, sync: true }),
  );
  const database = await openDatabase(
    config.databaseUrl !== undefined
      ? { url: config.databaseUrl, timeouts: config.databaseTimeouts }
      : { dataDir: config.dataDir },
  );
  if (options.migrate === false) return { config, database, logger };
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  } catch (error) {
    await database.close();
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
  return { config, database, logger };
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
