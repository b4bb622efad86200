/**
 * bench/noise: how much the review engine says about well-kept real code. Each repository's whole
 * tree is reviewed as if every file were new, and the findings at `warning` and above are counted
 * per 10,000 lines of production code, with those that land in tests, docs and examples apart.
 *
 *   npm run bench:noise -- --repo expressjs/express=DIR [--repo owner/name=DIR ...] [--json FILE] [--any-commit]
 *                          [--sample N] [--seed S]
 *
 * `--sample N` prints N findings to judge by reading the code: every finding at `warning` and
 * above (the ones that block or nag), then findings at `info` drawn at random (seed S, default
 * 20240401) from all the others, so the sample is the same for the same engine and checkouts.
 *
 * The repositories are fetched at bench time, never committed: with the session's fetch tool
 * (`fetch github:expressjs/express` -> <mirror>/repo) then `git clone <mirror>/repo DIR`, or a
 * plain `git clone https://github.com/expressjs/express DIR`, and `git -C DIR checkout <pin>`
 * with the pin from PINS below. A checkout at another commit is refused unless --any-commit.
 *
 * Faithful to `redline review`: the change is built by the CLI's own reader (readLocalChange)
 * for a repository without commits, where the base is the empty tree and every file that git
 * does not ignore is an added file. We get that without touching the checkout by pointing
 * GIT_DIR at a fresh empty repository and GIT_WORK_TREE at the checkout. Only the time budget
 * differs: the CLI stops starting files after 60 s, this bench reviews every file (the output
 * says when the CLI would have stopped early).
 *
 * File roles are the engine's own (by path): the figures say what the engine reports in the files
 * it takes for production code. (The bench's former path conventions, written before the engine
 * had roles, agreed with them on every source file of the six repositories but sinatra's
 * `lib/sinatra/test_helpers.rb` at first: see bench/README.md.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readLocalChange } from '../src/cli/git-change.js';
import { fileRole } from '../src/engine/files/file-role.js';
import { languageOf } from '../src/engine/languages.js';
import { REVIEW_TIME_BUDGET_MS, reviewChange } from '../src/engine/review-change.js';
import type { ChangeSet, Finding } from '../src/engine/types.js';
import { checkPin, readArgs } from './external/checkout.js';
import { seededRandom } from './seeded-random.js';

/** The commits the figures in reports were taken at (fetched 2026-11-26). */
const PINS: Record<string, string> = {
  'expressjs/express': 'a3714473feb3d2908add734d340e7755fd85e0a3',
  'pallets/flask': '2ac89889f4cc330eabd50f295dcef02828522c69',
  'gin-gonic/gin': 'dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9',
  'sinatra/sinatra': 'cb22afd7902b566b6eaba6c4ea89739494a65d12',
  'spring-projects/spring-petclinic': 'edf4db28affcc4741c79850a3d95bc3f177b5ff9',
  'sindresorhus/ky': '3419113b48e034fdcf8fa6bd3be3da7b3d0d758f',
};

const USAGE =
  'usage: bench:noise -- --repo owner/name=DIR [--repo ...] [--json FILE] [--any-commit] [--sample N] [--seed S]\n' +
  `  pinned repositories: ${Object.keys(PINS).join(', ')} (see the header of bench/noise.ts)\n`;

type Role = 'production' | 'test' | 'docs' | 'example';

/**
 * The engine's file role (`src/engine/files/file-role.ts`, from the path and the first lines), with fixtures counted as tests (data
 * a test reads). Generated and vendored files are skipped by the review, so no finding or line of
 * theirs is counted.
 */
export function roleOf(path: string, source?: string): Role {
  const role = fileRole(path, source);
  if (role === 'fixture') return 'test';
  if (role === 'docs' || role === 'example' || role === 'test') return role;
  return 'production';
}

/** The change `redline review` sees in a repository whose every file is new (see the header). */
async function wholeTreeChange(dir: string): Promise<ChangeSet> {
  const empty = mkdtempSync(join(tmpdir(), 'redline-noise-'));
  execFileSync('git', ['init', '-q', empty]);
  const saved = { dir: process.env.GIT_DIR, tree: process.env.GIT_WORK_TREE };
  process.env.GIT_DIR = join(empty, '.git');
  process.env.GIT_WORK_TREE = resolve(dir);
  try {
    return (await readLocalChange({ cwd: resolve(dir) })).change;
  } finally {
    if (saved.dir === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = saved.dir;
    if (saved.tree === undefined) delete process.env.GIT_WORK_TREE;
    else process.env.GIT_WORK_TREE = saved.tree;
    rmSync(empty, { recursive: true, force: true });
  }
}

interface Dumped extends Pick<Finding, 'file' | 'line' | 'ruleId' | 'severity' | 'type' | 'cwe' | 'message'> {
  repo: string;
  commit: string;
  role: Role;
  /** The finding's line of code, to judge it without opening the file. */
  code: string;
}

const atLeastWarning = (f: Pick<Finding, 'severity'>) => f.severity !== 'info';
const serious = (f: Pick<Finding, 'severity'>) => f.severity === 'critical' || f.severity === 'important';

/** Every finding at warning and above, then info findings drawn without replacement, up to `size`. */
function sampleToJudge<T extends Pick<Finding, 'severity'>>(findings: T[], size: number, seed: number): T[] {
  const chosen = findings.filter(atLeastWarning).slice(0, size);
  const rest = findings.filter((f) => !atLeastWarning(f));
  const random = seededRandom(seed);
  while (chosen.length < size && rest.length > 0) {
    chosen.push(...rest.splice(Math.floor(random() * rest.length), 1));
  }
  return chosen;
}

async function main(): Promise<void> {
  let args: ReturnType<typeof readArgs>;
  try {
    args = readArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const unknown = [...args.values.keys(), ...args.flags].filter(
    (k) => !['repo', 'json', 'any-commit', 'sample', 'seed'].includes(k),
  );
  const sampleSize = Number(args.values.get('sample')?.[0] ?? 0);
  const seed = Number(args.values.get('seed')?.[0] ?? 20240401);
  if (!Number.isInteger(sampleSize) || sampleSize < 0 || !Number.isInteger(seed)) {
    process.stderr.write(`--sample and --seed take whole numbers\n${USAGE}`);
    process.exit(2);
  }
  const repos = (args.values.get('repo') ?? []).map((spec) => {
    const at = spec.indexOf('=');
    return { name: spec.slice(0, at), dir: spec.slice(at + 1) };
  });
  const badRepo = repos.find((r) => PINS[r.name] === undefined || r.dir === '');
  if (unknown.length > 0 || repos.length === 0 || badRepo !== undefined) {
    const why = badRepo ? `not a pinned repository or no DIR: ${badRepo.name}=${badRepo.dir}\n` : '';
    process.stderr.write(`${why}${unknown.length > 0 ? `unknown argument --${unknown[0]}\n` : ''}${USAGE}`);
    process.exit(2);
  }

  const dumped: Dumped[] = [];
  const totals = { prodLines: 0, prodFindings: 0, seriousElsewhere: 0 };
  const out: string[] = [];
  const print = (s = '') => out.push(s);
  print('Redline noise on real code: whole trees reviewed as added files (security and performance checks on)');
  for (const { name, dir } of repos) {
    const commit = checkPin(name, dir, PINS[name] as string, args.flags.has('any-commit'));
    const change = await wholeTreeChange(dir);
    const started = performance.now();
    const result = await reviewChange(change, {
      checkSecurity: true,
      checkPerformance: true,
      timeBudgetMs: Number.POSITIVE_INFINITY,
    });
    const elapsed = performance.now() - started;
    const skipped = new Set(result.skipped.map((s) => s.path));
    const reviewed = change.files.filter((f) => !skipped.has(f.path) && f.patch !== undefined);
    // Production lines: lines of reviewed production files in a language the rule packs read.
    const roles = new Map(change.files.map((f) => [f.path, roleOf(f.path, f.content)]));
    const lines = new Map<Role, number>();
    for (const f of reviewed) {
      if (languageOf(f.path) === undefined) continue;
      const role = roles.get(f.path) ?? 'production';
      lines.set(role, (lines.get(role) ?? 0) + f.additions);
    }
    const contents = new Map(change.files.map((f) => [f.path, f.content?.split('\n') ?? []]));
    const findings = result.findings.map((f) => ({ ...f, role: roles.get(f.file) ?? roleOf(f.file) }));
    for (const f of findings) {
      const code = (contents.get(f.file)?.[f.line - 1] ?? '').trim().slice(0, 200);
      dumped.push({
        repo: name,
        commit,
        file: f.file,
        line: f.line,
        ruleId: f.ruleId,
        severity: f.severity,
        type: f.type,
        cwe: f.cwe,
        message: f.message,
        role: f.role,
        code,
      });
    }
    const warnPlus = findings.filter(atLeastWarning);
    const prod = warnPlus.filter((f) => f.role === 'production');
    const prodLines = lines.get('production') ?? 0;
    const elsewhere = findings.filter((f) => serious(f) && f.role !== 'production');
    totals.prodLines += prodLines;
    totals.prodFindings += prod.length;
    totals.seriousElsewhere += elsewhere.length;
    const byRole = (list: typeof findings) =>
      (['test', 'docs', 'example'] as const).map((r) => `${r} ${list.filter((f) => f.role === r).length}`).join(', ');
    const count = (list: typeof findings) => {
      const m = new Map<string, number>();
      for (const f of list) m.set(f.ruleId, (m.get(f.ruleId) ?? 0) + 1);
      return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    };
    print();
    print(
      `${name} @ ${commit.slice(0, 12)}: ${change.files.length} files, ${reviewed.length} reviewed, ${result.skipped.length} skipped; ${(elapsed / 1000).toFixed(1)} s${elapsed > REVIEW_TIME_BUDGET_MS ? ' (the CLI would have stopped starting files at 60 s)' : ''}`,
    );
    print(
      `  code lines by role: ${(['production', 'test', 'docs', 'example'] as const).map((r) => `${r} ${lines.get(r) ?? 0}`).join(', ')}`,
    );
    print(
      `  findings: ${findings.length} (${warnPlus.length} at warning and above; ${byRole(warnPlus)} of those outside production)`,
    );
    print(
      `  warning+ in production: ${prod.length} = ${prodLines ? ((prod.length * 10_000) / prodLines).toFixed(1) : '—'} per 10,000 production lines`,
    );
    print(`  critical/important in test, docs, example files: ${elsewhere.length} (${byRole(elsewhere)})`);
    print(
      `  top rules at warning+ (production): ${
        count(prod)
          .slice(0, 6)
          .map(([r, n]) => `${r} ${n}`)
          .join(', ') || 'none'
      }`,
    );
    print(
      `  top rules at warning+ (elsewhere):  ${
        count(warnPlus.filter((f) => f.role !== 'production'))
          .slice(0, 6)
          .map(([r, n]) => `${r} ${n}`)
          .join(', ') || 'none'
      }`,
    );
  }
  print();
  print(
    `all ${repos.length} repositories: ${totals.prodFindings} warning+ findings in ${totals.prodLines} production lines = ` +
      `${totals.prodLines ? ((totals.prodFindings * 10_000) / totals.prodLines).toFixed(1) : '—'} per 10,000; ` +
      `${totals.seriousElsewhere} critical/important in test, docs and example files`,
  );
  if (sampleSize > 0) {
    print();
    print(
      `a sample of ${sampleSize} to judge (every finding at warning and above, then info at random, seed ${seed}):`,
    );
    for (const f of sampleToJudge(dumped, sampleSize, seed)) {
      print(`  ${f.severity} ${f.ruleId} ${f.repo} ${f.file}:${f.line} (${f.role})  ${f.code}`);
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
  const json = args.values.get('json')?.[0];
  if (json !== undefined) {
    writeFileSync(json, `${JSON.stringify(dumped, null, 1)}\n`);
    process.stdout.write(`${dumped.length} findings written to ${json}\n`);
  }
}

await main();
