import type { Usage } from '../../client/index.js';
import { type BarGroup, barChart } from '../bar-chart.js';
import { createReviewHint } from '../create-review-hint.js';
import { currentRoute, type Dashboard, type Mode, modeOf, type Page } from '../dashboard.js';
import { dataTable } from '../data-table.js';
import { errorBox } from '../error-box.js';
import { h } from '../h.js';

const PERIODS = [7, 30, 90] as const;
type Period = (typeof PERIODS)[number];

/** Usage: reviews per day and the score distribution over the last 7, 30 or 90 days; one API call. */
export async function usagePage(dash: Dashboard): Promise<Page> {
  const { query } = currentRoute();
  const mode = modeOf(query);
  const days = periodOf(query);
  let content: HTMLElement;
  try {
    const usage = await dash.api(mode).getUsage({ days });
    content = usage.total.created === 0 ? emptyState(mode, days) : charts(usage, days);
  } catch (error) {
    content = errorBox(error);
  }
  return {
    title: mode === 'test' ? 'Usage (test mode)' : 'Usage',
    body: h(
      'div',
      {},
      h('div', { class: 'usage-controls' }, periodSwitch(mode, days), modeSwitch(mode, days)),
      content,
    ),
  };
}

function periodOf(query: URLSearchParams): Period {
  const asked = Number(query.get('days'));
  return PERIODS.find((p) => p === asked) ?? 30;
}

function usageHref(mode: Mode, days: Period): string {
  const query = new URLSearchParams();
  if (days !== 30) query.set('days', String(days));
  if (mode === 'test') query.set('mode', 'test');
  return `#/usage${query.size ? `?${query}` : ''}`;
}

function periodSwitch(mode: Mode, days: Period): HTMLElement {
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Period' },
    h('span', { class: 'muted' }, 'Period:'),
    PERIODS.map((p) =>
      h('a', { href: usageHref(mode, p), 'aria-current': p === days ? 'page' : undefined }, `${p} days`),
    ),
  );
}

/** Live and test reviews are apart (decisions §26): Test sends X-Svc-Mode: test. */
function modeSwitch(mode: Mode, days: Period): HTMLElement {
  const link = (m: Mode, label: string) =>
    h('a', { href: usageHref(m, days), 'aria-current': m === mode ? 'page' : undefined }, label);
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Mode' },
    h('span', { class: 'muted' }, 'Mode:'),
    link('live', 'Live'),
    link('test', 'Test'),
  );
}

function emptyState(mode: Mode, days: Period): HTMLElement {
  return h(
    'div',
    { class: 'empty' },
    h('h2', {}, `No ${mode === 'test' ? 'test-mode ' : ''}reviews in the last ${days} days`),
    createReviewHint(),
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A UTC day as a short label ("Mar 10"), the same wherever the reader is. */
function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

const rangeLabel = (bucket: { min: number; max: number }) => `${bucket.min}–${bucket.max}`;

function charts(usage: Usage, days: Period): HTMLElement {
  const total = usage.total;
  const average = total.average_score === null ? 'no completed review' : `average score ${total.average_score}`;
  const first = usage.days[0]?.date ?? '';
  const last = usage.days.at(-1)?.date ?? '';
  const perDay: BarGroup[] = usage.days.map((day) => ({
    label: dayLabel(day.date),
    bars: [
      [{ value: day.created, className: 'bar-created', label: `${day.created} created` }],
      [
        { value: day.completed, className: 'bar-completed', label: `${day.completed} completed` },
        { value: day.failed, className: 'bar-failed', label: `${day.failed} failed` },
      ],
    ],
  }));
  const scored = usage.scores.filter((b) => b.count > 0);
  // Drawn at the width it is shown (main's padding is 2 × 16 px, its most 72rem), at most 640.
  const width = Math.max(300, Math.min(640, document.documentElement.clientWidth - 32));
  const perScore: BarGroup[] = usage.scores.map((bucket) => ({
    label: rangeLabel(bucket),
    bars: [[{ value: bucket.count, className: 'bar-score', label: plural(bucket.count, 'review') }]],
  }));
  return h(
    'div',
    {},
    h(
      'p',
      { class: 'usage-summary' },
      `${plural(total.created, 'review')} created in the last ${days} days: ${total.completed} completed, ${total.failed} failed; ${average}.`,
    ),
    h(
      'section',
      { 'aria-labelledby': 'h-per-day' },
      h('h2', { id: 'h-per-day' }, 'Reviews per day'),
      barChart({
        id: 'chart-per-day',
        title: 'Reviews per day',
        description: `Reviews created each UTC day from ${first} to ${last}, beside those of them completed and failed: ${total.created} created, ${total.completed} completed, ${total.failed} failed. The table below has every day's numbers.`,
        xLabel: 'Day (UTC)',
        yLabel: 'Reviews',
        groups: perDay,
        width,
      }),
      legend([
        ['bar-created', 'Created'],
        ['bar-completed', 'Completed'],
        ['bar-failed', 'Failed'],
      ]),
      chartNumbers(
        'Reviews per day',
        ['Day (UTC)', 'Created', 'Completed', 'Failed'],
        usage.days.map((d) => [d.date, d.created, d.completed, d.failed]),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'h-scores' },
      h('h2', { id: 'h-scores' }, 'Score distribution'),
      barChart({
        id: 'chart-scores',
        title: 'Score distribution of the completed reviews',
        description:
          scored.length === 0
            ? 'No completed review has a score yet.'
            : `Completed reviews by score: ${scored.map((b) => `${plural(b.count, 'review')} scored ${rangeLabel(b)}`).join(', ')}.`,
        xLabel: 'Score',
        yLabel: 'Completed reviews',
        groups: perScore,
        width,
      }),
      chartNumbers(
        'Score distribution',
        ['Score', 'Completed reviews'],
        usage.scores.map((b) => [rangeLabel(b), b.count]),
      ),
    ),
  );
}

function legend(entries: [string, string][]): HTMLElement {
  return h(
    'ul',
    { class: 'legend' },
    entries.map(([className, label]) =>
      h('li', {}, h('span', { class: `swatch ${className}`, 'aria-hidden': 'true' }), label),
    ),
  );
}

/** The chart's numbers, one row per bar group, folded away until asked for. */
function chartNumbers(caption: string, columns: string[], rows: (string | number)[][]): HTMLElement {
  return h(
    'details',
    { class: 'chart-data' },
    h('summary', {}, `${caption}: the numbers`),
    dataTable(
      { caption },
      columns,
      rows.map(([head, ...cells]) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, String(head)),
          cells.map((value, i) => h('td', { 'data-label': columns[i + 1] }, String(value))),
        ),
      ),
    ),
  );
}
