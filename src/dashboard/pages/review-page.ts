import type { Review, ReviewComment, ReviewStatistics } from '../../client/index.js';
import { currentRoute, type Dashboard, modeOf, type Page } from '../dashboard.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';

/** While a review is pending or in progress, the page reads it again this often. */
const REFRESH_MS = 1500;

/** One review: status, score, summary, stats, comments by file in line order, and its actions. */
export async function reviewPage(dash: Dashboard, id: string): Promise<Page> {
  const api = dash.api(modeOf(currentRoute().query));
  const review = await api.getReview(id);
  const running = review.status === 'pending' || review.status === 'in_progress';
  if (running) {
    const timer = setTimeout(() => dash.refresh(), REFRESH_MS);
    dash.onLeave(() => clearTimeout(timer));
  }
  const [comments, stats] =
    review.status === 'completed'
      ? await Promise.all([api.listComments(id), api.getReviewStats(id)])
      : [[] as ReviewComment[], undefined];
  const slot = h('div', { 'aria-live': 'polite' });
  const action = (label: string, run: () => Promise<unknown>) =>
    h(
      'button',
      {
        type: 'button',
        onclick: () =>
          withErrorIn(slot, async () => {
            await run();
            dash.refresh();
          }),
      },
      label,
    );
  const actions = h(
    'div',
    { class: 'actions' },
    review.status === 'pending' ? action('Start', () => api.startReview(id)) : null,
    running ? action('Cancel review', () => api.cancelReview(id)) : null,
    review.status === 'failed' ? action('Retry', () => api.retryReview(id)) : null,
  );
  const pr = review.pull_request;
  return {
    title: pr.title ?? `${pr.repository ?? 'Pull request'} #${pr.number}`,
    body: h(
      'div',
      {},
      h(
        'p',
        {},
        h('a', { href: pr.url, rel: 'noreferrer' }, `${pr.repository ?? pr.url} #${pr.number}`),
        pr.author ? ` by ${pr.author}` : '',
      ),
      overview(review, running),
      actions,
      slot,
      review.error ? errorBox(new Error(`${review.error.code}: ${review.error.message}`)) : null,
      review.summary
        ? h(
            'section',
            { 'aria-labelledby': 'h-summary' },
            h('h2', { id: 'h-summary' }, 'Summary'),
            h('p', { class: 'summary' }, review.summary),
          )
        : null,
      stats ? statsSection(stats) : null,
      review.status === 'completed' ? await commentsSection(review, comments) : null,
    ),
  };
}

function overview(review: Review, running: boolean): HTMLElement {
  const item = (term: string, value: Node | string) => [h('dt', {}, term), h('dd', {}, value)];
  return h(
    'dl',
    { class: 'overview' },
    item(
      'Status',
      h(
        'span',
        { class: `badge status-${review.status}`, role: 'status' },
        review.status.replace('_', ' '),
        running ? ' (refreshing)' : '',
      ),
    ),
    item('Score', review.score === null ? '—' : `${review.score} / 100`),
    item('Created', when(review.created_at)),
    item('Completed', when(review.completed_at)),
    review.stats
      ? item(
          'Change',
          `${review.stats.files_changed} files, +${review.stats.lines_added} −${review.stats.lines_deleted}`,
        )
      : [],
  );
}

function statsSection(stats: ReviewStatistics): HTMLElement {
  const rows: [string, string][] = [
    ['Files analyzed', String(stats.files_analyzed)],
    ['Lines analyzed', String(stats.lines_analyzed)],
    ['Average complexity', stats.complexity_avg.toFixed(1)],
    ['Test coverage', `${Math.round(stats.test_coverage * 100) / 100}`],
    ['Processing time', `${stats.processing_time_ms} ms`],
    ['Model tokens used', String(stats.tokens_used)],
    ...Object.entries(stats.issues_by_severity).map(([k, v]): [string, string] => [`Issues: ${k}`, String(v)]),
    ...Object.entries(stats.issues_by_type).map(([k, v]): [string, string] => [`Type: ${k}`, String(v)]),
  ];
  return h(
    'section',
    { 'aria-labelledby': 'h-stats' },
    h('h2', { id: 'h-stats' }, 'Statistics'),
    h(
      'dl',
      { class: 'stats' },
      rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
    ),
  );
}

async function commentsSection(review: Review, comments: ReviewComment[]): Promise<HTMLElement> {
  const heading = h('h2', { id: 'h-comments' }, `Comments (${comments.length})`);
  if (comments.length === 0) {
    return h(
      'section',
      { 'aria-labelledby': 'h-comments' },
      heading,
      h('p', { class: 'empty' }, 'No comments: nothing to flag in this change.'),
    );
  }
  const byFile = new Map<string, ReviewComment[]>();
  for (const comment of comments) byFile.set(comment.file, [...(byFile.get(comment.file) ?? []), comment]);
  const files = await Promise.all(
    [...byFile].map(async ([file, list]) => {
      const anchor = await diffAnchor(file);
      return h(
        'section',
        { class: 'file' },
        h('h3', {}, h('code', {}, file)),
        h(
          'ol',
          { class: 'comments' },
          [...list].sort((a, b) => a.line - b.line).map((c) => commentItem(review, c, anchor)),
        ),
      );
    }),
  );
  return h('section', { 'aria-labelledby': 'h-comments' }, heading, files);
}

function commentItem(review: Review, comment: ReviewComment, anchor: string | undefined): HTMLElement {
  const href = `${review.pull_request.url}/files${anchor ? `#${anchor}R${comment.line}` : ''}`;
  return h(
    'li',
    { class: 'comment' },
    h(
      'p',
      { class: 'meta' },
      h('span', { class: `badge severity-${comment.severity}` }, comment.severity),
      ' ',
      h('span', { class: 'badge type' }, comment.type),
      ' ',
      h(
        'a',
        { href, rel: 'noreferrer' },
        `line ${comment.line}`,
        h('span', { class: 'visually-hidden' }, ` of ${comment.file} on GitHub`),
      ),
    ),
    h('p', {}, comment.message),
    comment.suggestion
      ? h(
          'div',
          {},
          h('p', { class: 'muted' }, 'Suggestion:'),
          h('pre', { class: 'suggestion' }, h('code', {}, comment.suggestion)),
        )
      : null,
  );
}

/** GitHub's anchor of a file in a pull request's diff: `diff-` and the SHA-256 of its path. */
async function diffAnchor(file: string): Promise<string | undefined> {
  // crypto.subtle exists only on https and localhost; elsewhere the link goes to the files tab.
  if (globalThis.crypto?.subtle === undefined) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(file));
  return `diff-${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
