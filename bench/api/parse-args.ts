import { resolve } from 'node:path';
import type { DatabaseKind } from './bench-database.js';

/** The options the API benches share. */
export interface BenchOptions {
  databases: DatabaseKind[];
  /** The checkout whose bin/redline.js and build/ run (before/after comparisons). */
  root: string;
  json: boolean;
}

/** This checkout (the benches run from build-bench/bench/). */
export const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/**
 * `--flag value` pairs and a bare `--json`: `--db pglite|postgres|both` and `--root DIR` here,
 * the bench's own flags through `own` (true when it took the pair). Anything else throws.
 */
export function parseBenchArgs<T extends BenchOptions>(
  argv: string[],
  options: T,
  own: (flag: string, value: string | undefined, options: T) => boolean,
): T {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = argv[i + 1];
    if (arg === '--json') {
      options.json = true;
      continue;
    }
    if (arg === '--db' && (value === 'pglite' || value === 'postgres')) options.databases = [value];
    else if (arg === '--db' && value === 'both') options.databases = ['pglite', 'postgres'];
    else if (arg === '--root' && value !== undefined) options.root = resolve(value);
    else if (!own(arg, value, options)) throw new Error(`unknown or malformed option ${arg} ${value ?? ''}`);
    i += 1;
  }
  return options;
}
