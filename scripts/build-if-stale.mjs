#!/usr/bin/env node
// Runs `npm run build` unless build/ was made from exactly the sources here. `npm start` and
// `npm ci` call it: a restart with nothing changed then costs a hash of the sources (tens of
// milliseconds) instead of a TypeScript compile (seconds, even incremental).
//
// The stamp build/.sources-sha256 holds the SHA-256 of every file the build reads: src/, the
// scripts, the tsconfig files, package.json and package-lock.json (a dependency's types can change
// the output). It is written only after a build succeeds, so a failed build is retried next time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'build', '.sources-sha256');
const INPUTS = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

/** Every file the build reads, as paths relative to the repository, sorted. */
function inputFiles() {
  const files = [];
  for (const input of INPUTS) {
    const path = join(ROOT, input);
    if (!existsSync(path)) continue;
    if (!statSync(path).isDirectory()) files.push(path);
    else {
      for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
        if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
      }
    }
  }
  return files.map((f) => relative(ROOT, f)).sort();
}

function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of inputFiles()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const want = sourcesHash();
const have = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (have === want && existsSync(join(ROOT, 'build', 'bundle', 'main.js'))) process.exit(0);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
writeFileSync(STAMP, `${want}\n`);
