import { h } from './h.js';

/**
 * One budget as numbers and a bar: "3 of 10 used, 7 left", or "9, no limit" when `limit` is null
 * (no bar then: there is nothing to fill). The bar is a native <meter> named by its label, so a
 * screen reader reads the label and the value; the numbers are there as text for everyone.
 */
export function usageMeter(id: string, label: string, used: number, limit: number | null): HTMLElement {
  if (limit === null) {
    return h('div', { class: 'usage' }, h('span', { class: 'usage-label' }, label), h('span', {}, `${used}, no limit`));
  }
  const left = Math.max(0, limit - used);
  return h(
    'div',
    { class: 'usage' },
    h('label', { for: id, class: 'usage-label' }, label),
    // high: the bar turns to a warning colour in the last fifth of the budget.
    h('meter', { id, min: '0', max: String(limit), value: String(Math.min(used, limit)), high: String(limit * 0.8) }),
    h('span', {}, `${used} of ${limit} used, ${left} left`),
  );
}
