import { pathParts } from './path-parts.js';

const VENDORED_DIRS = new Set(['vendor', 'node_modules', 'third_party', 'third-party', 'bower_components', '.yarn']);

/** The directory that makes a path someone else's code (at any depth), or undefined. */
export function vendoredDir(path: string): string | undefined {
  return pathParts(path).dirs.find((dir) => VENDORED_DIRS.has(dir));
}
