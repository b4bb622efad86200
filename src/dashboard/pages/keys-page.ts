import type { ApiToken, CreatedApiToken } from '../../client/index.js';
import { confirmButton } from '../confirm-button.js';
import type { Dashboard, Page } from '../dashboard.js';
import { dataTable } from '../data-table.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';

const SCOPES = ['review:read', 'review:write', 'org:read', 'org:write', 'team:read', 'team:write'];
const LIFETIMES: [string, number][] = [
  ['1 day', 86_400],
  ['30 days', 2_592_000],
  ['90 days', 7_776_000],
  ['1 year', 31_536_000],
];

/** API keys: create (the value shown once), list without values, revoke after a confirmation. */
export async function keysPage(dash: Dashboard): Promise<Page> {
  const created = h('div', { 'aria-live': 'polite' });
  const listSlot = h('div', {});
  const reload = async () => {
    try {
      const tokens = await dash.api().listTokens();
      listSlot.replaceChildren(
        tokens.length === 0
          ? h('p', { class: 'empty' }, 'No keys yet: create one above for CI or scripts.')
          : keyTable(dash, tokens),
      );
    } catch (error) {
      listSlot.replaceChildren(errorBox(error));
    }
  };
  await reload();
  return {
    title: 'API keys',
    body: h('div', {}, createForm(dash, created, reload), created, h('h2', {}, 'Your keys'), listSlot),
  };
}

function createForm(dash: Dashboard, slot: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const form = h(
    'form',
    { class: 'create-key', 'aria-labelledby': 'h-create' },
    h('h2', { id: 'h-create' }, 'Create a key'),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'k-name' }, 'Name'),
      h('input', { id: 'k-name', name: 'name', required: true, maxlength: '100' }),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Scopes'),
      SCOPES.map((scope) =>
        h(
          'label',
          {},
          h('input', { type: 'checkbox', name: 'scopes', value: scope, checked: scope.startsWith('review') }),
          ` ${scope}`,
        ),
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'k-mode' }, 'Mode'),
      h(
        'select',
        { id: 'k-mode', name: 'mode' },
        h('option', { value: 'live' }, 'Live'),
        h('option', { value: 'test' }, 'Test (no GitHub calls)'),
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'k-lifetime' }, 'Lifetime'),
      h(
        'select',
        { id: 'k-lifetime', name: 'expires_in' },
        LIFETIMES.map(([label, s]) => h('option', { value: String(s), selected: s === 7_776_000 }, label)),
      ),
    ),
    h('button', { type: 'submit' }, 'Create key'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    void withErrorIn(slot, async () => {
      const token = await dash.api().createToken({
        name: String(data.get('name') ?? ''),
        scopes: data.getAll('scopes').map(String),
        mode: data.get('mode') === 'test' ? 'test' : 'live',
        expires_in: Number(data.get('expires_in')),
      });
      slot.replaceChildren(shownOnce(token));
      (form as HTMLFormElement).reset();
      await reload();
    });
  });
  return form;
}

function shownOnce(token: CreatedApiToken): HTMLElement {
  const value = h('input', { id: 'k-value', readonly: true, value: token.token, class: 'secret' });
  const copied = h('span', { role: 'status' });
  return h(
    'div',
    { class: 'shown-once' },
    h('h3', {}, `Key "${token.name}" created`),
    h('p', {}, h('strong', {}, 'Copy it now: it is shown only this once.'), ' Only its hash is stored.'),
    h('label', { for: 'k-value' }, 'Key value'),
    value,
    h(
      'button',
      {
        type: 'button',
        onclick: async () => {
          (value as HTMLInputElement).select();
          try {
            await navigator.clipboard.writeText(token.token);
            copied.textContent = 'Copied.';
          } catch {
            copied.textContent = 'Copy failed: select the value and copy it yourself.';
          }
        },
      },
      'Copy',
    ),
    ' ',
    copied,
  );
}

function keyTable(dash: Dashboard, tokens: ApiToken[]): HTMLElement {
  return dataTable(
    { class: 'keys', caption: 'API keys' },
    ['Name', 'Mode', 'Scopes', 'Last used', 'Expires', ''],
    tokens.map((t) =>
      h(
        'tr',
        {},
        h('td', {}, t.name),
        h('td', {}, h('span', { class: `badge mode-${t.mode}` }, t.mode)),
        h('td', {}, t.scopes.join(', ')),
        h('td', {}, t.last_used ? when(t.last_used) : 'never'),
        h('td', {}, when(t.expires_at)),
        h('td', {}, revokeButton(dash, t)),
      ),
    ),
  );
}

/** Revoking asks first (confirm-button.ts). */
function revokeButton(dash: Dashboard, token: ApiToken): HTMLElement {
  return confirmButton({
    id: `h-revoke-${token.id}`,
    title: `Revoke "${token.name}"?`,
    consequence: 'Clients using this key will be refused from now on. This cannot be undone.',
    opener: ['Revoke', h('span', { class: 'visually-hidden' }, ` ${token.name}`)],
    confirm: 'Revoke key',
    act: async () => {
      await dash.api().revokeToken(token.id);
      dash.refresh();
    },
  });
}
