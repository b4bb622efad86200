import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LibraryStore } from '../engine/rules/library-store.js';
import type { PreparedLibrary } from '../engine/rules/rule-library.js';
import { userCacheDir, writeWhole } from './user-cache-dir.js';

/** Library files kept: a dozen per build (six languages, ASCII or not), for the last few builds. */
const KEEP_FILES = 48;

const CODE = /\.(?:js|ts)$/;

/**
 * What prepares a library besides its key: the engine's rule code (`engine/rules/`, the packs
 * included, and `engine/languages`, which says which rules a language runs), hashed from the files
 * beside this module (compiled or not), and the ast-grep versions (the grammars decide what
 * compiles). Reading the two dozen files costs a few milliseconds; a stale library costs findings.
 */
function preparerId(engineDir: string, astGrepVersions: string): string {
  const hash = createHash('sha256').update(astGrepVersions);
  const rulesDir = join(engineDir, 'rules');
  const files = readdirSync(rulesDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && CODE.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .concat(
      readdirSync(engineDir)
        .filter((n) => /^languages\.(?:js|ts)$/.test(n))
        .map((n) => join(engineDir, n)),
    )
    .sort();
  for (const file of files)
    hash
      .update(`${file.slice(engineDir.length)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/**
 * The engine's prepared rule libraries kept between runs of `redline review`, one file per library
 * in `rule-libraries/` of the user's cache directory, named by a hash of the library's key and of
 * what prepared it (`preparerId`): two builds never read each other's. A missing, unreadable or
 * damaged file only costs the preparation (the engine checks a library before using it). Writing
 * a new file removes the oldest beyond the newest KEEP_FILES.
 */
export class LibraryCache implements LibraryStore {
  readonly #pending = new Map<string, PreparedLibrary>();
  /** Hashed on first use (a change without source files never asks); null: the engine's files cannot be read. */
  #preparer: string | null | undefined;

  private constructor(
    readonly dir: string,
    readonly engineDir: string,
    readonly astGrepVersions: string,
  ) {}

  /**
   * `astGrepVersions`: as CompileCache takes them. `engineDir`: the engine's folder (the default is
   * the one beside this module).
   */
  static open(
    env: Record<string, string | undefined>,
    astGrepVersions: string,
    engineDir: string = fileURLToPath(new URL('../engine/', import.meta.url)),
  ): LibraryCache {
    return new LibraryCache(join(userCacheDir(env), 'rule-libraries'), engineDir, astGrepVersions);
  }

  /** The file of a key; undefined when the engine's files cannot be read (a stripped install): nothing is kept then. */
  #file(key: string): string | undefined {
    if (this.#preparer === undefined) {
      try {
        this.#preparer = preparerId(this.engineDir, this.astGrepVersions);
      } catch {
        this.#preparer = null;
      }
    }
    if (this.#preparer === null) return undefined;
    const name = createHash('sha256').update(`${this.#preparer}\0${key}`).digest('hex').slice(0, 32);
    return join(this.dir, `${name}.json`);
  }

  get(key: string): unknown {
    const file = this.#file(key);
    if (file === undefined) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  }

  set(key: string, library: PreparedLibrary): void {
    const file = this.#file(key);
    if (file !== undefined) this.#pending.set(file, library);
  }

  /** Writes the libraries built in this run, then removes the oldest files beyond KEEP_FILES. */
  writeBack(): void {
    if (this.#pending.size === 0) return;
    try {
      for (const [file, library] of this.#pending) writeWhole(file, JSON.stringify(library));
      this.#pending.clear();
      const files = readdirSync(this.dir)
        .filter((n) => n.endsWith('.json'))
        .map((n) => ({ path: join(this.dir, n), mtime: statSync(join(this.dir, n)).mtimeMs }))
        .sort((a, b) => b.mtime - a.mtime);
      for (const old of files.slice(KEEP_FILES)) rmSync(old.path, { force: true });
    } catch {
      // A read-only or full disk costs the next run its preparation, nothing else.
    }
  }
}
