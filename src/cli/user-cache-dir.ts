import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Redline's folder in the user's cache directory: `$XDG_CACHE_HOME/redline`, else `~/.cache/redline`. */
export function userCacheDir(env: Record<string, string | undefined>): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'redline');
}

/**
 * Writes the file whole or not at all (to a temporary name, then renamed), so a concurrent run
 * reads the old content or the new, never half of it. Throws what the file system throws.
 */
export function writeWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
