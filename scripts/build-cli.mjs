// Bundles the command line (`npm run build`): src/cli/main.ts and everything of ours it imports,
// into build/bundle/, one chunk per command's dynamic import (esbuild's code splitting), the npm
// packages left as imports. bin/redline.js runs it. Why a bundle: Node's ES module loader reads,
// resolves and compiles each file on its own, and `redline review` of a small change spent more
// time loading some hundred small modules than reviewing. The chunks sit two folders below the
// repository, as build/<area>/ files do, so paths taken from import.meta.url resolve alike.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildCli(outdir = path.join(root, 'build/bundle')) {
  await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts'],
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildCli();
}
