import { readdirSync, readFileSync } from 'node:fs';

// /proc/<pid>/stat counts in clock ticks; Linux reports 100 a second to user space everywhere we run.
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms; 0 once it is gone. */
export function processCpuMs(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // The command name may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The PostgreSQL backends serving `database` now (their process titles name it). */
export function postgresBackends(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres:') && title.includes(` ${database} `)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/**
 * CPU used by the server and by its database backends between start() and stop(): on a shared
 * machine wall-clock throughput moves with other jobs, CPU per request much less.
 */
export function cpuMeter(serverPid: number, database: string | undefined) {
  const snapshot = () => {
    const backends = database === undefined ? [] : postgresBackends(database);
    return { server: processCpuMs(serverPid), backends: new Map(backends.map((pid) => [pid, processCpuMs(pid)])) };
  };
  const before = snapshot();
  return () => {
    const after = snapshot();
    let database = 0;
    for (const [pid, ms] of after.backends) database += ms - (before.backends.get(pid) ?? 0);
    return { serverMs: after.server - before.server, databaseMs: database };
  };
}
