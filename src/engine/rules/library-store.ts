import type { PreparedLibrary } from './rule-library.js';

/**
 * Preparing one language's rule library (rule-library.ts: reordering, sharing, anchors, compile
 * checks) costs more than reviewing a small change, and gives the same result for the same rules
 * and the same code. A caller that outlives the process (`redline review`, with files in the
 * user's cache directory) keeps the prepared libraries; the engine itself reads and writes
 * nothing. The keys (`libraryKey`) name the rules, the language and the ASCII flag, not the code
 * that prepares them: a store must keep libraries of one build of the engine apart from another's.
 */
export interface LibraryStore {
  /** What was kept under the key (checked before use: anything else is rebuilt), or undefined. */
  get(key: string): unknown;
  set(key: string, library: PreparedLibrary): void;
}

let store: LibraryStore | undefined;

/** Where the rule libraries built from now on are looked up and kept (undefined: nowhere). */
export function useLibraryStore(libraries: LibraryStore | undefined): void {
  store = libraries;
}

/** The store in use, if any. */
export const libraryStore = (): LibraryStore | undefined => store;
