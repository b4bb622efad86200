import { REVIEW_STATUSES, type Review } from '../../client/index.js';
import { createReviewHint } from '../create-review-hint.js';
import { currentRoute, type Dashboard, modeOf, type Page } from '../dashboard.js';
import { dataTable } from '../data-table.js';
import { errorBox } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';

const SORTS: Record<string, string> = {
  '-created_at': 'Newest first',
  created_at: 'Oldest first',
  '-score': 'Highest score',
  score: 'Lowest score',
  '-completed_at': 'Recently completed',
};

const FILTERS = ['status', 'repository', 'team_id', 'created_after', 'created_before', 'sort', 'mode'] as const;

/** The reviews list: the API's filters, sorts and cursor paging; one API call per page shown. */
export async function reviewsPage(dash: Dashboard): Promise<Page> {
  const { query } = currentRoute();
  const mode = modeOf(query);
  const form = filterForm(query);
  let list: HTMLElement;
  try {
    const page = await dash.api(mode).listReviews({
      limit: 25,
      status: (query.get('status') || undefined) as Review['status'] | undefined,
      repository: query.get('repository') || undefined,
      team_id: query.get('team_id') || undefined,
      created_after: dateAt(query.get('created_after'), 'start'),
      created_before: dateAt(query.get('created_before'), 'end'),
      sort: query.get('sort') || undefined,
      after: query.get('after') || undefined,
      before: query.get('before') || undefined,
    });
    const filtered = FILTERS.some((name) => name !== 'mode' && name !== 'sort' && query.get(name));
    list =
      page.data.length === 0
        ? emptyState(mode, filtered || query.has('after') || query.has('before'))
        : h(
            'div',
            {},
            reviewTable(page.data, mode),
            pager(
              query,
              page.pagination.prev_cursor ?? null,
              page.pagination.next_cursor ?? null,
              page.pagination.has_more,
            ),
          );
  } catch (error) {
    list = errorBox(error);
  }
  return { title: mode === 'test' ? 'Reviews (test mode)' : 'Reviews', body: h('div', {}, form, list) };
}

function dateAt(day: string | null, edge: 'start' | 'end'): string | undefined {
  if (!day) return undefined;
  return `${day}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`;
}

function filterForm(query: URLSearchParams): HTMLElement {
  const field = (label: string, control: HTMLElement) =>
    h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
  const status = h(
    'select',
    { id: 'f-status', name: 'status' },
    h('option', { value: '' }, 'Any status'),
    REVIEW_STATUSES.map((s) => h('option', { value: s, selected: query.get('status') === s }, s.replace('_', ' '))),
  );
  const sort = h(
    'select',
    { id: 'f-sort', name: 'sort' },
    Object.entries(SORTS).map(([value, label]) =>
      h('option', { value, selected: (query.get('sort') ?? '-created_at') === value }, label),
    ),
  );
  const text = (id: string, name: string, placeholder?: string) =>
    h('input', { id, name, type: 'text', value: query.get(name) ?? '', placeholder });
  const date = (id: string, name: string) => h('input', { id, name, type: 'date', value: query.get(name) ?? '' });
  const mode = h(
    'fieldset',
    { class: 'mode' },
    h('legend', {}, 'Mode'),
    (['live', 'test'] as const).map((m) =>
      h(
        'label',
        {},
        h('input', { type: 'radio', name: 'mode', value: m, checked: modeOf(query) === m }),
        m === 'live' ? ' Live' : ' Test',
      ),
    ),
  );
  const form = h(
    'form',
    { class: 'filters', 'aria-label': 'Filter reviews' },
    field('Status', status),
    field('Repository', text('f-repository', 'repository', 'owner/name')),
    field('Team', text('f-team', 'team_id', 'team_…')),
    field('Created from', date('f-after', 'created_after')),
    field('Created until', date('f-before', 'created_before')),
    field('Sort', sort),
    mode,
    h('button', { type: 'submit' }, 'Apply'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, value] of new FormData(form as HTMLFormElement)) {
      if (typeof value === 'string' && value !== '' && !(name === 'mode' && value === 'live')) next.set(name, value);
    }
    location.hash = `#/reviews${next.size ? `?${next}` : ''}`;
  });
  return form;
}

function reviewTable(reviews: Review[], mode: string): HTMLElement {
  return dataTable(
    { class: 'reviews', caption: 'Reviews' },
    ['Pull request', 'Status', 'Score', 'Issues', 'Created'],
    reviews.map((review) => {
      const pr = review.pull_request;
      const name = `${pr.repository ?? ''}#${pr.number}`;
      const href = `#/reviews/${encodeURIComponent(review.id)}${mode === 'test' ? '?mode=test' : ''}`;
      return h(
        'tr',
        {},
        h('td', {}, h('a', { href }, pr.title ? `${pr.title} ` : '', h('span', { class: 'muted' }, name))),
        // data-label: the column's name, shown beside the value when the table is one column (360 px).
        h(
          'td',
          { 'data-label': 'Status' },
          h('span', { class: `badge status-${review.status}` }, review.status.replace('_', ' ')),
        ),
        h('td', { 'data-label': 'Score' }, review.score === null ? '—' : String(review.score)),
        h('td', { 'data-label': 'Issues' }, review.stats ? String(review.stats.comments_count) : '—'),
        h('td', { 'data-label': 'Created' }, when(review.created_at)),
      );
    }),
  );
}

function pager(query: URLSearchParams, prev: string | null, next: string | null, hasMore: boolean): HTMLElement {
  const link = (cursor: { after?: string; before?: string }, label: string) => {
    const q = new URLSearchParams(query);
    q.delete('after');
    q.delete('before');
    for (const [k, v] of Object.entries(cursor)) q.set(k, v);
    return h('a', { href: `#/reviews?${q}`, class: 'button' }, label);
  };
  const onLaterPage = query.has('after') || query.has('before');
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages of reviews' },
    onLaterPage && prev ? link({ before: prev }, 'Previous page') : null,
    hasMore && next ? link({ after: next }, 'Next page') : null,
  );
}

function emptyState(mode: string, filtered: boolean): HTMLElement {
  if (filtered) return h('p', { class: 'empty' }, 'No reviews match these filters.');
  return h(
    'div',
    { class: 'empty' },
    h('h2', {}, mode === 'test' ? 'No test-mode reviews yet' : 'No reviews yet'),
    createReviewHint(),
  );
}
