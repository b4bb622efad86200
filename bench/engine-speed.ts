/**
 * bench/engine-speed: how fast the review engine reads a large change, next to ast-grep's own CLI.
 *
 *   npm run bench:engine-speed [-- --lines N] [-- --runs N] [-- --no-baseline] [-- --json]
 *   npm run bench:engine-speed -- --against REF [--rounds N]
 *
 * Generates a deterministic change (bench/speed/generate.ts: new files in six languages, about
 * 60,000 added lines), runs `reviewChange` on it once to warm up and then `--runs` times (timed),
 * and prints changed lines per second overall and per language, per-file latency percentiles,
 * memory, and the time of a 5,000-line pull request (a subset of the files). Baseline in the same
 * run: the same files written to a temporary directory, our rule packs converted to ast-grep YAML
 * rules in a temporary sgconfig project, and `ast-grep scan --json` timed on it (one thread, as
 * our engine runs on one core, and with its default threads). CPU time is printed next to wall
 * time for both (the CLI's from /proc on Linux): on a shared machine it moves much less with the
 * other jobs' load. `--against REF` also builds the engine of commit REF (only its `src/`) and runs
 * both on the same change in alternating rounds, printing their CPU time and the ratio: the fair
 * way to say whether a change made the engine slower. A measurement, not a test: exit 0.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reviewChange } from '../src/engine/review-change.js';
import { matchRule, parseSource } from '../src/engine/rules/ast-grep.js';
import { RULES } from '../src/engine/rules/packs/index.js';
import type { Rule } from '../src/engine/rules/rule-schema.js';
import type { EngineOptions, EngineResult } from '../src/engine/types.js';
import { childrenCpuMs } from './speed/children-cpu-ms.js';
import { againstRef } from './speed/compare-engines.js';
import { fmt, median } from './speed/figures.js';
import { type GeneratedFile, generateChange, SPEED_LANGUAGES, type SpeedLanguage } from './speed/generate.js';

interface Options {
  lines: number;
  runs: number;
  prLines: number;
  baseline: boolean;
  json: boolean;
  against?: string | undefined;
  rounds: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { lines: 60_000, runs: 3, prLines: 5_000, baseline: true, json: false, rounds: 7 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = Number(argv[i + 1]);
    if (arg === '--json') options.json = true;
    else if (arg === '--no-baseline') options.baseline = false;
    else if (arg === '--against' && argv[i + 1] !== undefined) {
      options.against = argv[i + 1];
      i++;
    } else if (arg === '--rounds' && Number.isFinite(value)) {
      options.rounds = Math.max(1, value);
      i++;
    } else if (arg === '--lines' && Number.isFinite(value)) {
      options.lines = value;
      i++;
    } else if (arg === '--runs' && Number.isFinite(value)) {
      options.runs = Math.max(1, value);
      i++;
    } else if (arg === '--pr-lines' && Number.isFinite(value)) {
      options.prLines = value;
      i++;
    }
  }
  return options;
}

const ENGINE_OPTIONS: EngineOptions = { checkSecurity: true, checkPerformance: true };
const MB = 1024 * 1024;

const now = () => performance.now();
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;

function review(files: GeneratedFile[]): EngineResult {
  return reviewChange({ files: files.map((f) => f.file) }, ENGINE_OPTIONS);
}

/** Wall and CPU time (user + system) of each run, ms: CPU time varies far less on a loaded machine. */
function timeRuns(runs: number, fn: () => void): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = now();
    const startCpu = process.cpuUsage();
    fn();
    const used = process.cpuUsage(startCpu);
    wall.push(now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall, cpu };
}

/** Files in language order, round-robin, until `lines`: a pull request of that size. */
function subset(files: GeneratedFile[], lines: number): GeneratedFile[] {
  const queues = SPEED_LANGUAGES.map((l) =>
    files.filter((f) => f.language === l && f.lines <= 600).sort((a, b) => a.lines - b.lines),
  );
  const out: GeneratedFile[] = [];
  let total = 0;
  for (let round = 0; total < lines; round++) {
    let added = false;
    for (const queue of queues) {
      const file = queue[round];
      if (file === undefined || total >= lines) continue;
      out.push(file);
      total += file.lines;
      added = true;
    }
    if (!added) break;
  }
  return out;
}

// ------------------------------------------------------------------ ast-grep CLI baseline

const CLI_LANGUAGE: Record<SpeedLanguage, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
  go: 'Go',
  java: 'Java',
  ruby: 'Ruby',
};

const CLI_SEVERITY: Record<Rule['severity'], string> = {
  critical: 'error',
  important: 'error',
  warning: 'warning',
  info: 'info',
};

/** The file languages a rule runs on in our engine (a `javascript` rule also reads TypeScript). */
function fileLanguagesOf(rule: Rule): SpeedLanguage[] {
  const out = new Set<SpeedLanguage>();
  for (const l of rule.languages) {
    out.add(l);
    if (l === 'javascript') out.add('typescript');
  }
  return [...out];
}

/** Whether ast-grep compiles the rule for the language (our engine skips a rule it cannot). */
function compiles(rule: Rule, language: SpeedLanguage): boolean {
  try {
    matchRule(parseSource(language, '').root(), rule);
    return true;
  } catch {
    return false;
  }
}

/**
 * One ast-grep rule file per (rule, language): the CLI takes one language per rule. JSON is YAML,
 * so the rule objects are written as they are. A rule that does not compile for a language (a JSX
 * kind in plain TypeScript) is left out, as our engine finds nothing with it there.
 */
function writeSgProject(dir: string): number {
  const rulesDir = join(dir, 'rules');
  mkdirSync(rulesDir, { recursive: true });
  writeFileSync(join(dir, 'sgconfig.yml'), 'ruleDirs:\n  - rules\n');
  let count = 0;
  for (const rule of RULES) {
    for (const language of fileLanguagesOf(rule)) {
      if (!compiles(rule, language)) continue;
      const yaml = {
        id: `${rule.id}.${language}`,
        language: CLI_LANGUAGE[language],
        severity: CLI_SEVERITY[rule.severity],
        message: rule.message,
        rule: rule.rule,
        ...(rule.constraints ? { constraints: rule.constraints } : {}),
      };
      writeFileSync(join(rulesDir, `${rule.id}.${language}.yml`), `${JSON.stringify(yaml, null, 2)}\n`);
      count += 1;
    }
  }
  return count;
}

interface CliRun {
  threads: string;
  times: number[];
  /** CPU time of each run (all its threads), when the platform tells it. */
  cpuTimes: number[];
  matches: number;
  error?: string | undefined;
}

function runCli(bin: string, project: string, source: string, threads: number | undefined, runs: number): CliRun {
  const args = [
    'scan',
    '--json=compact',
    '-c',
    join(project, 'sgconfig.yml'),
    ...(threads ? ['--threads', String(threads)] : []),
    source,
  ];
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let matches = 0;
  let error: string | undefined;
  // One untimed run first, as for our engine (file cache, binary loaded).
  for (let i = 0; i <= runs; i++) {
    const start = now();
    const startCpu = childrenCpuMs();
    const result = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 512 * MB });
    const elapsed = now() - start;
    const endCpu = childrenCpuMs();
    if (result.status !== 0 && result.status !== 1) {
      error = (result.stderr || String(result.error)).slice(0, 2000);
      break;
    }
    if (i === 0) {
      try {
        matches = (JSON.parse(result.stdout) as unknown[]).length;
      } catch {
        error = `unreadable output: ${result.stdout.slice(0, 200)}`;
      }
      continue;
    }
    times.push(elapsed);
    if (startCpu !== undefined && endCpu !== undefined) cpuTimes.push(endCpu - startCpu);
  }
  return { threads: threads === undefined ? 'default' : String(threads), times, cpuTimes, matches, error };
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const files = generateChange(options.lines);
  if (options.against !== undefined) {
    process.stdout.write(`${(await againstRef(options.against, files, ENGINE_OPTIONS, options.rounds)).join('\n')}\n`);
    return;
  }
  const totalLines = files.reduce((s, f) => s + f.lines, 0);
  const memBefore = process.memoryUsage();

  // Warm-up (grammars registered, rule objects compiled by the JIT), then the timed runs.
  const warm = review(files);
  const { wall: times, cpu: cpuTimes } = timeRuns(options.runs, () => review(files));
  const wall = median(times);
  const cpu = median(cpuTimes);
  const memAfter = process.memoryUsage();

  // Per language: the same files grouped, each group reviewed as its own change.
  const perLanguage = SPEED_LANGUAGES.map((language) => {
    const group = files.filter((f) => f.language === language);
    const lines = group.reduce((s, f) => s + f.lines, 0);
    const ms = median(timeRuns(options.runs, () => review(group)).wall);
    return { language, files: group.length, lines, ms, linesPerSecond: (lines / ms) * 1000 };
  });

  // Per file: each file alone, as a one-file pull request.
  const latencies = files.map((f) => {
    const start = now();
    review([f]);
    return now() - start;
  });
  const sortedLatencies = [...latencies].sort((a, b) => a - b);

  const pr = subset(files, options.prLines);
  const prLines = pr.reduce((s, f) => s + f.lines, 0);
  const prMs = median(timeRuns(Math.max(options.runs, 5), () => review(pr)).wall);

  let baseline: { rules: number; files: number; runs: CliRun[]; dir: string } | { error: string } | undefined;
  if (options.baseline) {
    const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin/ast-grep');
    const dir = mkdtempSync(join(tmpdir(), 'redline-speed-'));
    try {
      const source = join(dir, 'src');
      for (const f of files) {
        const target = join(source, f.file.path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, f.file.content ?? '');
      }
      const project = join(dir, 'sg');
      const rules = writeSgProject(project);
      const runs = [
        runCli(bin, project, source, 1, options.runs),
        runCli(bin, project, source, undefined, options.runs),
      ];
      baseline = { rules, files: files.length, runs, dir };
    } catch (error) {
      baseline = { error: String(error) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const ours = {
    files: files.length,
    changedLines: totalLines,
    runsMs: times,
    wallMs: wall,
    linesPerSecond: (totalLines / wall) * 1000,
    cpuRunsMs: cpuTimes,
    cpuMs: cpu,
    linesPerCpuSecond: (totalLines / cpu) * 1000,
    findings: warm.findings.length,
    perLanguage,
    perFileMs: {
      p50: percentile(sortedLatencies, 50),
      p95: percentile(sortedLatencies, 95),
      p99: percentile(sortedLatencies, 99),
      max: sortedLatencies[sortedLatencies.length - 1] ?? 0,
    },
    memory: {
      rssBeforeMb: memBefore.rss / MB,
      rssAfterMb: memAfter.rss / MB,
      heapUsedBeforeMb: memBefore.heapUsed / MB,
      heapUsedAfterMb: memAfter.heapUsed / MB,
    },
    pullRequest: { files: pr.length, changedLines: prLines, ms: prMs },
  };

  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ours, baseline }, null, 2)}\n`);
    return;
  }

  const out: string[] = [];
  out.push(
    `change: ${fmt(files.length)} new files, ${fmt(totalLines)} changed lines (seeded, bench/speed/generate.ts)`,
  );
  out.push(`rules: ${RULES.length} (security and performance checks on); node ${process.version}, one thread`);
  out.push('');
  out.push(`redline engine (reviewChange), warm-up + ${options.runs} runs, median:`);
  out.push(`  wall time     ${fmt(wall, 1)} ms   (runs: ${times.map((t) => fmt(t, 1)).join(', ')} ms)`);
  out.push(
    `  throughput    ${fmt(ours.linesPerSecond)} changed lines/s   (target >= 50,000) -> ${ours.linesPerSecond >= 50_000 ? 'meets' : 'below'} target`,
  );
  out.push(
    `  cpu time      ${fmt(cpu, 1)} ms, ${fmt(ours.linesPerCpuSecond)} changed lines per cpu-second   (runs: ${cpuTimes.map((t) => fmt(t, 1)).join(', ')} ms)`,
  );
  out.push(`  findings      ${fmt(warm.findings.length)}`);
  out.push(
    `  5,000-line PR ${fmt(prMs, 1)} ms for ${fmt(prLines)} lines in ${pr.length} files   (target < 1,000 ms) -> ${prMs < 1000 ? 'meets' : 'misses'} target`,
  );
  out.push(
    '  per file      ' +
      `p50 ${fmt(ours.perFileMs.p50, 2)} ms, p95 ${fmt(ours.perFileMs.p95, 2)} ms, p99 ${fmt(ours.perFileMs.p99, 2)} ms, max ${fmt(ours.perFileMs.max, 2)} ms (${files.length} files, each reviewed alone)`,
  );
  out.push(
    `  memory        rss ${fmt(ours.memory.rssBeforeMb, 1)} -> ${fmt(ours.memory.rssAfterMb, 1)} MB, heapUsed ${fmt(ours.memory.heapUsedBeforeMb, 1)} -> ${fmt(ours.memory.heapUsedAfterMb, 1)} MB`,
  );
  out.push('');
  out.push('  language     files   lines   ms       lines/s');
  for (const l of perLanguage) {
    out.push(
      `  ${l.language.padEnd(12)} ${String(l.files).padStart(5)} ${fmt(l.lines).padStart(7)}   ${fmt(l.ms, 1).padStart(7)}  ${fmt(l.linesPerSecond).padStart(9)}`,
    );
  }
  out.push('');
  if (baseline === undefined) out.push('ast-grep CLI baseline: skipped (--no-baseline)');
  else if ('error' in baseline) out.push(`ast-grep CLI baseline failed: ${baseline.error}`);
  else {
    out.push(
      `ast-grep CLI baseline (ast-grep scan --json, same files, ${baseline.rules} YAML rules converted from our packs), ${options.runs} runs, median:`,
    );
    for (const run of baseline.runs) {
      if (run.error) {
        out.push(`  threads ${run.threads}: failed: ${run.error}`);
        continue;
      }
      const ms = median(run.times);
      const cpuMs = run.cpuTimes.length > 0 ? median(run.cpuTimes) : undefined;
      out.push(
        `  threads ${run.threads.padEnd(7)} ${fmt(ms, 1).padStart(8)} ms  ${fmt((totalLines / ms) * 1000).padStart(9)} lines/s  ${fmt(run.matches)} matches   (runs: ${run.times.map((t) => fmt(t, 1)).join(', ')} ms)${cpuMs === undefined ? '' : `; cpu ${fmt(cpuMs, 0)} ms`}`,
      );
    }
    const single = baseline.runs[0];
    if (single && !single.error && single.times.length > 0) {
      const ratio = median(single.times) / wall;
      out.push(
        `  redline vs ast-grep (one thread each): ${fmt(ratio, 2)}x ${ratio >= 1 ? 'faster' : 'slower'} (the CLI's time includes process start and file reading; ours excludes I/O)`,
      );
      if (single.cpuTimes.length > 0) {
        const cpuRatio = median(single.cpuTimes) / cpu;
        out.push(
          `  same in cpu time: ${fmt(cpuRatio, 2)}x ${cpuRatio >= 1 ? 'faster' : 'slower'} (cpu time moves less with the machine's load than wall time)`,
        );
      }
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();
