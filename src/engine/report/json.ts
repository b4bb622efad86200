import type { Finding } from '../types.js';
import { orderFindings, type ReportInput, type ReportStats, reportScore, reportStats } from './report-input.js';

/**
 * Spec 2.4 plus `rule_id`, the rule that made the finding, so a script can filter or count by
 * rule; the optional fields are left out when empty, as the API does.
 */
export interface ReportComment {
  id: string;
  type: Finding['type'];
  severity: Finding['severity'];
  message: string;
  file: string;
  line: number;
  rule_id: string;
  suggestion?: string;
  code_snippet?: string;
}

export interface JsonReport {
  score: number;
  summary: string;
  stats: ReportStats;
  comments: ReportComment[];
}

/**
 * `redline review --format json`: `{ score, summary, stats, comments }` in the API's shapes (each
 * comment with its `rule_id` too), and nothing else. Comment ids are `cmt_` and the finding's fingerprint, so two runs on the same
 * change print the same document (a repeated fingerprint gets a counter).
 */
export function toJson(input: ReportInput): JsonReport {
  const seen = new Map<string, number>();
  const comments = orderFindings(input.findings).map((f): ReportComment => {
    const key = f.fingerprint.replace(/[^0-9A-Za-z]/g, '').slice(0, 56) || 'x';
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return {
      id: n === 1 ? `cmt_${key}` : `cmt_${key}n${n}`,
      type: f.type,
      severity: f.severity,
      message: f.message,
      file: f.file,
      line: f.line,
      rule_id: f.ruleId,
      ...(f.suggestion !== undefined ? { suggestion: f.suggestion } : {}),
      ...(f.codeSnippet !== undefined ? { code_snippet: f.codeSnippet } : {}),
    };
  });
  return { score: reportScore(input), summary: input.summary, stats: reportStats(input), comments };
}
