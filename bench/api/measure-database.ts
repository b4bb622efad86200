import { statSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { REQUESTS_PER_HOUR } from '../../src/limits/plans.js';
import type { BenchDatabase } from './bench-database.js';
import { freePort } from './free-port.js';
import { cpuMeter } from './process-cpu.js';
import { readRateCounters } from './rate-counters.js';
import { sampleRss } from './rss-sampler.js';
import { type LoadFigures, type LoadRequest, runLoad } from './run-load.js';
import { seedUsers } from './seed-users.js';
import { spawnBare } from './spawn-bare.js';
import { type SpawnedServer, spawnServer } from './spawn-server.js';
import type { DatabaseFigures, RouteFigures } from './throughput-figures.js';
import type { ThroughputOptions } from './throughput-options.js';

const PULL_REQUEST_URL = 'https://github.com/acme/shop/pull/2';

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

/**
 * One database's figures: Redline spawned on it, then each route loaded next to the bare server
 * (and, on PostgreSQL, the floor route), with its memory, CPU and rate counters.
 */
export async function measureBenchDatabase(
  database: BenchDatabase,
  options: ThroughputOptions,
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
