import type { SgNode } from '@ast-grep/napi';
import { DiffIndex } from '../common/diff/diff-index.js';
import { orderFindings } from '../common/order-findings.js';
import { compareSeverity } from '../common/severity.js';
import {
  COMPLEX_FUNCTION_RULE,
  COMPLEX_FUNCTION_SEVERITY,
  COMPLEX_FUNCTION_THRESHOLD,
  complexFunctionMessage,
  functionComplexities,
  touchedFunctions,
  writtenFunctions,
} from './complexity/index.js';
import { defaultCvss } from './default-cvss.js';
import { reconstructNewSide } from './diff/reconstruct-new-side.js';
import { classifyFile, type SkipReason } from './files/classify-file.js';
import { type FileRole, fileRole } from './files/file-role.js';
import { applyRolePolicy, roleKeeps } from './files/role-policy.js';
import { fingerprintOf } from './fingerprint.js';
import { flowReview } from './flow/flow-findings.js';
import type { Language } from './languages.js';
import { parseSource } from './rules/ast-grep.js';
import { RULES } from './rules/packs/index.js';
import { runRules } from './rules/run-rules.js';
import { findSecrets } from './secrets/find-secrets.js';
import { type SkippedFile, summarize } from './summarize.js';
import { testCoverage } from './test-coverage.js';
import type { ChangedFile, ChangeSet, EngineOptions, EngineResult, Finding } from './types.js';

/** A review's analysis stops starting new files after this long (hostile or enormous changes). */
export const REVIEW_TIME_BUDGET_MS = 60_000;

export { COMPLEX_FUNCTION_THRESHOLD };

const SKIP_LABEL: Record<SkipReason, string> = {
  lock: 'lock file',
  minified: 'minified',
  generated: 'generated',
  vendored: 'vendored',
  binary: 'binary',
  too_large: 'too large to review',
};

/**
 * Rules and complexity for one source file; matches are reported on added lines only. Analyzers
 * whose every finding the file's role would drop (`role-policy.ts`) do not run.
 */
function analyzeSource(
  file: ChangedFile,
  language: Language,
  role: FileRole,
  index: DiffIndex,
  options: EngineOptions,
): { findings: Finding[]; complexities: number[] } {
  // Without the file's content, the hunks' new side is parsed alone, at real line numbers when
  // they fit (toReal maps lines back when a huge gap between hunks had to be squeezed).
  let source: string;
  let toReal: (line: number) => number | undefined = (line) => line;
  const added = new Set<number>();
  if (file.content !== undefined) {
    source = file.content;
    for (const line of index.addedLines.keys()) added.add(line);
  } else {
    const side = reconstructNewSide(index.hunks);
    source = side.text;
    if (!side.aligned) toReal = (line) => side.realLines[line - 1] || undefined;
    side.realLines.forEach((real, i) => {
      if (real !== 0 && index.isAdded(real)) added.add(i + 1);
    });
  }
  let root: SgNode;
  try {
    root = parseSource(language, source).root();
  } catch {
    return { findings: [], complexities: [] };
  }
  let matches = runRules({
    path: file.path,
    language,
    source,
    addedLines: added,
    rules: RULES,
    checkSecurity: options.checkSecurity && roleKeeps(role, 'security'),
    checkPerformance: options.checkPerformance && roleKeeps(role, 'performance'),
    root,
  });
  // After the rules' matches: on a line a rule already flags, the rule's comment is the one kept.
  // Production only: a test's request values are made up by the test (a test view that echoes a
  // query parameter is how a framework's tests exercise it), and a docs or example snippet's
  // input is nobody's.
  if (options.checkSecurity && role === 'production') {
    const flow = flowReview(language, root, file.path, source, toReal, matches);
    // A rule's match on a sink the analysis saw reached only by the code's own constants goes.
    matches = matches.filter((m) => !flow.disproves(m));
    matches.push(...flow.matches);
  }
  const findings: Finding[] = [];
  for (const m of matches) {
    const line = toReal(m.line);
    if (line === undefined || !index.isAdded(line)) continue;
    findings.push({
      type: m.type,
      severity: m.severity,
      message: m.message,
      file: file.path,
      line,
      suggestion: m.suggestion,
      codeSnippet: m.snippet,
      ruleId: m.ruleId,
      fingerprint: fingerprintOf(m.ruleId, file.path, m.code),
      cwe: m.cwe,
      cvssScore: m.cvss ?? (m.type === 'security' ? defaultCvss(m.severity) : undefined),
    });
  }
  const functions = functionComplexities(root, language);
  const touched = touchedFunctions(functions, added);
  // Only a function the change wrote or rewrote is the change's to simplify.
  for (const fn of writtenFunctions(touched, added)) {
    if (fn.complexity <= COMPLEX_FUNCTION_THRESHOLD) continue;
    // On its first line, or where a rewritten function's first added line is (a comment stays on the change).
    let first = fn.startLine;
    while (!added.has(first) && first < fn.endLine) first++;
    const startLine = toReal(first);
    if (startLine === undefined) continue;
    findings.push({
      type: 'style',
      severity: COMPLEX_FUNCTION_SEVERITY,
      message: complexFunctionMessage(fn.name, fn.complexity),
      file: file.path,
      line: startLine,
      codeSnippet: index.addedLines.get(startLine)?.trim().slice(0, 200),
      ruleId: COMPLEX_FUNCTION_RULE,
      fingerprint: fingerprintOf(COMPLEX_FUNCTION_RULE, file.path, fn.name),
    });
  }
  return { findings, complexities: touched.map((f) => f.complexity) };
}

/**
 * The engine's entry point: a change in, findings and measurements out, no I/O. Each file is
 * classified (lock, generated, vendored, minified, binary and oversized files are skipped and
 * listed), scanned for secrets on its added lines, and, in a language we read, run through the
 * rule packs and measured for complexity. Findings land only on added lines, and a test, fixture,
 * docs or example file's are kept, lowered or dropped by its role (`files/role-policy.ts`).
 */
export function reviewChange(change: ChangeSet, options: EngineOptions): EngineResult {
  const findings: Finding[] = [];
  const skipped: SkippedFile[] = [];
  const complexities: number[] = [];
  const languages: string[] = [];
  let filesAnalyzed = 0;
  let linesAnalyzed = 0;
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.timeBudgetMs ?? REVIEW_TIME_BUDGET_MS);

  for (const file of change.files) {
    if (file.status === 'removed') continue;
    if (now() > deadline) {
      skipped.push({ path: file.path, reason: 'review time budget reached' });
      continue;
    }
    const kind = classifyFile(file);
    if (kind.skip) {
      skipped.push({ path: file.path, reason: SKIP_LABEL[kind.reason] });
      continue;
    }
    if (file.patch === undefined) {
      if (file.additions + file.deletions > 0) skipped.push({ path: file.path, reason: 'no diff from GitHub' });
      continue;
    }
    const index = DiffIndex.fromPatch(file.patch);
    filesAnalyzed += 1;
    linesAnalyzed += index.addedLines.size;
    const role = fileRole(file.path, file.content ?? [...index.addedLines.values()].join('\n'));
    const found: Finding[] = [];
    if (options.checkSecurity) found.push(...findSecrets({ path: file.path, addedLines: index.addedLines }));
    if (kind.language !== undefined) {
      languages.push(kind.language);
      const result = analyzeSource(file, kind.language, role, index, options);
      found.push(...result.findings);
      complexities.push(...result.complexities);
    }
    findings.push(...applyRolePolicy(found, role));
  }

  // One comment per problem and line: a secret rule and a code rule may see the same thing.
  const seen = new Set<string>();
  const unique = orderFindings(
    findings
      .sort((a, b) => compareSeverity(a.severity, b.severity))
      .filter((f) => {
        const key = `${f.file}\0${f.line}\0${f.type}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }),
  );

  const skippedPaths = new Set(skipped.map((s) => s.path));
  const reviewed = change.files.filter((f) => f.status !== 'removed' && !skippedPaths.has(f.path));
  const complexityAvg =
    complexities.length === 0
      ? 0
      : Math.round((complexities.reduce((a, b) => a + b, 0) / complexities.length) * 10) / 10;
  return {
    findings: unique,
    analysis: {
      files_analyzed: filesAnalyzed,
      lines_analyzed: linesAnalyzed,
      complexity_avg: complexityAvg,
      test_coverage: testCoverage(change.files),
      tokens_used: 0,
    },
    summary: summarize({
      filesReviewed: reviewed.length,
      linesAdded: reviewed.reduce((s, f) => s + f.additions, 0),
      linesDeleted: reviewed.reduce((s, f) => s + f.deletions, 0),
      languages,
      findings: unique,
      skipped,
      deleted: change.files.filter((f) => f.status === 'removed'),
    }),
    skipped,
  };
}
