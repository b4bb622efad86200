import type { ReviewComment } from '../client/api-types.js';
import type { ActionIo } from './action-io.js';

/**
 * One annotation per comment, on its file and line (decisions §8): error for critical and
 * important, warning for warning, notice for info. GitHub shows at most 10 of each kind per
 * step; the job summary lists them all.
 */
export function annotateComments(io: Pick<ActionIo, 'error' | 'warning' | 'notice'>, comments: ReviewComment[]) {
  for (const comment of comments) {
    const level = comment.severity === 'warning' ? 'warning' : comment.severity === 'info' ? 'notice' : 'error';
    const text = comment.suggestion ? `${comment.message}\n\nSuggested fix:\n${comment.suggestion}` : comment.message;
    io[level](text, {
      title: `Redline: ${comment.severity} ${comment.type}`,
      file: comment.file,
      startLine: comment.line,
    });
  }
}
