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

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { REQUESTS_PER_HOUR } from '../src/limits/plans.js';
import { type BenchDatabase, createBenchDatabase, type DatabaseKind } from './api/bench-database.js';
import { freePort } from './api/free-port.js';
import { machineLoad } from './api/machine-load.js';
import { type BenchOptions, hasBuild, parseBenchArgs, ROOT } from './api/parse-args.js';
import { cpuMeter } from './api/process-cpu.js';
import { readRateCounters } from './api/rate-counters.js';
import { type RssWindow, sampleRss } from './api/rss-sampler.js';
import { type LoadFigures, type LoadRequest, runLoad } from './api/run-load.js';
import { seedUsers } from './api/seed-users.js';
import { type SpawnedServer, spawnServer } from './api/spawn-server.js';

interface Options extends BenchOptions {
  seconds: number;
  warmup: number;
  connections: number;
  routes: ('get' | 'post')[];
  cpuProf: string | undefined;
  logLevel: string | undefined;
  nodeFlags: string[];
  rounds: number;
}

function parseArgs(argv: string[]): Options {
  const defaults: Options = {
    databases: ['pglite', 'postgres'],
    seconds: 10,
    warmup: 3,
    connections: 50,
    routes: ['get', 'post'],
    root: ROOT,
    cpuProf: undefined,
    logLevel: undefined,
    nodeFlags: [],
    rounds: 1,
    json: false,
  };
  return parseBenchArgs(argv, defaults, (flag, value, options) => {
    const n = Number(value);
    if (flag === '--seconds' && Number.isInteger(n) && n > 0) options.seconds = n;
    else if (flag === '--warmup' && Number.isInteger(n) && n >= 0) options.warmup = n;
    else if (flag === '--connections' && Number.isInteger(n) && n > 0) options.connections = n;
    // Each round (with its warm-up) sends each user ~1,600 GETs; 5 stay inside the plan's 10,000 an hour.
    else if (flag === '--rounds' && Number.isInteger(n) && n > 0 && n <= 5) options.rounds = n;
    else if (flag === '--route' && (value === 'get' || value === 'post')) options.routes = [value];
    else if (flag === '--cpu-prof' && value !== undefined) options.cpuProf = resolve(value);
    else if (flag === '--log-level' && value !== undefined) options.logLevel = value;
    else if (flag === '--node-flags' && value !== undefined) options.nodeFlags = value.split(' ').filter(Boolean);
    else return false;
    return true;
  });
}

const PULL_REQUEST_URL = 'https://github.com/acme/shop/pull/2';

interface RouteFigures {
  bare: LoadFigures;
  /** GET on PostgreSQL only: the bare route after one database round trip (bare-server.ts). */
  floor: { figures: LoadFigures; cpuMsPerRequest: { server: number; database: number } } | undefined;
  redline: LoadFigures;
  rss: RssWindow;
  /** CPU ms per answered request: the bare server; Redline's process; its PostgreSQL backends. */
  cpuMsPerRequest: { bare: number; server: number; database: number };
}

interface DatabaseFigures {
  database: DatabaseKind;
  startupMs: number;
  idleRssMib: number;
  /** One per round (`--rounds`). */
  get: RouteFigures[];
  post: RouteFigures | undefined;
  peakRssMib: number;
  exitCode: number | null;
  rateCounters: { counted: number; answered: number; sent: number; exact: boolean; maxPerUser: number; limit: number };
  logBytes: number;
}

async function call(url: string, token: string, init: { method?: string; body?: string } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': token, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: init.body } : {}),
  });
  const body = (await response.json()) as { data?: { id?: string; status?: string } };
  if (response.status >= 300)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function measureBenchDatabase(
  database: BenchDatabase,
  options: Options,
  workDir: string,
  bare: () => Promise<{ url: string; pid: number }>,
  bodies: { get?: unknown; post?: unknown },
): Promise<DatabaseFigures> {
  const seeding = await openDatabase(database.target);
  await migrateToLatest(seeding.db);
  const users = await seedUsers(seeding.db, options.connections);
  await seeding.close();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = join(workDir, `redline-${database.kind}.log`);
  const profArgs = options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`] : [];
  const server: SpawnedServer = await spawnServer({
    args: [...options.nodeFlags, ...profArgs, join(options.root, 'bin/redline.js'), 'serve'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}),
      ...database.env,
    },
    readyUrl: `${base}/readyz`,
    logFile,
  });
  const rss = sampleRss(server.pid);
  let authenticated = 0;
  try {
    // Idle: after start-up has settled, before any request.
    await new Promise((r) => setTimeout(r, 2000));
    const idleRssMib = rss.read().lastRssMib;

    const reviewIds: string[] = [];
    for (const user of users) {
      const created = await call(`${base}/v1/reviews`, user.token, {
        method: 'POST',
        body: JSON.stringify({ pull_request_url: PULL_REQUEST_URL }),
      });
      authenticated += 1;
      bodies.post ??= created;
      reviewIds.push(created.data?.id ?? '');
    }
    // The GETs read completed reviews (score, summary, stats filled): what clients poll for.
    for (const [i, user] of users.entries()) {
      for (;;) {
        const review = await call(`${base}/v1/reviews/${reviewIds[i]}`, user.token);
        authenticated += 1;
        if (review.data?.status === 'completed') {
          bodies.get ??= review;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const { url: bareUrl, pid: barePid } = await bare();
    // The floor server reads this run's database, so its backends are measured like Redline's.
    const floorServer =
      database.kind === 'postgres' && options.routes.includes('get')
        ? await spawnBare(workDir, bodies, 'floor', database.env.DATABASE_URL)
        : undefined;
    // Three decimals: /proc counts 10 ms ticks, so over a 10 s run of thousands of requests a
    // microsecond a request is still a real difference (two decimals hid 10% changes).
    const perRequest = (ms: number, f: LoadFigures) => Math.round((1000 * ms) / Math.max(1, f.answered)) / 1000;

    let sent = 0;
    let answered = 0;
    const route = async (
      requestFor: (user: number) => LoadRequest,
      floor?: { url: string; pid: number },
    ): Promise<RouteFigures> => {
      const load = (url: string, seconds: number) =>
        runLoad({ url, connections: options.connections, seconds, requestFor });
      const counted = (figures: LoadFigures) => {
        sent += figures.sent;
        answered += figures.answered;
        return figures;
      };
      if (options.warmup > 0) await load(bareUrl, options.warmup);
      const bareCpu = cpuMeter(barePid, undefined);
      const bareFigures = await load(bareUrl, options.seconds);
      const bareMs = bareCpu().serverMs;
      let floorFigures: RouteFigures['floor'];
      if (floor !== undefined) {
        const floorLoad = (seconds: number) =>
          runLoad({
            url: floor.url,
            connections: options.connections,
            seconds,
            requestFor: (i) => ({ ...requestFor(i), path: `/floor${requestFor(i).path}` }),
          });
        if (options.warmup > 0) await floorLoad(options.warmup);
        const floorCpu = cpuMeter(floor.pid, database.name);
        const figures = await floorLoad(options.seconds);
        const used = floorCpu();
        floorFigures = {
          figures,
          cpuMsPerRequest: {
            server: perRequest(used.serverMs, figures),
            database: perRequest(used.databaseMs, figures),
          },
        };
      }
      if (options.warmup > 0) counted(await load(base, options.warmup));
      rss.mark();
      const cpu = cpuMeter(server.pid, database.name);
      const redline = counted(await load(base, options.seconds));
      const used = cpu();
      return {
        bare: bareFigures,
        floor: floorFigures,
        redline,
        rss: rss.read(),
        cpuMsPerRequest: {
          bare: perRequest(bareMs, bareFigures),
          server: perRequest(used.serverMs, redline),
          database: perRequest(used.databaseMs, redline),
        },
      };
    };
    const get: RouteFigures[] = [];
    for (let round = 0; options.routes.includes('get') && round < options.rounds; round++) {
      get.push(
        await route(
          (i) => ({
            method: 'GET',
            path: `/v1/reviews/${reviewIds[i % users.length]}`,
            headers: { 'x-api-key': users[i % users.length]?.token ?? '' },
          }),
          floorServer,
        ),
      );
    }
    const post = !options.routes.includes('post')
      ? undefined
      : await route((i) => ({
          method: 'POST',
          path: '/v1/reviews',
          headers: { 'x-api-key': users[i % users.length]?.token ?? '', 'content-type': 'application/json' },
          body: JSON.stringify({ pull_request_url: PULL_REQUEST_URL }),
        }));
    await floorServer?.stop();
    const peakRssMib = rss.read().hwmMib;
    rss.stop();
    const exitCode = await server.stop();

    const reading = await openDatabase(database.target);
    const counters = await readRateCounters(reading.db);
    await reading.close();
    const lower = authenticated + answered;
    const upper = authenticated + sent;
    return {
      database: database.kind,
      startupMs: server.startupMs,
      idleRssMib,
      get,
      post,
      peakRssMib,
      exitCode,
      rateCounters: {
        counted: counters.total,
        answered: lower,
        sent: upper,
        exact: counters.total >= lower && counters.total <= upper,
        maxPerUser: counters.maxPerUserWindow,
        limit: REQUESTS_PER_HOUR.enterprise,
      },
      logBytes: statSync(logFile).size,
    };
  } catch (error) {
    rss.stop();
    await server.stop();
    throw error;
  }
}

function printFigures(figures: DatabaseFigures, options: Options) {
  const row = (label: string, f: LoadFigures, bare?: LoadFigures) => {
    const share = bare
      ? ` (${Math.round((100 * f.requestsPerSecond) / Math.max(1, bare.requestsPerSecond))}% of bare)`
      : '';
    const statuses = Object.entries(f.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    console.log(
      `    ${label.padEnd(8)} ${String(f.requestsPerSecond).padStart(6)} req/s${share.padEnd(15)} p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, max ${f.maxMs} ms; errors ${f.errors} [${statuses}]`,
    );
  };
  console.log(
    `\n  ${figures.database}: start-up ${figures.startupMs} ms (spawn to /readyz 200), idle RSS ${figures.idleRssMib} MiB`,
  );
  const runs = [
    ...figures.get.map(
      (route, i) => [`GET /v1/reviews/:id${figures.get.length > 1 ? ` (round ${i + 1})` : ''}`, route] as const,
    ),
    ['POST /v1/reviews (test mode)', figures.post] as const,
  ];
  for (const [name, route] of runs) {
    if (route === undefined) continue;
    console.log(`   ${name}, ${options.connections} connections, ${options.seconds} s:`);
    row('bare', route.bare);
    if (route.floor) row('floor', route.floor.figures, route.bare);
    row('redline', route.redline, route.bare);
    const cpu = route.cpuMsPerRequest;
    const us = (ms: number) => `${Math.round(ms * 1000)} us`;
    const floorCpu = route.floor
      ? `; floor ${us(route.floor.cpuMsPerRequest.server)} + PostgreSQL backends ${us(route.floor.cpuMsPerRequest.database)}`
      : '';
    console.log(
      `    CPU per request: bare ${us(cpu.bare)}${floorCpu}; redline ${us(cpu.server)}${figures.database === 'postgres' ? ` + PostgreSQL backends ${us(cpu.database)}` : ' (PGlite inside)'}`,
    );
    console.log(`    RSS under load: max ${route.rss.maxRssMib} MiB (VmRSS sampled every 100 ms)`);
  }
  if (figures.get.length > 1) {
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
    };
    const share = (f: LoadFigures, route: RouteFigures) =>
      (100 * f.requestsPerSecond) / Math.max(1, route.bare.requestsPerSecond);
    const redline = figures.get.map((route) => share(route.redline, route));
    const floors = figures.get.flatMap((route) => (route.floor ? [share(route.floor.figures, route)] : []));
    const percents = (values: number[]) => values.map((v) => `${Math.round(v)}%`).join(', ');
    console.log(
      `   GET over ${figures.get.length} rounds: redline ${percents(redline)} of bare, median ${Math.round(median(redline))}%` +
        (floors.length > 0 ? `; floor ${percents(floors)}, median ${Math.round(median(floors))}%` : ''),
    );
  }
  const c = figures.rateCounters;
  console.log(
    `   peak RSS (VmHWM) ${figures.peakRssMib} MiB; log ${Math.round(figures.logBytes / 1024)} KiB; stopped with exit code ${figures.exitCode}`,
  );
  console.log(
    `   rate counters: ${c.counted} counted, ${c.answered} answered to ${c.sent} sent -> ${c.exact ? 'exact' : 'NOT EXACT'}; busiest user ${c.maxPerUser} of ${c.limit}/h`,
  );
}

/** bench/api/bare-server.ts in its own process, answering `bodies`; with a database URL, its floor route too. */
async function spawnBare(
  workDir: string,
  bodies: { get?: unknown; post?: unknown },
  name: string,
  databaseUrl?: string,
): Promise<SpawnedServer & { url: string }> {
  const bodiesFile = join(workDir, `${name}-bodies.json`);
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await spawnServer({
    args: [join(ROOT, 'build-bench/bench/api/bare-server.js')],
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      BARE_BODIES: bodiesFile,
      ...(databaseUrl ? { BARE_DATABASE_URL: databaseUrl } : {}),
    },
    readyUrl: `${url}/readyz`,
    logFile: join(workDir, `${name}.log`),
  });
  return Object.assign(server, { url });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
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
