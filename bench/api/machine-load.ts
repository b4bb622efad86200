import { cpus, loadavg } from 'node:os';

/**
 * One line that says how busy the machine was: on a shared 2-core box the figures move with
 * other jobs' load, so a reader needs this next to them.
 */
export function machineLoad(): string {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
  return `${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), load average ${one} / ${five} / ${fifteen}, node ${process.version}`;
}
