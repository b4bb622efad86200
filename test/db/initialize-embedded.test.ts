import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { initializeEmbeddedCluster } from '../../src/db/initialize-embedded.js';

describe('the embedded cluster, created in a child process', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'redline-init-embedded-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const params = [...PGlite.defaultStartParams];

  it('creates the cluster, which openDatabase then opens as an existing one', async () => {
    // openDatabase keeps its cluster in <dataDir>/pgdata.
    const dir = path.join(root, 'server', 'pgdata');
    await initializeEmbeddedCluster(dir, params);
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    const database = await openDatabase({ dataDir: path.join(root, 'server') });
    try {
      const { rows } = await sql<{ answer: number }>`select 6 * 7 as answer`.execute(database.db);
      expect(rows).toEqual([{ answer: 42 }]);
      // It runs with the embedded settings (a smaller cache and fewer connections than PGlite's).
      const settings = await sql<{ shared_buffers: string; max_connections: string }>`
        select current_setting('shared_buffers') as shared_buffers, current_setting('max_connections') as max_connections`.execute(
        database.db,
      );
      expect(settings.rows).toEqual([{ shared_buffers: '4MB', max_connections: '5' }]);
    } finally {
      await database.close();
    }
  });

  it('says which directory failed, in the words of the failure, without a stack', async () => {
    const dir = path.join(root, 'refused');
    const message = await initializeEmbeddedCluster(dir, [...params, '-c', 'shared_buffers=banana']).then(
      () => 'created',
      (error: Error) => error.message,
    );
    expect(message).toMatch(new RegExp(`^the embedded database could not be created or started in ${dir}: \\S`));
    expect(message).not.toMatch(/\n|\bat /);
  });

  it('starts nothing for a directory that already holds a cluster', async () => {
    // Parameters the child would fail on: no error means no child ran.
    await expect(
      initializeEmbeddedCluster(path.join(root, 'server', 'pgdata'), [...params, '-c', 'shared_buffers=banana']),
    ).resolves.toBeUndefined();
  });
});
