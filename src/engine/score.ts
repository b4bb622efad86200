import type { Severity } from '../common/severity.js';
import type { Finding } from './types.js';

export const SEVERITY_PENALTY: Record<Severity, number> = { critical: 25, important: 10, warning: 3, info: 1 };

/**
 * Decisions §4: 100 minus a penalty per comment by severity, scaled by the size of the change,
 * floored at 0. The scale is 1 up to 200 changed lines and then sqrt(200 / lines): ten warnings
 * in a 5,000-line change say less about its quality than ten in a 50-line change.
 */
export function computeScore(findings: readonly Finding[], linesChanged: number): number {
  const scale = linesChanged <= 200 ? 1 : Math.sqrt(200 / linesChanged);
  const penalty = findings.reduce((sum, f) => sum + SEVERITY_PENALTY[f.severity], 0) * scale;
  return Math.max(0, Math.round(100 - penalty));
}
