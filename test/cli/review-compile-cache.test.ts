import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIo, type TempRepo } from './review-fixtures.js';
import { repo, useReviewHarness } from './review-harness.js';

useReviewHarness();

describe('redline review keeps compile verdicts and rule libraries in the user cache directory', () => {
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
    const names = (await readdir(path.join(cacheHome, 'redline'))).filter((n) => n !== 'rule-libraries');
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

  const libraryFiles = async () => {
    const dir = path.join(cacheHome, 'redline', 'rule-libraries');
    return (await readdir(dir)).map((n) => path.join(dir, n));
  };

  it('keeps the Go rule library it prepared, and reads it on the next run', async () => {
    const files = await libraryFiles();
    // One library per (language, ASCII flag) the runs needed: the Go file is ASCII.
    expect(files).toHaveLength(1);
    expect((files[0] as string).endsWith('.json')).toBe(true);
    const kept = JSON.parse(await readFile(files[0] as string, 'utf8')) as { plans: [number, { mode: string }][] };
    expect(kept.plans.length).toBeGreaterThan(20);
    // A library that runs no rule, kept under the same name, is what the next run uses.
    await r.write(
      'src/ping.go',
      'package ping\n\nimport "os/exec"\n\nfunc Run(name string) error {\n\treturn exec.Command("sh", "-c", "ls "+name).Run()\n}\n',
    );
    const before = captureIo();
    await main(['review', '--format', 'json', '-C', r.dir], { XDG_CACHE_HOME: cacheHome }, before);
    const rules = (out: string) =>
      (JSON.parse(out) as { comments: { rule_id: string }[] }).comments.map((c) => c.rule_id);
    expect(rules(before.stdout())).toEqual(['go.command-injection']);
    await writeFile(
      files[0] as string,
      JSON.stringify({ ...kept, plans: kept.plans.map(([i]) => [i, { mode: 'never' }]) }),
    );
    const after = captureIo();
    await main(['review', '--format', 'json', '-C', r.dir], { XDG_CACHE_HOME: cacheHome }, after);
    expect(rules(after.stdout())).toEqual([]);
  });

  it('prepares the library again when its file is damaged, and the review is the same', async () => {
    const [file] = await libraryFiles();
    await writeFile(file as string, '{"plans": 3}');
    const io = captureIo();
    await main(['review', '--format', 'json', '-C', r.dir], { XDG_CACHE_HOME: cacheHome }, io);
    expect((JSON.parse(io.stdout()) as { comments: { rule_id: string }[] }).comments.map((c) => c.rule_id)).toEqual([
      'go.command-injection',
    ]);
    const rewritten = JSON.parse(await readFile(file as string, 'utf8')) as { plans: unknown[] };
    expect(rewritten.plans.length).toBeGreaterThan(20);
  });
});
