import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reviewChange } from '../../src/engine/review-change.js';
import type { EngineOptions } from '../../src/engine/types.js';
import { engineAtRef } from './engine-at-ref.js';
import { fmt, median } from './figures.js';
import type { GeneratedFile } from './generate.js';

type Review = typeof reviewChange;

export interface EngineComparison {
  rounds: number;
  /** CPU time (user + system, ms) of each round's run, per engine. */
  baselineCpuMs: number[];
  currentCpuMs: number[];
  baselineFindings: number;
  currentFindings: number;
}

function cpuMsOf(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * Both engines on the same change, one run each per round, the order swapped every round: a
 * load that rises or falls during the comparison then weighs on both alike. Each engine is
 * warmed up first (grammars registered, its code compiled by the JIT).
 */
export function compareEngines(
  baseline: Review,
  current: Review,
  files: GeneratedFile[],
  options: EngineOptions,
  rounds: number,
): EngineComparison {
  const change = { files: files.map((f) => f.file) };
  const baselineFindings = baseline(change, options).findings.length;
  const currentFindings = current(change, options).findings.length;
  const baselineCpuMs: number[] = [];
  const currentCpuMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const runBaseline = () => baselineCpuMs.push(cpuMsOf(() => baseline(change, options)));
    const runCurrent = () => currentCpuMs.push(cpuMsOf(() => current(change, options)));
    if (round % 2 === 0) {
      runBaseline();
      runCurrent();
    } else {
      runCurrent();
      runBaseline();
    }
  }
  return { rounds, baselineCpuMs, currentCpuMs, baselineFindings, currentFindings };
}

/** `--against REF`: this engine and REF's on the same change, alternating, in CPU time. */
export async function againstRef(
  ref: string,
  files: GeneratedFile[],
  options: EngineOptions,
  rounds: number,
): Promise<string[]> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const other = await engineAtRef(root, ref);
  try {
    const c = compareEngines(other.reviewChange, reviewChange, files, options, rounds);
    const lines = files.reduce((s, f) => s + f.lines, 0);
    const base = median(c.baselineCpuMs);
    const cur = median(c.currentCpuMs);
    const perCpuSecond = (ms: number) => fmt((lines / ms) * 1000);
    return [
      `against ${ref} (${other.commit}), same change, ${rounds} alternating rounds, median cpu time:`,
      `  ${other.commit.padEnd(12)} ${fmt(base, 1).padStart(9)} ms  ${perCpuSecond(base).padStart(9)} changed lines per cpu-second  ${fmt(c.baselineFindings)} findings   (runs: ${c.baselineCpuMs.map((t) => fmt(t, 0)).join(', ')} ms)`,
      `  ${'current'.padEnd(12)} ${fmt(cur, 1).padStart(9)} ms  ${perCpuSecond(cur).padStart(9)} changed lines per cpu-second  ${fmt(c.currentFindings)} findings   (runs: ${c.currentCpuMs.map((t) => fmt(t, 0)).join(', ')} ms)`,
      `  current / ${other.commit}: ${fmt(base / cur, 3)}x the throughput (${base / cur >= 1 ? 'at or above' : 'below'} it)`,
    ];
  } finally {
    other.dispose();
  }
}
