import type { DatabaseKind } from './bench-database.js';
import type { RssWindow } from './rss-sampler.js';
import type { LoadFigures } from './run-load.js';
import type { ThroughputOptions } from './throughput-options.js';

export interface RouteFigures {
  bare: LoadFigures;
  /** GET on PostgreSQL only: the bare route after one database round trip (bare-server.ts). */
  floor: { figures: LoadFigures; cpuMsPerRequest: { server: number; database: number } } | undefined;
  redline: LoadFigures;
  rss: RssWindow;
  /** CPU ms per answered request: the bare server; Redline's process; its PostgreSQL backends. */
  cpuMsPerRequest: { bare: number; server: number; database: number };
}

export interface DatabaseFigures {
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

/** The human-readable report of one database's figures. */
export function printFigures(figures: DatabaseFigures, options: ThroughputOptions) {
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
