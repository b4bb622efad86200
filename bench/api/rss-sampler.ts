import { processMemory } from './process-memory.js';

export interface RssWindow {
  /** Highest VmRSS seen between mark() and read(), MiB. */
  maxRssMib: number;
  /** VmRSS at read(), MiB. */
  lastRssMib: number;
  /** VmHWM at read(): the peak since the process started, even between samples. */
  hwmMib: number;
}

/**
 * Samples a process's VmRSS every `everyMs` so a phase (idle, under load) can report its peak:
 * VmHWM alone only says the peak since start, not which phase reached it.
 */
export function sampleRss(pid: number, everyMs = 100) {
  let max = 0;
  const sample = () => {
    const now = processMemory(pid);
    if (now !== undefined) max = Math.max(max, now.rssMib);
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    /** Starts a new phase. */
    mark() {
      max = 0;
      sample();
    },
    read(): RssWindow {
      sample();
      const now = processMemory(pid);
      return { maxRssMib: max, lastRssMib: now?.rssMib ?? 0, hwmMib: now?.hwmMib ?? 0 };
    },
    stop() {
      clearInterval(timer);
    },
  };
}
