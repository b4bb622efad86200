import { RedlineApiError } from '../client/index.js';
import { h } from './h.js';

/** An API error as the user should read it: the API's own message, its code and request id. */
export function errorBox(error: unknown): HTMLElement {
  if (error instanceof RedlineApiError) {
    const extra = [error.code, error.requestId].filter(Boolean).join(', ');
    return h('div', { class: 'error', role: 'alert' }, error.message, extra ? h('small', {}, ` (${extra})`) : null);
  }
  return h('div', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error));
}

/** Runs an action from a button, showing its error in `slot` instead of losing it. */
export async function withErrorIn(slot: HTMLElement, action: () => Promise<void>): Promise<void> {
  slot.replaceChildren();
  try {
    await action();
  } catch (error) {
    slot.replaceChildren(errorBox(error));
  }
}
