import type { Webhook } from '../../client/index.js';
import { currentRoute, type Dashboard, type Mode, modeOf, type Page } from '../dashboard.js';
import { dataTable } from '../data-table.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';
import { checkedEvents, webhookFields } from './webhook-fields.js';

/** Webhooks: create one, and the list (each links to its page: edit, test event, deliveries, delete). */
export async function webhooksPage(dash: Dashboard): Promise<Page> {
  const mode = modeOf(currentRoute().query);
  const listSlot = h('div', {});
  try {
    // At most 25 per account and mode (decisions §17): one page of 100 holds them all.
    const { data } = await dash.api(mode).listWebhooks({ limit: 100 });
    listSlot.replaceChildren(
      data.length === 0
        ? h(
            'p',
            { class: 'empty' },
            'No webhooks yet: create one above to have Redline POST review events to your server.',
          )
        : webhookTable(data, mode),
    );
  } catch (error) {
    listSlot.replaceChildren(errorBox(error));
  }
  return {
    title: mode === 'test' ? 'Webhooks (test mode)' : 'Webhooks',
    body: h('div', {}, modeSwitch(mode), createForm(dash, mode), h('h2', {}, 'Your webhooks'), listSlot),
  };
}

/** The query that keeps a link in the page's mode. */
export function modeSuffix(mode: Mode): string {
  return mode === 'test' ? '?mode=test' : '';
}

/** Live and test webhooks are apart (decisions §17): a test one receives test-mode events only. */
function modeSwitch(mode: Mode): HTMLElement {
  const link = (m: Mode, label: string) =>
    h('a', { href: `#/webhooks${modeSuffix(m)}`, 'aria-current': m === mode ? 'page' : undefined }, label);
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Mode' },
    link('live', 'Live webhooks'),
    link('test', 'Test webhooks'),
  );
}

function createForm(dash: Dashboard, mode: Mode): HTMLElement {
  const slot = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'create-key', 'aria-labelledby': 'h-create-webhook' },
    h('h2', { id: 'h-create-webhook' }, 'Create a webhook'),
    webhookFields('w-new', '', ['review.completed']),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'w-new-secret' }, 'Secret (optional)'),
      h('input', {
        id: 'w-new-secret',
        name: 'secret',
        type: 'password',
        autocomplete: 'off',
        minlength: '16',
        maxlength: '256',
        'aria-describedby': 'w-new-secret-hint',
      }),
      h(
        'small',
        { id: 'w-new-secret-hint' },
        '16 to 256 characters; deliveries are signed with it. Never shown again.',
      ),
    ),
    h('button', { type: 'submit' }, 'Create webhook'),
    slot,
  ) as HTMLFormElement;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const secret = String(data.get('secret') ?? '');
    void withErrorIn(slot, async () => {
      const created = await dash.api(mode).createWebhook({
        url: String(data.get('url') ?? ''),
        events: checkedEvents(data),
        ...(secret ? { secret } : {}),
      });
      location.hash = `#/webhooks/${encodeURIComponent(created.id)}${modeSuffix(mode)}`;
    });
  });
  return form;
}

/** Enabled, or disabled since when (the webhook's own page says why and offers re-enabling). */
function stateText(webhook: Webhook): string {
  return webhook.enabled ? 'enabled' : `disabled ${when(webhook.disabled_at)}`;
}

function webhookTable(webhooks: Webhook[], mode: Mode): HTMLElement {
  return dataTable(
    { class: 'keys', caption: 'Webhooks' },
    ['URL', 'Events', 'State', 'Created'],
    webhooks.map((w) =>
      h(
        'tr',
        {},
        h(
          'td',
          { class: 'wrap' },
          h('a', { href: `#/webhooks/${encodeURIComponent(w.id)}${modeSuffix(mode)}` }, w.url),
        ),
        h('td', {}, w.events.join(', ')),
        h('td', {}, h('span', { class: `badge ${w.enabled ? 'state-on' : 'state-off'}` }, stateText(w))),
        h('td', {}, when(w.created_at)),
      ),
    ),
  );
}
