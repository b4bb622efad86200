import { type Child, h } from './h.js';

/**
 * A table of records as every page shows them: a caption for screen readers (the page's heading
 * already names it on screen), a header row of column names, then the rows.
 */
export function dataTable(
  table: { class?: string; caption: string },
  columns: readonly string[],
  rows: Child,
): HTMLElement {
  return h(
    'table',
    table.class === undefined ? {} : { class: table.class },
    h('caption', { class: 'visually-hidden' }, table.caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h('tbody', {}, rows),
  );
}
