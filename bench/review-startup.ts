/**
 * bench/review-startup: the wall time of `redline review` as a user feels it, against a bare
 * `node -e 0` in the same run (the floor of any Node command).
 *
 *   npm run bench:review-startup [-- --runs N] [-- --json]
 *
 * Two temporary git repositories: one whose change holds no source file (a README edit), one with
 * a one-file change (a new 50-line JavaScript module). Each command runs `--runs` times (default
 * 5), in turn, each a fresh process (`node bin/redline.js review -C DIR`), timed from spawn to
 * exit; the medians are compared. The compile cache lives in a temporary XDG_CACHE_HOME that the
 * first, unmeasured run fills, as a user's second run would find it.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
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

function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
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
    const commands: [string, string[]][] = [
      ['node -e 0', ['-e', '0']],
      ['redline review, no source file', [redline, 'review', '-C', noSource]],
      ['redline review, one-file change', [redline, 'review', '-C', oneFile]],
    ];
    for (const [, args] of commands) timed(args, env);
    const times = new Map(commands.map(([name]) => [name, [] as number[]]));
    for (let i = 0; i < options.runs; i += 1) {
      for (const [name, args] of commands) times.get(name)?.push(timed(args, env));
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
