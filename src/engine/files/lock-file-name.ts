import { pathParts } from './path-parts.js';

const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'bun.lockb',
  'go.sum',
  'packages.lock.json',
  'gradle.lockfile',
  'Package.resolved',
]);

/** The lock file a path names (yarn.lock, Cargo.lock, ... are all `*.lock`), or undefined. */
export function lockFileName(path: string): string | undefined {
  const { base } = pathParts(path);
  return LOCK_FILES.has(base) || (base.endsWith('.lock') && base.length > '.lock'.length) ? base : undefined;
}
