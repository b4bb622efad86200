import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/db/database.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface BenchDatabase {
  kind: DatabaseKind;
  /** PostgreSQL's database name (its backends' process titles carry it); none for PGlite. */
  name: string | undefined;
  /** How the bench itself opens it (seeding, reading counters) while the server is stopped. */
  target: DatabaseTarget;
  /** What the server's environment needs to use it. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A database of the run's own: a fresh PGlite data directory under `workDir`, or a new database
 * on the PostgreSQL server of `adminUrl` (default BENCH_POSTGRES_URL, else the local test server;
 * created here, dropped by drop()), so nothing another run or test left behind changes the figures.
 */
export async function createBenchDatabase(
  kind: DatabaseKind,
  workDir: string,
  adminUrl: string = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dataDir = join(workDir, 'pglite-data');
    return { kind, name: undefined, target: { dataDir }, env: { DATA_DIR: dataDir }, drop: async () => {} };
  }
  const name = `redline_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    name,
    target: { url: url.toString() },
    env: {
      DATABASE_URL: url.toString(),
      DATA_DIR: join(workDir, 'postgres-data'),
      JWT_SECRET: randomBytes(48).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
