import { createHash } from 'node:crypto';
import type { Language } from '../languages.js';

/**
 * Whether a query compiles for a grammar depends only on the query's text and the grammar's
 * version, and finding out costs an ast-grep compile: building one language's rule library asks
 * it of every rule, about a second in all. A caller that outlives the process (`redline review`,
 * with a file in the user's cache directory) hands the engine the verdicts of earlier runs and
 * keeps the new ones; the engine itself reads and writes nothing.
 */
export interface CompileVerdicts {
  get(key: string): boolean | undefined;
  set(key: string, compiles: boolean): void;
}

let store: CompileVerdicts | undefined;

/** Where the rule libraries built from now on keep their compile verdicts (undefined: nowhere). */
export function useCompileVerdicts(verdicts: CompileVerdicts | undefined): void {
  store = verdicts;
}

/** The store in use, if any. */
export const compileVerdicts = (): CompileVerdicts | undefined => store;

/** The key of a query for a language: a hash of both, so equal text gives equal keys in any version. */
export function compileKey(language: Language, queryText: string): string {
  return createHash('sha256').update(language).update('\0').update(queryText).digest('hex').slice(0, 32);
}
