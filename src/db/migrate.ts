import { type Kysely, type Migration, type MigrationResultSet, Migrator } from 'kysely';
import * as accounts from './migrations/0001-accounts.js';
import * as requestRate from './migrations/0002-request-rate.js';
import * as reviews from './migrations/0003-reviews.js';
import * as webhooks from './migrations/0004-webhooks.js';
import * as githubApp from './migrations/0005-github-app.js';
import * as jobClaimIndex from './migrations/0006-job-claim-index.js';
import * as signInRate from './migrations/0007-sign-in-rate.js';
import * as dashboardSessions from './migrations/0008-dashboard-sessions.js';
import type { Database } from './schema.js';

/**
 * Migrations are imported, not read from a folder, so they travel with any bundle. Names sort
 * in the order they run. Kysely's migrator takes a PostgreSQL advisory lock, so two processes
 * starting at once apply each migration exactly once.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-request-rate': requestRate,
  '0003-reviews': reviews,
  '0004-webhooks': webhooks,
  '0005-github-app': githubApp,
  '0006-job-claim-index': jobClaimIndex,
  '0007-sign-in-rate': signInRate,
  '0008-dashboard-sessions': dashboardSessions,
};

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
