/**
 * bench/owasp: the review engine scored on the OWASP Benchmark, the way OWASP's scorecard scores a
 * tool. It is a measurement of the engine as it is, never a source of rules.
 *
 *   npm run bench:owasp -- --java DIR --python DIR [--json FILE] [--any-commit]
 *
 * The Benchmark is not in this repository (it is GPL and large): bring it onto the machine at
 * bench time and name the checkouts. With the session's fetch tool (or plain `git clone` from
 * GitHub) and a clone of the git directory it returns:
 *
 *   fetch github:OWASP-Benchmark/BenchmarkJava    -> <mirror>/repo
 *   git clone <mirror>/repo /tmp/BenchmarkJava && git -C /tmp/BenchmarkJava checkout <JAVA pin below>
 *   (the same for github:OWASP-Benchmark/BenchmarkPython)
 *
 * A checkout at another commit than the pin is refused (figures would not compare), unless
 * --any-commit. Either language may be left out.
 *
 * Scoring (OWASP's scorecard): each test case is one file; the case is flagged when the engine
 * reports, anywhere in that file, a finding whose CWE is the case's CWE. Per category: TP = real
 * vulnerability flagged, FN = real not flagged, FP = safe case flagged, TN = safe not flagged;
 * TPR = TP/(TP+FN), FPR = FP/(FP+TN), score = TPR - FPR; the Benchmark score is the average of the
 * categories' scores. The headline is the exact CWE. A second column also counts a CWE that is a
 * child of the case's (338 of 330, 95 of 94) as a scorecard reader may translate it for a tool:
 * it shows what is lost to naming only, and is not the score.
 *
 * Each file is given to `reviewChange` alone, as a whole added file (security and performance
 * checks on, as `redline review`), in process.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reviewChange } from '../src/engine/review-change.js';
import type { Finding } from '../src/engine/types.js';
import { addedFile, checkPin, readArgs } from './external/checkout.js';

interface Suite {
  name: string;
  /** The commit the figures in bench reports were taken at. */
  pin: string;
  /** Where the test case files are, relative to the checkout, and their extension. */
  sourceDir: string;
  extension: string;
}

const SUITES: Record<'java' | 'python', Suite> = {
  java: {
    name: 'OWASP Benchmark for Java',
    pin: '79b9bd6177e07991a9c11dc19e457c840e229931',
    sourceDir: 'src/main/java/org/owasp/benchmark/testcode',
    extension: '.java',
  },
  python: {
    name: 'OWASP Benchmark for Python',
    pin: '7cf0674b9a33788ac3105e4c4a75a7fdce4c44bd',
    sourceDir: 'testcode',
    extension: '.py',
  },
};

/** CWEs a scorecard reader may translate to the Benchmark's (child -> parent in CWE's tree). */
const CHILD_CWES: Record<number, number> = { 338: 330, 95: 94 };

const USAGE =
  'usage: bench:owasp -- --java DIR --python DIR [--json FILE] [--any-commit]\n' +
  '  DIR: a clone of github:OWASP-Benchmark/BenchmarkJava or BenchmarkPython at the pinned commit\n' +
  '  (see the header of bench/owasp.ts for how to fetch them)\n';

interface CaseResult {
  test: string;
  category: string;
  real: boolean;
  cwe: number;
  flagged: boolean;
  /** Flagged when child CWEs count too (the second column). */
  flaggedWithChildren: boolean;
  findings: Pick<Finding, 'ruleId' | 'cwe' | 'line' | 'severity'>[];
}

/** The expected results: `# header` then `test name, category, real vulnerability, cwe` lines. */
function readExpected(dir: string): {
  file: string;
  rows: Omit<CaseResult, 'flagged' | 'flaggedWithChildren' | 'findings'>[];
} {
  const file = readdirSync(dir).find((f) => /^expectedresults-.*\.csv$/.test(f));
  if (file === undefined) throw new Error(`${dir}: no expectedresults-*.csv (is it a Benchmark checkout?)`);
  const rows = readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [test, category, real, cwe] = line.split(',').map((s) => s.trim());
      if (!test || !category || (real !== 'true' && real !== 'false') || !cwe)
        throw new Error(`${file}: bad line ${line}`);
      return { test, category, real: real === 'true', cwe: Number(cwe) };
    });
  return { file, rows };
}

const cweNumber = (cwe: string | undefined): number | undefined => {
  const m = /^CWE-(\d+)$/i.exec(cwe ?? '');
  return m ? Number(m[1]) : undefined;
};

async function runSuite(suite: Suite, dir: string, anyCommit: boolean, lines: string[]): Promise<CaseResult[]> {
  const commit = checkPin(suite.name, dir, suite.pin, anyCommit);
  const { file, rows } = readExpected(dir);
  const results: CaseResult[] = [];
  const cweCounts = new Map<string, number>();
  let withoutCwe = 0;
  let errors = 0;
  const started = performance.now();
  for (const row of rows) {
    const path = `${suite.sourceDir}/${row.test}${suite.extension}`;
    const file = addedFile(path, readFileSync(join(dir, path), 'utf8'));
    let findings: Finding[] = [];
    try {
      findings = (await reviewChange({ files: [file] }, { checkSecurity: true, checkPerformance: true })).findings;
    } catch {
      errors += 1;
    }
    const cwes = findings.map((f) => cweNumber(f.cwe));
    for (const f of findings) cweCounts.set(f.cwe ?? 'none', (cweCounts.get(f.cwe ?? 'none') ?? 0) + 1);
    withoutCwe += cwes.filter((c) => c === undefined).length;
    results.push({
      ...row,
      flagged: cwes.includes(row.cwe),
      flaggedWithChildren: cwes.some((c) => c !== undefined && (c === row.cwe || CHILD_CWES[c] === row.cwe)),
      findings: findings.map((f) => ({ ruleId: f.ruleId, cwe: f.cwe, line: f.line, severity: f.severity })),
    });
  }
  const elapsed = performance.now() - started;
  const total = results.reduce((s, r) => s + r.findings.length, 0);

  const print = (s = '') => lines.push(s);
  print(`${suite.name} (${file}, commit ${commit.slice(0, 12)}): ${rows.length} cases`);
  print(
    `  ${total} findings, ${withoutCwe} without a CWE; ${errors} engine error(s); ` +
      `${(elapsed / 1000).toFixed(1)} s wall (${(elapsed / rows.length).toFixed(1)} ms a case)`,
  );
  print(
    `  CWEs reported: ${[...cweCounts]
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c} ${n}`)
      .join(', ')}`,
  );
  print();
  print(
    `  ${'category'.padEnd(15)}${'CWE'.padStart(5)}${'cases'.padStart(7)}${'TP'.padStart(6)}${'FN'.padStart(6)}` +
      `${'FP'.padStart(6)}${'TN'.padStart(6)}${'TPR'.padStart(7)}${'FPR'.padStart(7)}${'score'.padStart(8)}${'w/ child CWEs'.padStart(15)}`,
  );
  const categories = [...new Set(rows.map((r) => r.category))].sort();
  const scores: { tpr: number; fpr: number; childScore: number }[] = [];
  for (const category of categories) {
    const of = results.filter((r) => r.category === category);
    const rate = (pick: (r: CaseResult) => boolean) => {
      const tp = of.filter((r) => r.real && pick(r)).length;
      const fp = of.filter((r) => !r.real && pick(r)).length;
      const real = of.filter((r) => r.real).length;
      const safe = of.length - real;
      return { tp, fn: real - tp, fp, tn: safe - fp, tpr: real ? tp / real : 0, fpr: safe ? fp / safe : 0 };
    };
    const s = rate((r) => r.flagged);
    const c = rate((r) => r.flaggedWithChildren);
    scores.push({ tpr: s.tpr, fpr: s.fpr, childScore: c.tpr - c.fpr });
    print(
      `  ${category.padEnd(15)}${String(of[0]?.cwe).padStart(5)}${String(of.length).padStart(7)}` +
        `${String(s.tp).padStart(6)}${String(s.fn).padStart(6)}${String(s.fp).padStart(6)}${String(s.tn).padStart(6)}` +
        `${s.tpr.toFixed(2).padStart(7)}${s.fpr.toFixed(2).padStart(7)}${(s.tpr - s.fpr).toFixed(2).padStart(8)}` +
        `${(c.tpr - c.fpr).toFixed(2).padStart(15)}`,
    );
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const tpr = mean(scores.map((s) => s.tpr));
  const fpr = mean(scores.map((s) => s.fpr));
  print(
    `  ${'average'.padEnd(15)}${''.padStart(47)}${tpr.toFixed(2).padStart(7)}${fpr.toFixed(2).padStart(7)}` +
      `${(tpr - fpr).toFixed(2).padStart(8)}${mean(scores.map((s) => s.childScore))
        .toFixed(2)
        .padStart(15)}`,
  );
  print(`  => ${suite.name} score (average TPR - FPR over ${categories.length} categories): ${(tpr - fpr).toFixed(3)}`);
  print();
  return results;
}

async function main(): Promise<void> {
  let args: ReturnType<typeof readArgs>;
  try {
    args = readArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const known = ['java', 'python', 'json', 'any-commit'];
  const unknown = [...args.values.keys(), ...args.flags].filter((k) => !known.includes(k));
  const chosen = (['java', 'python'] as const).filter((l) => args.values.has(l));
  if (unknown.length > 0 || chosen.length === 0) {
    process.stderr.write(`${unknown.length > 0 ? `unknown argument --${unknown[0]}\n` : ''}${USAGE}`);
    process.exit(2);
  }
  const lines: string[] = [];
  const dump: Record<string, CaseResult[]> = {};
  for (const language of chosen) {
    const dir = args.values.get(language)?.[0] as string;
    dump[language] = await runSuite(SUITES[language], dir, args.flags.has('any-commit'), lines);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const json = args.values.get('json')?.[0];
  if (json !== undefined) {
    writeFileSync(json, `${JSON.stringify(dump, null, 1)}\n`);
    process.stdout.write(`per-case results written to ${json}\n`);
  }
}

await main();
