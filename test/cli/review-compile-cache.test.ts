import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIo, type TempRepo } from './review-fixtures.js';
import { repo, useReviewHarness } from './review-harness.js';

useReviewHarness();

describe('redline review keeps the compile verdicts in the user cache directory', () => {
  let r: TempRepo;
  let cacheHome: string;
  beforeAll(async () => {
    r = await repo();
    await r.write('README.md', '# demo\n');
    await r.git('add', '-A');
    await r.git('commit', '-q', '-m', 'base');
    await r.write('src/ping.go', 'package ping\n\nfunc Ping() string {\n\treturn "pong"\n}\n');
    cacheHome = await mkdtemp(path.join(os.tmpdir(), 'redline-cache-'));
  });
  afterAll(() => rm(cacheHome, { recursive: true, force: true }));

  const cacheFile = async () => {
    const names = await readdir(path.join(cacheHome, 'redline'));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^ast-grep-compiles-[0-9a-f]{16}\.json$/);
    return path.join(cacheHome, 'redline', names[0] as string);
  };

  it('writes what the run learned, a verdict per query, under $XDG_CACHE_HOME/redline', async () => {
    const io = captureIo();
    expect(await main(['review', '-C', r.dir], { XDG_CACHE_HOME: cacheHome }, io)).toBe(0);
    const verdicts = JSON.parse(await readFile(await cacheFile(), 'utf8')) as Record<string, unknown>;
    const entries = Object.entries(verdicts);
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.every(([key, ok]) => /^[0-9a-f]{32}$/.test(key) && typeof ok === 'boolean')).toBe(true);
  });

  it('takes a file it cannot read as an empty cache, and the review is the same', async () => {
    const file = await cacheFile();
    await writeFile(file, '{ not json');
    const io = captureIo();
    expect(await main(['review', '--format', 'json', '-C', r.dir], { XDG_CACHE_HOME: cacheHome }, io)).toBe(0);
    expect(JSON.parse(io.stdout())).toMatchObject({ stats: { files_changed: 1 } });
  });
});
