/**
 * bench/review-startup: the wall time of `redline review` as a user feels it, against a bare
 * `node -e 0` in the same run (the floor of any Node command), and against ESLint's CLI on the
 * same file (the tool people run beside us on every commit).
 *
 *   npm run bench:review-startup [-- --runs N] [-- --json]
 *
 * Two temporary git repositories: one whose change holds no source file (a README edit), one with
 * a one-file change (a new 50-line JavaScript module). Each command runs `--runs` times (default
 * 5), in turn, each a fresh process (`node bin/redline.js review -C DIR`), timed from spawn to
 * exit; the medians are compared. Redline's cache lives in a temporary XDG_CACHE_HOME that the
 * first, unmeasured run fills, as a user's second run would find it. ESLint 9 (installed from the
 * npm registry into the user's cache directory on first use, outside the repository) lints the
 * one-file change's file with its recommended rules.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { userCacheDir } from '../src/cli/user-cache-dir.js';
import { machineLoad } from './api/machine-load.js';
import { parseCountArgs, ROOT } from './api/parse-args.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@b.invalid',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@b.invalid',
    },
    stdio: 'ignore',
  });
}

/** A repository with one commit, then `change` written into the work tree. */
function repository(root: string, name: string, change: Record<string, string>): string {
  const dir = join(root, name);
  execFileSync('mkdir', ['-p', dir]);
  git(dir, 'init', '-q', '--initial-branch=main');
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  for (const [file, text] of Object.entries(change)) writeFileSync(join(dir, file), text);
  return dir;
}

/** ESLint's CLI script, installed into the user's cache directory when missing (about 10 s, once). */
function eslintCli(): string {
  const prefix = join(userCacheDir(process.env), 'bench', 'eslint9');
  const cli = join(prefix, 'node_modules', 'eslint', 'bin', 'eslint.js');
  if (!existsSync(cli)) {
    mkdirSync(prefix, { recursive: true });
    console.error(`installing eslint@9 into ${prefix}`);
    execFileSync(
      'npm',
      ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, 'eslint@9'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  return cli;
}

/** A flat config with ESLint's recommended rules, imported from where the bench installed them. */
function eslintConfig(dir: string, cli: string): string {
  const recommended = join(cli, '..', '..', '..', '@eslint', 'js', 'src', 'index.js');
  const file = join(dir, 'eslint.config.mjs');
  writeFileSync(file, `import js from ${JSON.stringify(recommended)};\nexport default [js.configs.recommended];\n`);
  return file;
}

/** Wall time of one run, ms; exit 0 or 1 (findings) is a run, anything else a failure. */
function timed(args: string[], env: NodeJS.ProcessEnv, cwd?: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (run.status !== 0 && run.status !== 1) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  return elapsed;
}

const MODULE = Array.from({ length: 10 }, (_, i) =>
  [
    `export function total${i}(items) {`,
    '  let sum = 0;',
    '  for (const item of items) sum += item.price;',
    '  return sum;',
    '}',
  ].join('\n'),
).join('\n');

function main() {
  const { count: runs, json } = parseCountArgs(process.argv.slice(2), 'runs', 5);
  const options = { runs, json };
  const root = mkdtempSync(join(tmpdir(), 'redline-bench-review-'));
  try {
    const env = { ...process.env, XDG_CACHE_HOME: join(root, 'cache') };
    const noSource = repository(root, 'no-source', { 'README.md': '# bench\n\nMore words.\n' });
    const oneFile = repository(root, 'one-file', { 'totals.js': `${MODULE}\n` });
    const redline = join(ROOT, 'bin/redline.js');
    const eslint = eslintCli();
    // Outside the repository under review: the change stays one file.
    const config = eslintConfig(root, eslint);
    const commands: [string, string[], string?][] = [
      ['node -e 0', ['-e', '0']],
      ['redline review, no source file', [redline, 'review', '-C', noSource]],
      ['redline review, one-file change', [redline, 'review', '-C', oneFile]],
      ['eslint, the same file', [eslint, '--config', config, 'totals.js'], oneFile],
    ];
    for (const [, args, cwd] of commands) timed(args, env, cwd);
    const times = new Map(commands.map(([name]) => [name, [] as number[]]));
    for (let i = 0; i < options.runs; i += 1) {
      for (const [name, args, cwd] of commands) times.get(name)?.push(timed(args, env, cwd));
    }
    const floor = median(times.get('node -e 0') ?? []);
    const rows = commands.map(([name]) => {
      const ms = median(times.get(name) ?? []);
      return { name, medianMs: Math.round(ms), timesNode: Number((ms / floor).toFixed(1)) };
    });
    if (options.json) console.log(JSON.stringify({ machine: machineLoad(), runs: options.runs, rows }, null, 2));
    else {
      console.log(`redline review start-up, median of ${options.runs}: ${machineLoad()}`);
      for (const row of rows)
        console.log(`  ${row.name.padEnd(34)} ${String(row.medianMs).padStart(6)} ms  ${row.timesNode}x node -e 0`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main();
