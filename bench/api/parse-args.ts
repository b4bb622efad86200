import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

/**
 * Whether `root` has a compiled server (the benches run `bin/redline.js` as production does);
 * when not, says how to make one and sets a failing exit code.
 */
export function hasBuild(root: string): boolean {
  if (existsSync(join(root, 'build/cli/main.js'))) return true;
  console.error('build/ is missing: run `npm run build` first (the bench runs the server as production does)');
  process.exitCode = 1;
  return false;
}

/** `--<flag> N` (a positive whole number, default `fallback`) and a bare `--json`; anything else throws. */
export function parseCountArgs(argv: string[], flag: string, fallback: number): { count: number; json: boolean } {
  const options = { count: fallback, json: false };
  for (let i = 0; i < argv.length; i++) {
    const n = Number(argv[i + 1]);
    if (argv[i] === '--json') options.json = true;
    else if (argv[i] === `--${flag}` && Number.isInteger(n) && n > 0) {
      options.count = n;
      i += 1;
    } else throw new Error(`unknown or malformed option ${argv[i]} (usage: --${flag} N, --json)`);
  }
  return options;
}
