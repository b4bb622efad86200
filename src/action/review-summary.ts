import { type Review, type ReviewComment, SEVERITIES, type Severity } from '../client/api-types.js';

/** What the summary shows of a review; a review cut short by the timeout has no score yet. */
export type SummaryReview = Pick<Review, 'id' | 'status' | 'pull_request'> &
  Partial<Pick<Review, 'score' | 'summary' | 'error'>>;

export interface SummaryInput {
  review: SummaryReview;
  comments: ReviewComment[];
  reviewUrl: string;
  /** The pull request's head commit, to link each comment to its line; without it, plain text. */
  headSha: string | undefined;
  /** The step's outcome in one sentence, and whether it passed. */
  verdict: { passed: boolean; message: string };
  /** What became of the review on the pull request (posted, by whom, or why not), in Markdown. */
  posting?: string | undefined;
}

/** Table cells hold one line of text: no pipes, no raw HTML, line breaks as <br>. */
function cell(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, '<br>');
}

function linkText(text: string): string {
  return cell(text).replace(/[[\]]/g, '\\$&');
}

function location(comment: ReviewComment, pullRequestUrl: string, headSha: string | undefined): string {
  const where = `${comment.file}:${comment.line}`;
  const repositoryUrl = /^(.*)\/pull\/\d+\/?$/.exec(pullRequestUrl)?.[1];
  if (headSha === undefined || repositoryUrl === undefined) return `\`${cell(where)}\``;
  const path = comment.file.split('/').map(encodeURIComponent).join('/');
  return `[${linkText(where)}](${repositoryUrl}/blob/${headSha}/${path}#L${comment.line})`;
}

function pullRequestName(review: SummaryReview): string {
  const repository =
    review.pull_request.repository ?? /\/([^/]+\/[^/]+)\/pull\/\d+\/?$/.exec(review.pull_request.url)?.[1] ?? '';
  return `${repository}#${review.pull_request.number}`;
}

/**
 * The job summary (decisions §8): score, counts, the review's own summary, a table of comments
 * with file:line links, and the verdict. Markdown, so it reads the same in the Actions UI and in
 * a test's expected string.
 */
export function renderReviewSummary(input: SummaryInput): string {
  const { review, comments } = input;
  const completed = review.status === 'completed';
  const count = (severity: Severity) =>
    completed ? String(comments.filter((c) => c.severity === severity).length) : '–';
  const lines = [
    '## Redline review',
    '',
    `| score | status | ${SEVERITIES.join(' | ')} | comments |`,
    `| ---: | --- | ${SEVERITIES.map(() => '---:').join(' | ')} | ---: |`,
    `| ${review.score ?? '–'} | ${review.status} | ${SEVERITIES.map(count).join(' | ')} | ${completed ? comments.length : '–'} |`,
    '',
    `Review [${review.id}](${input.reviewUrl}) of [${linkText(pullRequestName(review))}](${review.pull_request.url}).`,
    '',
  ];
  if (review.error) lines.push(`> The review failed: ${review.error.message} (${review.error.code})`, '');
  else if (review.summary) lines.push(...review.summary.split(/\r?\n/).map((l) => `> ${l}`.trimEnd()), '');
  if (completed && comments.length === 0) lines.push('No comments.', '');
  if (comments.length > 0) {
    lines.push('### Comments', '', '| severity | type | location | message |', '| --- | --- | --- | --- |');
    for (const c of comments) {
      lines.push(
        `| ${c.severity} | ${cell(c.type)} | ${location(c, review.pull_request.url, input.headSha)} | ${cell(c.message)} |`,
      );
    }
    lines.push('');
  }
  if (input.posting) lines.push(input.posting, '');
  lines.push(`${input.verdict.passed ? '✅ **Passed:**' : '❌ **Failed:**'} ${input.verdict.message}`, '');
  return lines.join('\n');
}
