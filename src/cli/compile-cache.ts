import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompileVerdicts } from '../engine/rules/compile-verdicts.js';
import { userCacheDir, writeWhole } from './user-cache-dir.js';

/**
 * The engine's compile verdicts kept between runs of `redline review`, in
 * `$XDG_CACHE_HOME/redline/` (else `~/.cache/redline/`), one file per set of ast-grep versions
 * (the grammar decides what compiles; the keys already name the query's text, so any Redline
 * version can share the file). A missing or unreadable file is an empty cache; a file that cannot
 * be written is left as it was: the cache only saves time.
 */
export class CompileCache implements CompileVerdicts {
  /** Read on first use: a run that builds no rule library (its libraries are kept) never asks. */
  #read: Map<string, boolean> | undefined;
  #added = 0;

  private constructor(readonly file: string) {}

  get #verdicts(): Map<string, boolean> {
    this.#read ??= readVerdicts(this.file);
    return this.#read;
  }

  /** The cache for these ast-grep package versions (`name@version,...` of package.json's `@ast-grep/*` dependencies). */
  static open(env: Record<string, string | undefined>, astGrepVersions: string): CompileCache {
    const id = createHash('sha256').update(astGrepVersions).digest('hex').slice(0, 16);
    const file = join(userCacheDir(env), `ast-grep-compiles-${id}.json`);
    return new CompileCache(file);
  }

  get(key: string): boolean | undefined {
    return this.#verdicts.get(key);
  }

  set(key: string, compiles: boolean): void {
    if (this.#verdicts.get(key) === compiles) return;
    this.#verdicts.set(key, compiles);
    this.#added += 1;
  }

  /** Writes the file when the run learned something. */
  writeBack(): void {
    if (this.#added === 0) return;
    try {
      writeWhole(this.file, JSON.stringify(Object.fromEntries(this.#verdicts)));
      this.#added = 0;
    } catch {
      // A read-only or full disk costs the next run its second, nothing else.
    }
  }
}

function readVerdicts(file: string): Map<string, boolean> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new Map();
    return new Map(Object.entries(parsed).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
  } catch {
    return new Map();
  }
}
