import type { Severity } from '../../common/severity.js';

/** The rule id of the complexity comment, which the review writes itself (no rule pack has it). */
export const COMPLEX_FUNCTION_RULE = 'general.complex-function';

/** A function more complex than this gets a comment: past it, few readers can hold all its paths. */
export const COMPLEX_FUNCTION_THRESHOLD = 15;

/**
 * A style comment, `info` like the other style findings: a long function is worth a word to its
 * author, not a warning that weighs on the verdict next to bugs (it is a cost to readers, and the
 * code may be right as it is: a parser's state machine, a type switch).
 */
export const COMPLEX_FUNCTION_SEVERITY: Severity = 'info';

export function complexFunctionMessage(name: string, complexity: number): string {
  return `${name || 'This function'} has a cyclomatic complexity of ${complexity} (threshold ${COMPLEX_FUNCTION_THRESHOLD}): split it so each part can be read and tested on its own.`;
}
