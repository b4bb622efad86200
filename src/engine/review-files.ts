import { DiffIndex } from '../common/diff/diff-index.js';
import { orderFindings } from '../common/order-findings.js';
import { compareSeverity } from '../common/severity.js';
import { classifyFile, type SkipReason } from './files/classify-file.js';
import { type FileRole, fileRole } from './files/file-role.js';
import { applyRolePolicy } from './files/role-policy.js';
import type { Language } from './languages.js';
import { findSecrets } from './secrets/find-secrets.js';
import { type SkippedFile, summarize } from './summarize.js';
import { testCoverage } from './test-coverage.js';
import type { ChangedFile, ChangeSet, EngineOptions, EngineResult, Finding } from './types.js';

/** A review's analysis stops starting new files after this long (hostile or enormous changes). */
export const REVIEW_TIME_BUDGET_MS = 60_000;

const SKIP_LABEL: Record<SkipReason, string> = {
  lock: 'lock file',
  minified: 'minified',
  generated: 'generated',
  vendored: 'vendored',
  binary: 'binary',
  too_large: 'too large to review',
};

/** Rules, flow analysis and complexity for one file in a language we read (analyze-source.ts). */
export type SourceAnalyzer = (
  file: ChangedFile,
  language: Language,
  role: FileRole,
  index: DiffIndex,
  options: EngineOptions,
) => { findings: Finding[]; complexities: number[] };

/** The language of each file the review would analyze as source (not removed, not skipped, with a diff). */
function sourceLanguage(file: ChangedFile): Language | undefined {
  if (file.status === 'removed' || file.patch === undefined) return undefined;
  const kind = classifyFile(file);
  return kind.skip ? undefined : kind.language;
}

/**
 * Whether `reviewFiles` needs a source analyzer for this change: a file in a language we read.
 * A caller that loads the analyzer only when needed (`redline review` of a docs-only change) asks first.
 */
export const needsSourceAnalysis = (change: ChangeSet): boolean =>
  change.files.some((f) => sourceLanguage(f) !== undefined);

/**
 * The engine's review of a change, with the source analyzer as a part (review-change.ts gives the
 * one there is): a change in, findings and measurements out, no I/O. Each file is classified
 * (lock, generated, vendored, minified, binary and oversized files are skipped and listed),
 * scanned for secrets on its added lines, and, in a language we read, handed to `analyze`.
 * Findings land only on added lines, and a test, fixture, docs or example file's are kept,
 * lowered or dropped by its role (`files/role-policy.ts`). Throws when a file needs `analyze` and
 * it is not given (see `needsSourceAnalysis`).
 */
export function reviewFiles(change: ChangeSet, options: EngineOptions, analyze?: SourceAnalyzer): EngineResult {
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
      if (analyze === undefined)
        throw new Error(`${file.path} is in ${kind.language}: the review needs a source analyzer`);
      const result = analyze(file, kind.language, role, index, options);
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
