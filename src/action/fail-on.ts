import { type ReviewComment, SEVERITIES } from '../client/api-types.js';
import type { FailOn } from './action-inputs.js';

/** The comments that make the step fail under `fail-on` (decisions §8): at or above the level. */
export function commentsAtOrAbove(comments: ReviewComment[], failOn: FailOn): ReviewComment[] {
  if (failOn === 'never') return [];
  return comments.filter((c) => SEVERITIES.indexOf(c.severity) <= SEVERITIES.indexOf(failOn));
}

/** "1 critical, 2 warning": the counts by severity, most severe first, zeros left out. */
export function countsBySeverity(comments: ReviewComment[]): string {
  return SEVERITIES.map((s) => [s, comments.filter((c) => c.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}

/** Why the step fails on these comments, or undefined when it passes. */
export function failOnMessage(comments: ReviewComment[], failOn: FailOn): string | undefined {
  const blocking = commentsAtOrAbove(comments, failOn);
  if (blocking.length === 0) return undefined;
  const noun = blocking.length === 1 ? 'comment' : 'comments';
  return `Redline found ${blocking.length} ${noun} at or above fail-on "${failOn}": ${countsBySeverity(blocking)}.`;
}
