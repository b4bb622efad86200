import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { lockDataDir } from '../../src/db/data-dir-lock.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { itOnPostgres } from '../helpers/postgres-only.js';

// The database layer: migrations are idempotent and safe to start from several processes at once
// (PostgreSQL), and the embedded data directory is held by one process at a time.

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A database with nothing in it: a new one on the PostgreSQL server, or a new in-memory PGlite. */
async function emptyDatabase(): Promise<{ open: () => Promise<DatabaseHandle> }> {
  const adminUrl = inject('pgAdminUrl');
  const prefix = inject('pgRunPrefix');
  if (adminUrl && prefix) {
    // Named with the run's prefix, so the global teardown drops it even if this file fails.
    const name = `${prefix}_empty_${randomBytes(4).toString('hex')}`;
    await withAdmin(adminUrl, (admin) => admin.query(`create database ${name}`));
    cleanups.push(() => withAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`)));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { open: () => openDatabase({ url: url.toString(), poolSize: 2 }) };
  }
  const lite = new PGlite();
  cleanups.push(() => lite.close());
  return { open: () => openDatabase({ pglite: lite }) };
}

async function withAdmin<T>(url: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const recorded = async (handle: DatabaseHandle) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db)).rows.map(
    (r) => r.name,
  );

/** Migration names as the files in src/db/migrations give them. */
async function migrationFiles(): Promise<string[]> {
  const dir = path.resolve(import.meta.dirname, '../../src/db/migrations');
  return (await readdir(dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redline-db-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('migrateToLatest', () => {
  it('applies the migrations on an empty database; a second run is harmless and returns []', async () => {
    const { open } = await emptyDatabase();
    const handle = await open();
    try {
      const applied = await migrateToLatest(handle.db);
      expect(applied[0]).toBe('0001-accounts');
      expect(applied).toEqual(await recorded(handle));
      expect(await migrateToLatest(handle.db)).toEqual([]);
      expect(await recorded(handle)).toEqual(applied);
    } finally {
      await handle.close();
    }
  });

  it('registers every file in src/db/migrations', async () => {
    // A migration file that is not listed in migrate.ts would silently never run.
    const { open } = await emptyDatabase();
    const handle = await open();
    try {
      expect(await migrateToLatest(handle.db)).toEqual(await migrationFiles());
    } finally {
      await handle.close();
    }
  });

  itOnPostgres('runs once when several processes migrate a fresh database at once', async () => {
    const { open } = await emptyDatabase();
    // Separate pools stand for separate processes: each has its own connections and lock attempts.
    const handles = await Promise.all([open(), open(), open()]);
    try {
      // All three succeed (none rejects), and each migration is applied by exactly one of them.
      const results = await Promise.all(handles.map((h) => migrateToLatest(h.db)));
      const applied = results.flat().sort();
      expect(applied.length).toBeGreaterThan(0);
      expect(applied).toEqual(await recorded(handles[0] as DatabaseHandle));
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});

describe('the embedded data directory', () => {
  const lockFile = (dir: string) => path.join(dir, 'redline.pid');
  const inUse = (pid: number) => new RegExp(`is in use by process ${pid}\\b`);

  /** The pid of a process that has exited (a fresh child, waited for). */
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.on('exit', resolve));
    return child.pid as number;
  }

  it('refuses a second open of the same DATA_DIR while the first is open, and allows it after', async () => {
    const dir = await tempDir();
    const first = await openDatabase({ dataDir: dir });
    try {
      expect(await readFile(lockFile(dir), 'utf8')).toBe(String(process.pid));
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(inUse(process.pid));
      await migrateToLatest(first.db);
    } finally {
      await first.close();
    }
    await expect(stat(lockFile(dir))).rejects.toMatchObject({ code: 'ENOENT' });
    // The files persist: a reopened directory is already migrated.
    const again = await openDatabase({ dataDir: dir });
    try {
      expect(await migrateToLatest(again.db)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('refuses a directory locked by another live process, naming its pid', async () => {
    const dir = await tempDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await writeFile(lockFile(dir), String(other.pid));
      await expect(lockDataDir(dir)).rejects.toThrow(inUse(other.pid as number));
      // The refused attempt leaves the other process's lock alone.
      expect(await readFile(lockFile(dir), 'utf8')).toBe(String(other.pid));
    } finally {
      other.kill();
    }
  });

  it('takes over a stale lock left by a process that died', async () => {
    const dir = await tempDir();
    await writeFile(lockFile(dir), String(await deadPid()));
    const release = await lockDataDir(dir);
    expect(await readFile(lockFile(dir), 'utf8')).toBe(String(process.pid));
    await release();
    await expect(stat(lockFile(dir))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over a lock file that holds no pid', async () => {
    const dir = await tempDir();
    await writeFile(lockFile(dir), '');
    const release = await lockDataDir(dir);
    await release();
  });

  it('lets exactly one of two simultaneous locks in one process win', async () => {
    const dir = await tempDir();
    const outcomes = await Promise.allSettled([lockDataDir(dir), lockDataDir(dir)]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
      reason: { message: expect.stringMatching(inUse(process.pid)) },
    });
    await (won[0] as PromiseFulfilledResult<() => Promise<void>>).value();
  });
});
