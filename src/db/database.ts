import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import type { Database } from './schema.js';

// int8 (counts, GitHub ids) as JS numbers: every value we keep fits in 2^53, and PGlite's
// shim and node-postgres then agree on the type.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'embedded';
  /** Answers whether the database responds, within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export type DatabaseTarget = { url: string; poolSize?: number } | { pglite: PGlite } | { dataDir: string };

/**
 * One pg.Pool under Kysely, whatever the engine: real PostgreSQL, or PGlite speaking the same
 * protocol through its node-postgres shim. PGlite has one session, so its pool holds one
 * connection and everything, transactions included, queues behind it.
 */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  let pool: pg.Pool;
  let ownedLite: PGlite | undefined;
  let unlock: (() => Promise<void>) | undefined;
  if ('url' in target) {
    pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
  } else {
    let lite: PGlite;
    if ('pglite' in target) {
      lite = target.pglite;
    } else {
      unlock = await lockDataDir(target.dataDir);
      const dir = path.resolve(target.dataDir, 'pgdata');
      await mkdir(dir, { recursive: true });
      lite = new PGlite(dir);
      ownedLite = lite;
    }
    pool = new pg.Pool({ ...createPgConfig(lite), max: 1 });
  }
  // An idle connection that dies (server restart) must not take the process down.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    kind: 'url' in target ? 'postgres' : 'embedded',
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const query = sql`select 1`.execute(db).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([query, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      await ownedLite?.close();
      await unlock?.();
    },
  };
}
