import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { reviewChange } from '../../src/engine/review-change.js';

export interface EngineAtRef {
  /** The commit the engine was built from, abbreviated. */
  commit: string;
  reviewChange: typeof reviewChange;
  /** Removes the temporary checkout. */
  dispose: () => void;
}

/**
 * The review engine as it was at `ref` of the repository at `root`, built into a temporary
 * directory and loaded next to the current one: a speed comparison is only fair when both run
 * in the same process, on the same input, at the same moment of the machine's load. Only
 * `src/` is taken from the commit; the installed packages are the current ones.
 */
export async function engineAtRef(root: string, ref: string): Promise<EngineAtRef> {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--short=12', '--verify', `${ref}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), 'redline-engine-at-ref-'));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('sh', ['-c', `git -C "$1" archive "$2" src tsconfig.json | tar -x -C "$3"`, 'sh', root, commit, dir]);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    // The entry point alone: tsc follows its imports, and the rest of src/ is not needed.
    writeFileSync(
      join(dir, 'tsconfig.ref.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { rootDir: '.', outDir: 'build', noEmit: false, sourceMap: false },
        include: ['src/engine/review-change.ts'],
      }),
    );
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.ref.json')],
      {
        stdio: 'inherit',
      },
    );
    const module = (await import(pathToFileURL(join(dir, 'build/src/engine/review-change.js')).href)) as {
      reviewChange: typeof reviewChange;
    };
    return { commit, reviewChange: module.reviewChange, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
