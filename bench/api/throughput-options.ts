import { resolve } from 'node:path';
import { type BenchOptions, parseBenchArgs, ROOT } from './parse-args.js';

/** api-throughput's options: the shared bench flags and its own. */
export interface ThroughputOptions extends BenchOptions {
  seconds: number;
  warmup: number;
  connections: number;
  routes: ('get' | 'post')[];
  cpuProf: string | undefined;
  logLevel: string | undefined;
  nodeFlags: string[];
  rounds: number;
}

export function parseThroughputArgs(argv: string[]): ThroughputOptions {
  const defaults: ThroughputOptions = {
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
