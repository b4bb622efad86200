import { readFileSync } from 'node:fs';

export interface ProcessMemory {
  /** Resident set now (VmRSS), MiB. */
  rssMib: number;
  /** Highest resident set so far (VmHWM), MiB. */
  hwmMib: number;
}

const kib = (status: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);

/** Another process's memory from /proc (Linux): what the kernel charges it, WebAssembly heap included. */
export function processMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  return {
    rssMib: Math.round(kib(status, 'VmRSS') / 102.4) / 10,
    hwmMib: Math.round(kib(status, 'VmHWM') / 102.4) / 10,
  };
}
