import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { initializeEmbeddedCluster } from './initialize-embedded.js';
import { loadPGlite } from './load-pglite.js';
import { parseTimestamptz } from './parse-timestamptz.js';
import type { Database } from './schema.js';
import { yieldAfterQuery } from './yield-after-query.js';

// int8 (counts, GitHub ids) as JS numbers: every value we keep fits in 2^53, and PGlite's
// shim and node-postgres then agree on the type.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

export type Db = Kysely<Database>;

const preparedNames = new Map<string, string>();

/**
 * Marks a fixed SQL text (run with `db.executeQuery(CompiledQuery.raw(text, values))`) as a
 * server-side prepared statement: each connection parses and plans it once, then only binds
 * values. For the statements every request runs (authentication with its count and read along),
 * where parsing and planning were a large part of the database's work. Only fixed texts: the
 * query builder's texts vary (lists, optional filters) and would pile up statements per
 * connection.
 */
export function prepared(text: string): string {
  if (!preparedNames.has(text)) {
    preparedNames.set(text, `redline_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
  }
  return text;
}

type QueryFn = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Sends the texts marked by prepared() as named statements (node-postgres keeps them per connection). */
function usePreparedStatements(pool: pg.Pool) {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    (client as unknown as { query: QueryFn }).query = (config, values, callback) => {
      const name = typeof config === 'string' && callback === undefined ? preparedNames.get(config) : undefined;
      if (name !== undefined) return query({ name, text: config, values });
      return query(config, values, callback);
    };
  });
}

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'embedded';
  /**
   * How long a statement may wait for a connection (the pool's connect time-out), which the
   * shared statements also give a call waiting for its batch; undefined: no limit (embedded).
   */
  connectWaitMs?: number | undefined;
  /** Answers whether the database responds, within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * PGlite's settings beyond its defaults, for a smaller WebAssembly heap, which never shrinks.
 * shared_buffers: the 128 MB default is touched as the server warms up, and PostgreSQL touches
 * all of a smaller one at start-up; an embedded database is small and its files stay in the OS
 * page cache, so a small cache costs little. max_connections: PGlite has one session, and
 * PostgreSQL sizes its shared process and lock tables for the default 100 (bench/startup-memory
 * measures what each keeps resident).
 */
export const EMBEDDED_SETTINGS = ['shared_buffers=4MB', 'max_connections=5'];

const DEFAULT_TIMEOUTS = { connectMs: 5_000, queryMs: 30_000 };

export type DatabaseTarget =
  // queryMs 0: no query time-out (migrations).
  | { url: string; poolSize?: number; timeouts?: { connectMs: number; queryMs: number } }
  | { pglite: PGlite }
  | { dataDir: string };

/** node-postgres's words when a query got no answer within query_timeout. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * A connection whose query timed out still waits for that answer, and node-postgres would queue
 * the next query behind it: close its socket so the pool drops it (a connection that errors is
 * not queryable, and pg-pool removes such a client when it is released).
 */
function dropConnectionsThatTimedOut(pool: pg.Pool) {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    (client as unknown as { query: QueryFn }).query = (config, values, callback) => {
      const result = query(config, values, callback);
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) {
            (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
          }
          throw error;
        });
      }
      return result;
    };
  });
}

/**
 * One pg.Pool under Kysely, whatever the engine: real PostgreSQL, or PGlite speaking the same
 * protocol through its node-postgres shim. PGlite has one session, so its pool holds one
 * connection and everything, transactions included, queues behind it.
 */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  let pool: pg.Pool;
  let ownedLite: PGlite | undefined;
  let unlock: (() => Promise<void>) | undefined;
  // The pool's connect time-out, which the shared statements also give a call waiting for its batch.
  let connectWaitMs: number | undefined;
  if ('url' in target) {
    const timeouts = target.timeouts ?? DEFAULT_TIMEOUTS;
    connectWaitMs = timeouts.connectMs;
    pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      // Waiting for a new connection or for a free one in the pool: a 503 after this, not a hang.
      connectionTimeoutMillis: timeouts.connectMs,
      // A query with no answer (the server or the network hangs): rejected, its connection dropped.
      ...(timeouts.queryMs > 0 ? { query_timeout: timeouts.queryMs } : {}),
      // TCP keep-alive notices a peer that vanished (failover, partition) on idle connections.
      keepAlive: true,
    });
    dropConnectionsThatTimedOut(pool);
  } else {
    // Loaded only for the embedded database: a server on PostgreSQL never needs it.
    const { PGlite, createPgConfig } = await loadPGlite();
    let lite: PGlite;
    if ('pglite' in target) {
      lite = target.pglite;
    } else {
      unlock = await lockDataDir(target.dataDir);
      const dir = path.resolve(target.dataDir, 'pgdata');
      const startParams = [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting])];
      try {
        await initializeEmbeddedCluster(dir, startParams);
      } catch (error) {
        await unlock();
        throw error;
      }
      lite = new PGlite(dir, { startParams });
      ownedLite = lite;
    }
    pool = new pg.Pool({ ...createPgConfig(lite), max: 1 });
  }
  // A connection that dies (server restart, failover) must not take the process down. pg-pool
  // listens on idle clients only; a checked-out client (a transaction between two statements, or
  // the socket closing just after a query failed) emits 'error' with nobody listening, which
  // Node throws as an uncaught exception. The query in flight gets the error anyway, and the
  // pool drops the broken client when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  usePreparedStatements(pool);
  const embedded = !('url' in target);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: embedded ? [yieldAfterQuery()] : [],
  });
  let closed = false;
  return {
    db,
    kind: embedded ? 'embedded' : 'postgres',
    connectWaitMs,
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
