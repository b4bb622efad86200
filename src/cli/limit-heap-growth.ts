import { setFlagsFromString } from 'node:v8';

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
