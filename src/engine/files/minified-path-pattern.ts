import { pathParts } from './path-parts.js';

const MINIFIED_SUFFIXES = ['.min.js', '.min.mjs', '.min.cjs', '.min.css', '.map'];

/** The suffix by which a path is minified output or a source map, or undefined. */
export function minifiedPathPattern(path: string): string | undefined {
  const { base } = pathParts(path);
  const suffix = MINIFIED_SUFFIXES.find((s) => base.endsWith(s) && base.length > s.length);
  return suffix ? `*${suffix}` : undefined;
}
