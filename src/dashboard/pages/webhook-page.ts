import type { Webhook, WebhookDelivery } from '../../client/index.js';
import { confirmButton } from '../confirm-button.js';
import { currentRoute, type Dashboard, type Mode, modeOf, type Page } from '../dashboard.js';
import { dataTable } from '../data-table.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';
import { checkedEvents, webhookFields } from './webhook-fields.js';
import { modeSuffix } from './webhooks-page.js';

/** While a delivery is pending, its list is read again this often (the rest of the page stays). */
const REFRESH_MS = 1500;
/** How much of a receiver's answer the list shows; the API keeps up to 64 KiB. */
const EXCERPT_CHARS = 300;

/** One webhook: its state (why it is disabled, re-enable), the test event, edit, delete, deliveries. */
export async function webhookPage(dash: Dashboard, id: string): Promise<Page> {
  const mode = modeOf(currentRoute().query);
  const api = dash.api(mode);
  const webhook = await api.getWebhook(id);
  const deliveries = h('div', { id: 'deliveries' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let left = false;
  dash.onLeave(() => {
    left = true;
    clearTimeout(timer);
  });
  const reload = async (): Promise<void> => {
    clearTimeout(timer);
    try {
      const { data } = await api.listWebhookDeliveries(id, { limit: 25 });
      if (left) return;
      deliveries.replaceChildren(deliveryList(dash, mode, id, data, reload));
      if (data.some((d) => d.status === 'pending')) timer = setTimeout(() => void reload(), REFRESH_MS);
    } catch (error) {
      deliveries.replaceChildren(errorBox(error));
    }
  };
  await reload();
  const testSlot = h('div', { 'aria-live': 'polite' });
  const sendTest = h(
    'button',
    {
      type: 'button',
      onclick: () =>
        withErrorIn(testSlot, async () => {
          const delivery = await api.sendWebhookTest(id);
          testSlot.replaceChildren(h('p', { role: 'status' }, `Test event sent (delivery ${delivery.id}).`));
          await reload();
        }),
    },
    'Send a test event',
  );
  return {
    title: mode === 'test' ? 'Webhook (test mode)' : 'Webhook',
    body: h(
      'div',
      {},
      h('p', { class: 'wrap' }, h('code', {}, webhook.url), ' · ', webhook.events.join(', ')),
      stateSection(dash, mode, webhook),
      h('div', { class: 'actions' }, sendTest, ' ', deleteButton(dash, mode, webhook)),
      testSlot,
      editForm(dash, mode, webhook),
      h('h2', {}, 'Deliveries'),
      deliveries,
      h('p', {}, h('a', { href: `#/webhooks${modeSuffix(mode)}` }, 'Back to the webhooks')),
    ),
  };
}

/**
 * The API records no reason for disabling, only `failure_count` (failed attempts in a row) and
 * `disabled_at`; a webhook is disabled by failures only at a delivery's fifth failed attempt, so
 * no failures in a row means it was switched off by a change (`enabled: false`).
 */
function stateSection(dash: Dashboard, mode: Mode, webhook: Webhook): HTMLElement {
  if (webhook.enabled) {
    return h(
      'p',
      {},
      h('span', { class: 'badge state-on' }, 'enabled'),
      webhook.failure_count > 0 ? ` ${webhook.failure_count} failed attempts in a row.` : '',
    );
  }
  const slot = h('div', { 'aria-live': 'polite' });
  const why =
    webhook.failure_count > 0
      ? `Redline disabled it on ${when(webhook.disabled_at)} after ${webhook.failure_count} failed attempts in a row (a delivery failed five times); the deliveries below show each error. It receives no events until it is re-enabled.`
      : `It was switched off on ${when(webhook.disabled_at)} (Enabled unchecked), not by failures. It receives no events until it is re-enabled.`;
  return h(
    'section',
    { class: 'disabled-note', 'aria-labelledby': 'h-disabled' },
    h('h2', { id: 'h-disabled' }, 'This webhook is disabled'),
    h('p', {}, why),
    h(
      'button',
      {
        type: 'button',
        onclick: () =>
          withErrorIn(slot, async () => {
            await dash.api(mode).updateWebhook(webhook.id, { enabled: true });
            dash.refresh();
          }),
      },
      'Re-enable',
    ),
    slot,
  );
}

function editForm(dash: Dashboard, mode: Mode, webhook: Webhook): HTMLElement {
  const slot = h('div', { 'aria-live': 'polite' });
  const secretChoice = (value: string, label: string, checked: boolean) =>
    h('label', {}, h('input', { type: 'radio', name: 'secret_action', value, checked }), ` ${label}`);
  const form = h(
    'form',
    { class: 'create-key', 'aria-labelledby': 'h-edit-webhook' },
    h('h2', { id: 'h-edit-webhook' }, 'Edit'),
    webhookFields('w-edit', webhook.url, webhook.events),
    h(
      'fieldset',
      {},
      h('legend', {}, webhook.has_secret ? 'Secret (one is set)' : 'Secret (none set)'),
      secretChoice('keep', webhook.has_secret ? 'Keep it' : 'Leave it unset', true),
      secretChoice('replace', webhook.has_secret ? 'Replace it' : 'Set one', false),
      webhook.has_secret ? secretChoice('remove', 'Remove it', false) : null,
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'w-edit-secret' }, 'New secret'),
        h('input', {
          id: 'w-edit-secret',
          name: 'secret',
          type: 'password',
          autocomplete: 'off',
          minlength: '16',
          maxlength: '256',
        }),
      ),
    ),
    h('label', {}, h('input', { type: 'checkbox', name: 'enabled', checked: webhook.enabled }), ' Enabled'),
    h('button', { type: 'submit' }, 'Save changes'),
    slot,
  ) as HTMLFormElement;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const action = String(data.get('secret_action'));
    const secret = String(data.get('secret') ?? '');
    void withErrorIn(slot, async () => {
      await dash.api(mode).updateWebhook(webhook.id, {
        url: String(data.get('url') ?? ''),
        events: checkedEvents(data),
        enabled: data.get('enabled') !== null,
        ...(action === 'replace' ? { secret } : action === 'remove' ? { secret: null } : {}),
      });
      dash.refresh();
    });
  });
  return form;
}

/** Deleting asks first (confirm-button.ts). */
function deleteButton(dash: Dashboard, mode: Mode, webhook: Webhook): HTMLElement {
  return confirmButton({
    id: 'h-delete-webhook',
    title: 'Delete this webhook?',
    consequence: `${webhook.url} will receive no more events, and its deliveries log is deleted too.`,
    opener: ['Delete'],
    openerClass: 'danger',
    confirm: 'Delete webhook',
    act: async () => {
      await dash.api(mode).deleteWebhook(webhook.id);
      location.hash = `#/webhooks${modeSuffix(mode)}`;
    },
  });
}

function deliveryList(
  dash: Dashboard,
  mode: Mode,
  webhookId: string,
  deliveries: WebhookDelivery[],
  reload: () => Promise<void>,
): HTMLElement {
  if (deliveries.length === 0) {
    return h('p', { class: 'empty' }, 'No deliveries yet: send a test event to try the receiver.');
  }
  return h(
    'ol',
    { class: 'deliveries' },
    deliveries.map((d) => {
      const slot = h('div', { 'aria-live': 'polite' });
      return h(
        'li',
        { class: 'delivery' },
        h(
          'h3',
          {},
          `${d.event_type} `,
          h('span', { class: `badge delivery-${d.status}` }, d.status),
          h('small', {}, ` ${when(d.created_at)} · ${d.id}`),
        ),
        d.redelivery_of ? h('p', {}, `A redelivery of ${d.redelivery_of}.`) : null,
        d.status === 'pending' && d.next_attempt_at ? h('p', {}, `Next attempt ${when(d.next_attempt_at)}.`) : null,
        attemptTable(d),
        d.status === 'pending'
          ? null
          : h(
              'button',
              {
                type: 'button',
                onclick: () =>
                  withErrorIn(slot, async () => {
                    await dash.api(mode).redeliverWebhook(webhookId, d.id);
                    await reload();
                  }),
              },
              'Redeliver',
              h('span', { class: 'visually-hidden' }, ` ${d.id}`),
            ),
        slot,
      );
    }),
  );
}

function attemptTable(delivery: WebhookDelivery): HTMLElement {
  if (delivery.attempts.length === 0) return h('p', {}, 'No attempt yet.');
  return dataTable(
    { class: 'attempts', caption: `Attempts of ${delivery.id}` },
    ['Attempt', 'Time', 'Status code', 'Latency', 'Error', 'Answer'],
    delivery.attempts.map((a) =>
      h(
        'tr',
        {},
        h('td', {}, String(a.attempt)),
        h('td', {}, when(a.created_at)),
        h('td', {}, a.status_code === null ? 'no answer' : String(a.status_code)),
        h('td', {}, `${a.latency_ms} ms`),
        h('td', { class: 'wrap' }, a.error ?? '—'),
        h('td', { class: 'wrap' }, a.response_body ? h('code', {}, excerpt(a.response_body)) : '—'),
      ),
    ),
  );
}

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}
