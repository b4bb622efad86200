import { computeScore } from '../score.js';

export { orderFindings } from '../../common/order-findings.js';

import type { ChangedFile, EngineAnalysis, Finding } from '../types.js';

/** What the renderers read: the engine's result and the files it was run on. */
export interface ReportInput {
  files: readonly Pick<ChangedFile, 'additions' | 'deletions'>[];
  findings: readonly Finding[];
  summary: string;
  analysis?: EngineAnalysis | undefined;
}

/** Spec 2.3, computed as the API computes a completed review's stats. */
export interface ReportStats {
  files_changed: number;
  lines_added: number;
  lines_deleted: number;
  comments_count: number;
  issues: { critical: number; important: number; warning: number; suggestion: number };
}

export function reportStats(input: Pick<ReportInput, 'files' | 'findings'>): ReportStats {
  const count = (severity: Finding['severity']) => input.findings.filter((f) => f.severity === severity).length;
  return {
    files_changed: input.files.length,
    lines_added: input.files.reduce((sum, f) => sum + f.additions, 0),
    lines_deleted: input.files.reduce((sum, f) => sum + f.deletions, 0),
    comments_count: input.findings.length,
    issues: {
      critical: count('critical'),
      important: count('important'),
      warning: count('warning'),
      suggestion: count('info'),
    },
  };
}

/** The API's score: decisions §4 over every changed line, added or deleted. */
export function reportScore(input: Pick<ReportInput, 'files' | 'findings'>): number {
  const stats = reportStats(input);
  return computeScore(input.findings, stats.lines_added + stats.lines_deleted);
}

/** The API's comment order: by file, then line (stable for ties). */
