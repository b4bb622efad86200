import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';

export interface TestDatabase extends DatabaseHandle {
  /** PostgreSQL mode only: the URL of this file's own database (for a second app instance). */
  url: string | undefined;
}

/** A migrated database of this test file's own: a copy of the run's template on PostgreSQL, or a fresh PGlite. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('pgTemplate');
  const prefix = inject('pgRunPrefix');
  if (adminUrl && template && prefix) {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name} template ${template}`);
    } finally {
      await admin.end();
    }
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ url: url.toString(), poolSize: 5 });
    return {
      ...handle,
      url: url.toString(),
      async close() {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        try {
          await cleanup.query(`drop database if exists ${name} with (force)`);
        } finally {
          await cleanup.end();
        }
      },
    };
  }
  const snapshot = inject('pgliteSnapshot');
  if (!snapshot) throw new Error('global setup did not run');
  const lite = new PGlite({ loadDataDir: new Blob([await readFile(snapshot)]) });
  const handle = await openDatabase({ pglite: lite });
  return {
    ...handle,
    url: undefined,
    async close() {
      await handle.close();
      await lite.close();
    },
  };
}
