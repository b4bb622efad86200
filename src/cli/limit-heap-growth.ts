import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The heap may grow to this much more than the last full collection kept before the next one. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * V8 lets the heap grow up to four times what the last full collection kept before collecting
 * again. Under load a server promotes request garbage (objects alive across young collections
 * while their requests wait on the database) into the old generation: the heap grew to ~140 MB
 * around ~35 MB kept, and RSS to 230-260 MiB. Growing by half instead kept RSS near 150 MiB at
 * the same throughput (bench/api-throughput, `--node-flags`). V8 reads the flag at each
 * collection, so setting it in the running process takes effect (test/cli/limit-heap-growth).
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** The young generation's largest size (both semi-spaces) in `redline serve`. */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;

/**
 * Caps V8's young generation at YOUNG_GENERATION_CAP_BYTES; its default maximum (32 MB on Node 20)
 * only a command-line flag (`--max-semi-space-size`) sets. V8 grows it once the bytes that
 * survived its collections add up to its size: the start-up's bursts, then an idle server's
 * polling loops, grew it to 32 MB within a minute, about 25 MiB more RSS than at 8
 * (bench/startup-memory). After each collection this stops the growth (a growth factor of 1,
 * which V8 reads each time it would grow) once the cap is reached, and resumes it if V8 shrank
 * the young generation below. A soft cap: the check runs between tasks, so collections within
 * one long synchronous stretch may pass it, and Node 24's V8, which grows the young generation in
 * smaller steps, stops within about twice the cap (test/cli/limit-heap-growth.test.ts).
 */
export function capYoungGeneration(): void {
  let held = false;
  const check = () => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
    const hold = young >= YOUNG_GENERATION_CAP_BYTES;
    if (hold === held) return;
    held = hold;
    setFlagsFromString(`--semi-space-growth-factor=${hold ? 1 : 2}`);
  };
  new PerformanceObserver(check).observe({ entryTypes: ['gc'] });
}
