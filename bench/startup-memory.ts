/**
 * bench/startup-memory: how long `redline serve` takes to answer /readyz, and how much memory it
 * holds idle, on PGlite and on PostgreSQL.
 *
 *   npm run bench:startup-memory [-- --db pglite|postgres|both] [-- --starts N] [-- --idle S]
 *                                [-- --root DIR] [-- --json]
 *
 * For each database, a fresh one (an empty PGlite data directory; a new PostgreSQL database on
 * BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test, dropped afterwards):
 * the first start is cold (PGlite runs initdb; migrations run), the next `--starts - 1` are
 * warm (what a restart costs). Each start is `node bin/redline.js serve` as in production, timed
 * from spawn to the first 200 of /readyz, then left idle `--idle` seconds (default 3): its VmRSS
 * then and its VmHWM (the peak since it started), from /proc. Baseline in the same run: a bare
 * fastify server (bench/api/bare-server.ts), started and measured the same way.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase } from './api/bench-database.js';
import { freePort } from './api/free-port.js';
import { machineLoad } from './api/machine-load.js';
import { type BenchOptions, hasBuild, parseBenchArgs, ROOT } from './api/parse-args.js';
import { processMemory } from './api/process-memory.js';
import { spawnServer } from './api/spawn-server.js';

interface Options extends BenchOptions {
  starts: number;
  idleSeconds: number;
}

function parseArgs(argv: string[]): Options {
  const defaults: Options = { databases: ['pglite', 'postgres'], starts: 3, idleSeconds: 3, root: ROOT, json: false };
  return parseBenchArgs(argv, defaults, (flag, value, options) => {
    const n = Number(value);
    if (flag === '--starts' && Number.isInteger(n) && n > 0) options.starts = n;
    else if (flag === '--idle' && Number.isInteger(n) && n > 0) options.idleSeconds = n;
    else return false;
    return true;
  });
}

interface Start {
  server: string;
  kind: 'cold' | 'warm';
  startupMs: number;
  idleRssMib: number;
  peakRssMib: number;
}

async function measureStart(
  server: string,
  kind: Start['kind'],
  args: string[],
  env: Record<string, string | undefined>,
  logFile: string,
  idleSeconds: number,
): Promise<Start> {
  const port = await freePort();
  const spawned = await spawnServer({
    args,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', ...env },
    readyUrl: `http://127.0.0.1:${port}/readyz`,
    logFile,
  });
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const memory = processMemory(spawned.pid);
  const code = await spawned.stop();
  if (code !== 0) throw new Error(`${server} stopped with exit code ${code}; see ${logFile}`);
  return {
    server,
    kind,
    startupMs: spawned.startupMs,
    idleRssMib: memory?.rssMib ?? 0,
    peakRssMib: memory?.hwmMib ?? 0,
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!hasBuild(options.root)) return;
  if (!options.json) console.log(`startup and memory: ${machineLoad()}`);
  const workDir = mkdtempSync(join(tmpdir(), 'redline-bench-start-'));
  const starts: Start[] = [];
  const report = (start: Start) => {
    starts.push(start);
    if (options.json) return;
    console.log(
      `  ${start.server.padEnd(10)} ${start.kind}: ready in ${String(start.startupMs).padStart(5)} ms; idle RSS ${start.idleRssMib} MiB, peak ${start.peakRssMib} MiB`,
    );
  };
  try {
    const bodies = join(workDir, 'bodies.json');
    writeFileSync(bodies, JSON.stringify({ get: {}, post: {} }));
    for (let i = 0; i < options.starts; i += 1) {
      report(
        await measureStart(
          'bare',
          i === 0 ? 'cold' : 'warm',
          [join(ROOT, 'build-bench/bench/api/bare-server.js')],
          { BARE_BODIES: bodies },
          join(workDir, 'bare.log'),
          options.idleSeconds,
        ),
      );
    }
    for (const kind of options.databases) {
      const database = await createBenchDatabase(kind, workDir);
      try {
        for (let i = 0; i < options.starts; i += 1) {
          report(
            await measureStart(
              kind,
              i === 0 ? 'cold' : 'warm',
              [join(options.root, 'bin/redline.js'), 'serve'],
              database.env,
              join(workDir, `redline-${kind}.log`),
              options.idleSeconds,
            ),
          );
        }
      } finally {
        await database.drop();
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  if (options.json) console.log(JSON.stringify({ machine: machineLoad(), options, starts }, null, 2));
  else console.log(`  load average at the end: ${machineLoad()}`);
}

await main();
