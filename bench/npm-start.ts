/**
 * bench/npm-start: how long `npm start` takes to answer /readyz when nothing changed since the
 * last start (the build is skipped: scripts/build-if-stale.mjs), on the embedded database.
 *
 *   npm run bench:npm-start [-- --starts N] [-- --json]
 *
 * In a fresh PGlite data directory: one `npm start` first, unmeasured (it builds if the sources
 * changed, and PGlite runs initdb and the migrations), then `--starts` (default 3) measured
 * `npm start`s, each timed from spawn to the first 200 of /readyz and stopped with SIGTERM to its
 * process group (npm does not pass the signal on to the server it starts). Baseline in the same run, alternating with them: the server alone,
 * `node bin/redline.js serve` on the same data directory, which is what `npm start` runs after
 * its prestart.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './api/free-port.js';
import { machineLoad } from './api/machine-load.js';
import { parseCountArgs, ROOT } from './api/parse-args.js';
import { spawnServer } from './api/spawn-server.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Spawn to the first 200 of /readyz, then a clean stop. `viaNpm`: npm ends by the signal itself. */
async function startOnce(args: string[], dataDir: string, logFile: string, viaNpm: boolean): Promise<number> {
  const port = await freePort();
  const server = await spawnServer({
    args,
    cwd: ROOT,
    group: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    readyUrl: `http://127.0.0.1:${port}/readyz`,
    logFile,
    timeoutMs: 180_000,
  });
  const code = await server.stop();
  // npm itself ends by the signal the group got (no exit code); the server drains and exits 0.
  const stopped = code === 0 || (code === null && viaNpm);
  if (!stopped) throw new Error(`${args.join(' ')} stopped with exit code ${code}; see ${logFile}`);
  return server.startupMs;
}

async function main() {
  const { count: starts, json } = parseCountArgs(process.argv.slice(2), 'starts', 3);
  const options = { starts, json };
  const npmCli = process.env.npm_execpath;
  if (!npmCli) throw new Error('run it through npm (npm run bench:npm-start): npm_execpath names the npm to start');
  const workDir = mkdtempSync(join(tmpdir(), 'redline-bench-npm-start-'));
  const dataDir = join(workDir, 'data');
  const log = join(workDir, 'server.log');
  const npmStart = [npmCli, 'start'];
  const serve = [join(ROOT, 'bin/redline.js'), 'serve'];
  try {
    if (!options.json) console.log(`npm start, second and later starts: ${machineLoad()}`);
    const first = await startOnce(npmStart, dataDir, log, true);
    if (!options.json) console.log(`  first npm start (unmeasured: build if stale, initdb): ${first} ms`);
    const npm: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < options.starts; i += 1) {
      npm.push(await startOnce(npmStart, dataDir, log, true));
      bare.push(await startOnce(serve, dataDir, log, false));
      if (!options.json) console.log(`  round ${i + 1}: npm start ${npm[i]} ms, the server alone ${bare[i]} ms`);
    }
    const result = { npmStartMs: median(npm), serveMs: median(bare), machine: machineLoad() };
    if (options.json) console.log(JSON.stringify({ ...result, npm, bare }, null, 2));
    else {
      console.log(
        `  median: npm start ${result.npmStartMs} ms to /readyz, the server alone ${result.serveMs} ms (npm and the staleness check: ${result.npmStartMs - result.serveMs} ms)`,
      );
      console.log(`  load average at the end: ${machineLoad()}`);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
