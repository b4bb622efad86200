import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * PGlite is a single-process database: two processes writing one data directory would corrupt
 * it. The first to open it leaves its pid here; a second one is refused with a clear message.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(path.resolve(dataDir), 'redline.pid');
  // A file holding our own pid is taken over below (a container restarts with the same pid), so
  // the locks this process holds are also kept here, claimed before any await: a second open
  // in this process is refused as well.
  if (heldHere.has(file)) throw inUse(dataDir, process.pid);
  heldHere.add(file);
  try {
    await mkdir(dataDir, { recursive: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(file, String(process.pid), { flag: 'wx' });
        return async () => {
          await rm(file, { force: true });
          heldHere.delete(file);
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw inUse(dataDir, pid);
        // A lock left by a process that died: take it over.
        await rm(file, { force: true });
      }
    }
    throw new Error(`Could not lock ${dataDir}`);
  } catch (error) {
    heldHere.delete(file);
    throw error;
  }
}

const heldHere = new Set<string>();

function inUse(dataDir: string, pid: number): Error {
  return new Error(
    `The embedded database in ${dataDir} is in use by process ${pid} (probably "redline serve"). ` +
      'Stop it before running another command on the same DATA_DIR, or use PostgreSQL (DATABASE_URL).',
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
