import type { Severity } from '../common/severity.js';
import type { FindingType } from './finding-types.js';

/** What the engine reads: a pull request's change, already fetched. The engine does no I/O. */
export interface ChangedFile {
  path: string;
  status: 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  additions: number;
  deletions: number;
  /** Unified diff of the file; absent for binary or very large files. */
  patch?: string | undefined;
  previousPath?: string | undefined;
  /**
   * The whole file at the head commit, when the reader could fetch it: rules then see full
   * context. Without it the engine parses the hunks' new side alone.
   */
  content?: string | undefined;
}

export interface ChangeSet {
  files: ChangedFile[];
}

export interface Finding {
  type: FindingType;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  suggestion?: string | undefined;
  codeSnippet?: string | undefined;
  ruleId: string;
  /** Stable across pushes: the same problem on the same code gives the same fingerprint. */
  fingerprint: string;
  cwe?: string | undefined;
  cvssScore?: number | undefined;
}

export interface EngineOptions {
  checkSecurity: boolean;
  checkPerformance: boolean;
  /**
   * Wall time the whole review may take; files not started by then are listed as skipped
   * (default REVIEW_TIME_BUDGET_MS). Size budgets bound each file; this bounds their sum.
   */
  timeBudgetMs?: number | undefined;
  /** Milliseconds clock, injectable for tests (default performance.now). */
  now?: (() => number) | undefined;
}

/** Spec 2.5 figures the engine measures (issue counters are derived from the findings). */
export interface EngineAnalysis {
  files_analyzed: number;
  lines_analyzed: number;
  complexity_avg: number;
  test_coverage: number;
  tokens_used: number;
}

export interface EngineResult {
  findings: Finding[];
  analysis: EngineAnalysis;
  summary: string;
  /** Files not reviewed and why (lock, generated, vendored, minified, binary, too large). */
  skipped: { path: string; reason: string }[];
}
