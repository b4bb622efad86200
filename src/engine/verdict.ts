import { atOrAbove, type Severity } from '../common/severity.js';
import type { Finding } from './types.js';

export type Verdict = 'approved' | 'changes_requested' | 'commented';

/**
 * Decisions §7 defaults: request changes for anything at or above `important`, approve when
 * nothing reaches `warning` (and approval is enabled), comment otherwise.
 */
export function verdictOf(
  findings: readonly Pick<Finding, 'severity'>[],
  options: { requestChangesOn?: Severity; approve?: boolean } = {},
): Verdict {
  const threshold = options.requestChangesOn ?? 'important';
  if (findings.some((f) => atOrAbove(f.severity, threshold))) return 'changes_requested';
  if ((options.approve ?? true) && !findings.some((f) => atOrAbove(f.severity, 'warning'))) return 'approved';
  return 'commented';
}
