import { withErrorIn } from './error-box.js';
import { type Child, h } from './h.js';

export interface Confirmation {
  /** The id of the dialog's heading (unique on the page). */
  id: string;
  title: string;
  /** What will happen, said before anything does. */
  consequence: string;
  /** The opening button's content, and its class (`danger` for a destructive one). */
  opener: Child[];
  openerClass?: string;
  /** The label of the button that acts. */
  confirm: string;
  /** Runs when confirmed; an API error shows in the dialog, which then stays open. */
  act: () => Promise<void>;
}

/**
 * A button that asks first, in a modal dialog (Escape cancels and focus returns to the button, as
 * the browser's <dialog> does), then acts; the dialog closes only when the action succeeded.
 */
export function confirmButton(c: Confirmation): HTMLElement {
  const slot = h('div', { 'aria-live': 'polite' });
  const dialog = h(
    'dialog',
    { 'aria-labelledby': c.id },
    h('h2', { id: c.id }, c.title),
    h('p', {}, c.consequence),
    slot,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: () =>
            withErrorIn(slot, async () => {
              await c.act();
              (dialog as HTMLDialogElement).close();
            }),
        },
        c.confirm,
      ),
      h('button', { type: 'button', onclick: () => (dialog as HTMLDialogElement).close() }, 'Keep it'),
    ),
  ) as HTMLDialogElement;
  const open = h(
    'button',
    { type: 'button', ...(c.openerClass ? { class: c.openerClass } : {}), onclick: () => dialog.showModal() },
    ...c.opener,
  );
  return h('span', {}, open, dialog);
}
