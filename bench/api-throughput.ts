/**
 * bench/api-throughput: the API's throughput, latency and memory under load, next to a bare
 * fastify route serving the same JSON.
 *
 *   npm run bench:api [-- --db pglite|postgres|both] [-- --seconds N] [-- --warmup N]
 *                     [-- --connections N] [-- --route get|post] [-- --cpu-prof DIR] [-- --log-level L]
 *                     [-- --node-flags "FLAGS"] [-- --rounds N] [-- --root DIR] [-- --json]
 *
 * For each database (a fresh PGlite data directory; a new database on BENCH_POSTGRES_URL,
 * default postgres://postgres@127.0.0.1:5432/test, created and dropped by the run):
 *
 * 1. One user per connection is made (enterprise plan, a svc_test_ key), then the real server
 *    is started as in production, `node bin/redline.js serve` (build/ from `npm run build`,
 *    LOG_LEVEL unset so `info`, stdout to a file, API and workers in one process), and timed
 *    from spawn to the first 200 of /readyz. Its RSS is read from /proc (VmRSS, VmHWM).
 * 2. Each user creates one test review of pull request #2 (completes with two comments); once
 *    they are completed, their bodies are what the bare route answers.
 * 3. GET /v1/reviews/:id, then POST /v1/reviews (test mode: no GitHub call, no quota), each
 *    with autocannon from this process: `--warmup` seconds unmeasured, then `--seconds`
 *    measured, 50 connections by default. Each measured run of the real server is preceded by
 *    the same run against the bare route (its own process, `bench/api/bare-server.ts`), so both
 *    see about the same machine load. `--rounds N` repeats the GET measurement (bare, floor,
 *    Redline) N times on the same server and prints the median share of the bare route: on a
 *    shared machine one run's share swings by half.
 * 4. After the server stops, the request-rate windows are read back: every request sent must
 *    have been counted exactly once (between the answers received and the requests written,
 *    the difference being those in flight when autocannon stopped), and the highest count of
 *    any user must be under the plan's 10,000 an hour, so no run was cut short by a 429.
 *
 * A measurement, not a test: exits 0 unless something could not run.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase } from './api/bench-database.js';
import { machineLoad } from './api/machine-load.js';
import { measureBenchDatabase } from './api/measure-database.js';
import { hasBuild } from './api/parse-args.js';
import { spawnBare } from './api/spawn-bare.js';
import type { SpawnedServer } from './api/spawn-server.js';
import { type DatabaseFigures, printFigures } from './api/throughput-figures.js';
import { parseThroughputArgs } from './api/throughput-options.js';

async function main() {
  const options = parseThroughputArgs(process.argv.slice(2));
  if (!hasBuild(options.root)) return;
  console.log(`api throughput: ${machineLoad()}`);
  const workDir = mkdtempSync(join(tmpdir(), 'redline-bench-api-'));
  const bodies: { get?: unknown; post?: unknown } = {};
  let bareServer: (SpawnedServer & { url: string }) | undefined;
  const bare = async () => {
    bareServer ??= await spawnBare(workDir, bodies, 'bare');
    return bareServer;
  };

  const results: DatabaseFigures[] = [];
  try {
    for (const kind of options.databases) {
      const database = await createBenchDatabase(kind, workDir);
      try {
        const figures = await measureBenchDatabase(database, options, workDir, bare, bodies);
        results.push(figures);
        if (!options.json) printFigures(figures, options);
      } finally {
        await database.drop();
      }
    }
  } finally {
    await (bareServer as SpawnedServer | undefined)?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  if (options.json) console.log(JSON.stringify({ machine: machineLoad(), options, results }, null, 2));
  else console.log(`\n  load average at the end: ${machineLoad()}`);
}

await main();
