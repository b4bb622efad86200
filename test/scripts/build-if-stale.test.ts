import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/build-if-stale.mjs');

// A stand-in project: its build writes build/bundle/main.js and counts its runs in builds.log, or
// fails while fail.flag exists. The script under test is the real one, copied in.
const BUILD = [
  "const fs = require('node:fs');",
  "if (fs.existsSync('fail.flag')) process.exit(3);",
  "fs.mkdirSync('build/bundle', { recursive: true });",
  "fs.writeFileSync('build/bundle/main.js', '');",
  "fs.appendFileSync('builds.log', 'built\\n');",
].join(' ');

describe('scripts/build-if-stale.mjs', () => {
  let dir: string;
  const builds = async () =>
    (await readFile(path.join(dir, 'builds.log'), 'utf8').catch(() => '')).split('\n').length - 1;
  const buildIfStale = () => run(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs')], { cwd: dir });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'redline-stale-'));
    await mkdir(path.join(dir, 'scripts'));
    await mkdir(path.join(dir, 'src', 'cli'), { recursive: true });
    await copyFile(SCRIPT, path.join(dir, 'scripts', 'build-if-stale.mjs'));
    await writeFile(path.join(dir, 'src', 'cli', 'main.ts'), 'export const a = 1;\n');
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'stale-check', private: true, scripts: { build: `node -e "${BUILD}"` } }),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('builds a fresh checkout, then not again while nothing changed', async () => {
    await buildIfStale();
    await buildIfStale();
    expect(await builds()).toBe(1);
  });

  it('builds again when a source changes, and only then', async () => {
    await writeFile(path.join(dir, 'src', 'cli', 'main.ts'), 'export const a = 2;\n');
    await buildIfStale();
    await buildIfStale();
    expect(await builds()).toBe(2);
  });

  it('keeps no stamp after a failed build, so the next start tries again', async () => {
    await writeFile(path.join(dir, 'src', 'cli', 'extra.ts'), 'export const b = 1;\n');
    await writeFile(path.join(dir, 'fail.flag'), '');
    await expect(buildIfStale()).rejects.toMatchObject({ code: 3 });
    await rm(path.join(dir, 'fail.flag'));
    await buildIfStale();
    expect(await builds()).toBe(3);
  });

  it('builds when the output is gone even if the stamp matches', async () => {
    await rm(path.join(dir, 'build', 'bundle', 'main.js'));
    await buildIfStale();
    expect(await builds()).toBe(4);
  });
});
