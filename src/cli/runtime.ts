import pino, { type Logger } from 'pino';
import { type Config, loadConfig } from '../config/config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
}

/** Configuration, logger and a migrated database: what every command that touches data needs. */
export async function openRuntime(env: Record<string, string | undefined>): Promise<Runtime> {
  const config = loadConfig(env);
  const logger = pino({ level: config.logLevel, base: { service: 'redline' } });
  const database = await openDatabase(
    config.databaseUrl !== undefined ? { url: config.databaseUrl } : { dataDir: config.dataDir },
  );
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  } catch (error) {
    await database.close();
    throw error;
  }
  return { config, database, logger };
}
