/**
 * Finding severities, most severe first. Every list, count, sort and threshold reads this order;
 * the client keeps a copy (the API's vocabulary as it reads it) that a test compares with it.
 */
export const SEVERITIES = ['critical', 'important', 'warning', 'info'] as const;

export type Severity = (typeof SEVERITIES)[number];

/** For sort(): the more severe first. */
export function compareSeverity(a: Severity, b: Severity): number {
  return SEVERITIES.indexOf(a) - SEVERITIES.indexOf(b);
}

/** Whether `severity` reaches `threshold` (`critical` reaches every threshold). */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return compareSeverity(severity, threshold) <= 0;
}
