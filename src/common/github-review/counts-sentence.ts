import { SEVERITIES, type Severity } from '../severity.js';

/** "found 3 problems (1 critical, 2 warning)", or "found no problems": the review's and the check run's first line. */
export function countsSentence(findings: readonly { severity: Severity }[]): string {
  if (findings.length === 0) return 'found no problems';
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  return `found ${findings.length} problem${findings.length === 1 ? '' : 's'} (${counts.join(', ')})`;
}
