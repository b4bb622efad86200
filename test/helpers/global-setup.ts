import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL mode: the admin URL and the migrated template database each test file copies. */
    pgAdminUrl: string | null;
    pgTemplate: string | null;
    pgRunPrefix: string | null;
    /** Embedded mode: a migrated PGlite data directory dump each test file boots from. */
    pgliteSnapshot: string | null;
  }
}

/**
 * Runs once per test run. With DATABASE_URL it migrates a template database of this run's own
 * on that server (every file then copies it, and everything is dropped at the end); without it,
 * it migrates an in-memory PGlite once and dumps it, so files boot in half a second, not four.
 */
export default async function setup(project: TestProject) {
  // Tests that run `bin/redline.js` in a child process need the compiled and bundled build/ of these sources;
  // compiling once here keeps test files from racing each other to write it.
  // REDLINE_TEST_SKIP_BUILD=1 skips it for a quick run of tests that spawn nothing.
  if (process.env.REDLINE_TEST_SKIP_BUILD !== '1') {
    await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']);
    // bin/redline.js runs the bundle of the same sources (scripts/build-cli.mjs).
    await promisify(execFile)(process.execPath, ['scripts/build-cli.mjs']);
  }
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const prefix = `redline_t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const template = `${prefix}_tpl`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const handle = await openDatabase({ url: url.toString(), poolSize: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    project.provide('pgAdminUrl', adminUrl);
    project.provide('pgTemplate', template);
    project.provide('pgRunPrefix', prefix);
    project.provide('pgliteSnapshot', null);
    return async () => {
      const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [
        `${prefix}%`,
      ]);
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }

  const dir = await mkdtemp(path.join(os.tmpdir(), 'redline-test-'));
  const lite = new PGlite();
  const handle = await openDatabase({ pglite: lite });
  await migrateToLatest(handle.db);
  await handle.close();
  const dump = await lite.dumpDataDir('none');
  await lite.close();
  const file = path.join(dir, 'snapshot.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgAdminUrl', null);
  project.provide('pgTemplate', null);
  project.provide('pgRunPrefix', null);
  project.provide('pgliteSnapshot', file);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
