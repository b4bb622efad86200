/**
 * bench/engine-quality: precision and recall of the review engine on the labelled corpus.
 *
 *   npm run bench:engine-quality [-- --seed N] [-- --lang python] [-- --case ID] [-- --json]
 *   npm run bench:engine-quality -- --corpus holdout     (the held-out corpus, bench/holdout)
 *   npm run bench:engine-quality -- --corpus holdout-2   (the second held-out corpus, bench/holdout-2)
 *   npm run bench:engine-quality -- --corpus holdout-3   (the third held-out corpus, bench/holdout-3)
 *   npm run bench:engine-quality -- --corpus holdout-4   (the fourth held-out corpus, bench/holdout-4)
 *   npm run bench:engine-quality -- --corpus holdout-5   (the fifth held-out corpus, bench/holdout-5)
 *   npm run bench:engine-quality -- --corpus holdout-6   (the sixth held-out corpus, bench/holdout-6)
 *   npm run bench:engine-quality -- --corpus holdout-7   (the seventh held-out corpus, bench/holdout-7)
 *   npm run bench:engine-quality -- --corpus holdout-8   (the eighth held-out corpus, bench/holdout-8)
 *   npm run bench:engine-quality -- --corpus holdout-9   (the ninth held-out corpus, bench/holdout-9)
 *   npm run bench:engine-quality -- --corpus holdout-10  (the tenth held-out corpus, bench/holdout-10, scored blind once)
 *
 * Each case is one changed file given to `reviewChange` with security and performance checks on.
 * A finding matches a label when file, line (exactly) and type agree. A finding that matches a
 * label is a true positive, one that matches none a false positive; a label no finding matches is
 * a false negative. Precision = matching findings / findings; recall = matched labels / labels.
 * Per-severity and per-type precision use the finding's own severity and type, recall the label's.
 * It prints figures and exits 0: it is a measurement, not a test (a broken corpus exits 1).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { atOrAbove, SEVERITIES, type Severity } from '../src/common/severity.js';
import { FINDING_TYPES } from '../src/engine/finding-types.js';
import { reviewChange } from '../src/engine/review-change.js';
import type { Finding } from '../src/engine/types.js';
import {
  CORPORA,
  type CorpusCase,
  type CorpusName,
  corpusDir,
  LANGUAGES,
  type Label,
  loadCorpus,
  toChangedFile,
} from './corpus/load.js';
import { placeholderFiller } from './corpus/placeholders.js';

interface Options {
  corpus: CorpusName;
  seed: number;
  lang?: string | undefined;
  caseId?: string | undefined;
  /** Leave out the cases listed in the corpus's seen.txt (seen by someone tuning the rules). */
  unseen: boolean;
  json: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { corpus: 'corpus', seed: 20240401, unseen: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--json') options.json = true;
    else if (arg === '--unseen') options.unseen = true;
    else if (arg === '--seed' && value !== undefined) {
      options.seed = Number(value);
      i++;
    } else if (arg === '--lang' && value !== undefined) {
      options.lang = value;
      i++;
    } else if (arg === '--corpus' && value !== undefined && (CORPORA as readonly string[]).includes(value)) {
      options.corpus = value as CorpusName;
      i++;
    } else if (arg === '--case' && value !== undefined) {
      options.caseId = value;
      i++;
    } else {
      process.stderr.write(
        `unknown argument ${arg}\nusage: engine-quality [--corpus ${CORPORA.join('|')}] [--seed N] [--lang L] [--case ID] [--unseen] [--json]\n`,
      );
      process.exit(2);
    }
  }
  return options;
}

interface ScoredFinding {
  case: CorpusCase;
  finding: Finding;
  matched: boolean;
  /** Another finding already matched the same label: a repeated comment. */
  duplicate: boolean;
}

interface ScoredLabel {
  case: CorpusCase;
  label: Label;
  matched: boolean;
  /** A finding on the label's line with another type: a near miss worth knowing about. */
  sameLineOtherType?: Finding | undefined;
  /** The matching finding's severity, when it differs from the label's. */
  severityGiven?: Severity | undefined;
}

interface Tally {
  findings: number;
  truePositives: number;
  labels: number;
  matchedLabels: number;
}

const emptyTally = (): Tally => ({ findings: 0, truePositives: 0, labels: 0, matchedLabels: 0 });

function tally(findings: ScoredFinding[], labels: ScoredLabel[]): Tally {
  return {
    findings: findings.length,
    truePositives: findings.filter((f) => f.matched).length,
    labels: labels.length,
    matchedLabels: labels.filter((l) => l.matched).length,
  };
}

/**
 * The ids in `<corpus dir>/seen.txt` (one per line, `#` comments): cases of a held-out corpus
 * that someone tuning the rules saw by accident, so figures without them stay blind.
 */
function seenCases(dir: string): Set<string> {
  const file = join(dir, 'seen.txt');
  if (!existsSync(file)) return new Set();
  const ids = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
  return new Set(ids);
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  let cases: CorpusCase[];
  try {
    cases = loadCorpus(corpusDir(options.corpus));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  if (options.unseen) {
    const seen = seenCases(corpusDir(options.corpus));
    cases = cases.filter((c) => !seen.has(c.id));
    if (!options.json) console.log(`--unseen: ${seen.size} cases seen by someone tuning the rules left out`);
  }
  if (options.lang) cases = cases.filter((c) => c.language === options.lang);
  if (options.caseId) cases = cases.filter((c) => c.id === options.caseId);

  const fill = placeholderFiller(options.seed);
  const scoredFindings: ScoredFinding[] = [];
  const scoredLabels: ScoredLabel[] = [];
  const errors: { case: CorpusCase; message: string }[] = [];
  const started = performance.now();

  for (const c of cases) {
    const file = toChangedFile(c, (text) => fill(text, c.id));
    let findings: Finding[] = [];
    try {
      // `await` keeps the harness working if the engine becomes asynchronous.
      const result = await reviewChange({ files: [file] }, { checkSecurity: true, checkPerformance: true });
      findings = result.findings;
    } catch (error) {
      errors.push({ case: c, message: (error as Error).stack ?? String(error) });
    }
    const labelHits = new Map<Label, number>();
    for (const finding of findings) {
      const label = c.labels.find((l) => finding.file === c.path && finding.line === l.line && finding.type === l.type);
      const hits = label ? (labelHits.get(label) ?? 0) : 0;
      if (label) labelHits.set(label, hits + 1);
      scoredFindings.push({ case: c, finding, matched: label !== undefined, duplicate: hits > 0 });
    }
    for (const label of c.labels) {
      const match = findings.find((f) => f.file === c.path && f.line === label.line && f.type === label.type);
      scoredLabels.push({
        case: c,
        label,
        matched: match !== undefined,
        sameLineOtherType: match ? undefined : findings.find((f) => f.file === c.path && f.line === label.line),
        severityGiven: match && match.severity !== label.severity ? match.severity : undefined,
      });
    }
  }
  const elapsedMs = performance.now() - started;

  const groups: { section: string; name: string; t: Tally }[] = [];
  const add = (section: string, name: string, f: ScoredFinding[], l: ScoredLabel[]) =>
    groups.push({ section, name, t: tally(f, l) });
  add('overall', 'all', scoredFindings, scoredLabels);
  const ci = (s: Severity) => atOrAbove(s, 'important');
  add(
    'overall',
    'critical+important',
    scoredFindings.filter((f) => ci(f.finding.severity)),
    scoredLabels.filter((l) => ci(l.label.severity)),
  );
  for (const severity of SEVERITIES) {
    add(
      'severity',
      severity,
      scoredFindings.filter((f) => f.finding.severity === severity),
      scoredLabels.filter((l) => l.label.severity === severity),
    );
  }
  for (const type of FINDING_TYPES) {
    add(
      'type',
      type,
      scoredFindings.filter((f) => f.finding.type === type),
      scoredLabels.filter((l) => l.label.type === type),
    );
  }
  for (const language of LANGUAGES) {
    add(
      'language',
      language,
      scoredFindings.filter((f) => f.case.language === language),
      scoredLabels.filter((l) => l.case.language === language),
    );
  }
  const kinds = [...new Set(scoredLabels.map((l) => l.label.kind))].sort();
  for (const kind of kinds) {
    add(
      'kind (recall only)',
      kind,
      [],
      scoredLabels.filter((l) => l.label.kind === kind),
    );
  }
  const rules = [...new Set(scoredFindings.map((f) => f.finding.ruleId))].sort();
  for (const rule of rules) {
    add(
      'rule (precision only)',
      rule,
      scoredFindings.filter((f) => f.finding.ruleId === rule),
      [],
    );
  }

  const clean = cases.filter((c) => c.labels.length === 0);
  const noisyClean = clean.filter((c) => scoredFindings.some((f) => f.case === c));
  const ciTally = groups.find((g) => g.name === 'critical+important')?.t ?? emptyTally();
  const ciPrecision = ratio(ciTally.truePositives, ciTally.findings);
  const ciRecall = ratio(ciTally.matchedLabels, ciTally.labels);
  const falsePositives = scoredFindings.filter((f) => !f.matched);
  const falseNegatives = scoredLabels.filter((l) => !l.matched);
  const severityDisagreements = scoredLabels.filter((l) => l.severityGiven !== undefined);

  if (options.json) {
    const figure = (t: Tally) => ({
      ...t,
      precision: ratio(t.truePositives, t.findings),
      recall: ratio(t.matchedLabels, t.labels),
    });
    const out = {
      ...(options.corpus === 'corpus' ? {} : { corpus: options.corpus }),
      seed: options.seed,
      cases: cases.length,
      cleanCases: clean.length,
      cleanCasesWithFindings: noisyClean.length,
      labels: scoredLabels.length,
      findings: scoredFindings.length,
      elapsedMs: Math.round(elapsedMs),
      groups: groups.map((g) => ({ section: g.section, name: g.name, ...figure(g.t) })),
      falsePositives: falsePositives.map((f) => ({
        case: f.case.id,
        file: f.finding.file,
        line: f.finding.line,
        ruleId: f.finding.ruleId,
        type: f.finding.type,
        severity: f.finding.severity,
        duplicate: f.duplicate,
      })),
      falseNegatives: falseNegatives.map((l) => ({ case: l.case.id, ...l.label })),
      errors: errors.map((e) => ({ case: e.case.id, message: e.message })),
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }

  const fmt = (value: number | null) => (value === null ? '   —' : value.toFixed(2));
  const lines: string[] = [];
  const print = (s = '') => lines.push(s);
  const byLanguage = LANGUAGES.map((language) => {
    const of = cases.filter((c) => c.language === language);
    const cleanOf = of.filter((c) => c.labels.length === 0).length;
    return `${language} ${of.length - cleanOf}/${cleanOf}`;
  });
  print('Redline engine quality');
  print(
    `${options.corpus === 'corpus' ? 'corpus' : `held-out corpus (bench/${options.corpus})`}: ${cases.length} cases (${cases.length - clean.length} with problems, ${clean.length} clean), ` +
      `${scoredLabels.length} labels; seed ${options.seed}; ${elapsedMs.toFixed(0)} ms`,
  );
  print(`cases per language (with problems/clean): ${byLanguage.join(', ')}`);
  print(`findings: ${scoredFindings.length}; clean cases with any finding: ${noisyClean.length}/${clean.length}`);
  if (errors.length > 0) print(`engine errors: ${errors.length} case(s) threw (their labels count as missed)`);
  print();
  print(
    `critical+important: precision ${fmt(ciPrecision)} (target >= 0.90), recall ${fmt(ciRecall)} (target >= 0.80)` +
      `  -> ${ciPrecision !== null && ciPrecision >= 0.9 && ciRecall !== null && ciRecall >= 0.8 ? 'meets' : 'below'} target`,
  );
  print();
  const width = Math.max(24, ...groups.map((g) => g.name.length + 2));
  let section = '';
  for (const g of groups) {
    if (g.section !== section) {
      section = g.section;
      print();
      print(
        `${section.padEnd(width)}${'findings'.padStart(9)}${'TP'.padStart(6)}${'FP'.padStart(6)}` +
          `${'labels'.padStart(8)}${'found'.padStart(7)}${'FN'.padStart(6)}${'precision'.padStart(11)}${'recall'.padStart(8)}`,
      );
    }
    const t = g.t;
    print(
      `  ${g.name.padEnd(width - 2)}${String(t.findings).padStart(9)}${String(t.truePositives).padStart(6)}` +
        `${String(t.findings - t.truePositives).padStart(6)}${String(t.labels).padStart(8)}` +
        `${String(t.matchedLabels).padStart(7)}${String(t.labels - t.matchedLabels).padStart(6)}` +
        `${fmt(ratio(t.truePositives, t.findings)).padStart(11)}${fmt(ratio(t.matchedLabels, t.labels)).padStart(8)}`,
    );
  }
  print();
  print(`false positives (${falsePositives.length}): case, file:line, rule, type/severity, code`);
  for (const f of falsePositives) {
    const code = f.case.content.split('\n')[f.finding.line - 1]?.trim() ?? '';
    print(
      `  ${f.case.id}  ${f.finding.file}:${f.finding.line}  ${f.finding.ruleId}  ${f.finding.type}/${f.finding.severity}` +
        `${f.duplicate ? '  (repeats a matched finding)' : ''}  | ${code.slice(0, 100)}`,
    );
  }
  print();
  print(`false negatives (${falseNegatives.length}): case, line, kind, expected type/severity, code`);
  for (const l of falseNegatives) {
    const code = l.case.content.split('\n')[l.label.line - 1]?.trim() ?? '';
    const near = l.sameLineOtherType
      ? `  (found ${l.sameLineOtherType.ruleId} as ${l.sameLineOtherType.type} on that line)`
      : '';
    print(
      `  ${l.case.id}  ${l.case.path}:${l.label.line}  ${l.label.kind}  ${l.label.type}/${l.label.severity}${near}` +
        `  | ${code.slice(0, 100)}`,
    );
  }
  if (severityDisagreements.length > 0) {
    print();
    print(`matched with another severity (${severityDisagreements.length}): case, line, kind, labelled -> given`);
    for (const l of severityDisagreements) {
      print(
        `  ${l.case.id}  ${l.case.path}:${l.label.line}  ${l.label.kind}  ${l.label.severity} -> ${l.severityGiven}`,
      );
    }
  }
  if (errors.length > 0) {
    print();
    print('engine errors:');
    for (const e of errors) print(`  ${e.case.id}: ${e.message.split('\n').slice(0, 3).join(' / ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
