// Bundles the command line (`npm run build`): src/cli/main.ts and everything of ours it imports,
// into build/bundle/, one chunk per command's dynamic import (esbuild's code splitting), the npm
// packages left as imports. bin/redline.js runs it. Why a bundle: Node's ES module loader reads,
// resolves and compiles each file on its own, and `redline review` of a small change spent more
// time loading some hundred small modules than reviewing. The chunks sit two folders below the
// repository, as build/<area>/ files do, so paths taken from import.meta.url resolve alike.
//
// Two pure-JavaScript packages that only our code imports go into the bundle too: kysely (262
// files) and jose (46). Loaded one by one they were a sixth of an idle server's memory. The
// others stay imports: native code, files read beside the module (PGlite's WebAssembly), or a
// package another package also imports (zod, which fastify's type provider uses: one copy only).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLED = new Set(['kysely', 'jose']);
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

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
    external,
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildCli();
}
