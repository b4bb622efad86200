import { WEBHOOK_EVENTS } from '../../client/index.js';
import { h } from '../h.js';

/** The URL field and the events checkboxes, shared by the create and edit forms (ids made unique by `prefix`). */
export function webhookFields(prefix: string, url: string, events: string[]): HTMLElement[] {
  return [
    h(
      'div',
      { class: 'field' },
      h('label', { for: `${prefix}-url` }, 'Payload URL'),
      h('input', {
        id: `${prefix}-url`,
        name: 'url',
        type: 'url',
        required: true,
        maxlength: '2048',
        value: url,
        'aria-describedby': `${prefix}-url-hint`,
      }),
      h('small', { id: `${prefix}-url-hint` }, 'https:, or http: to this machine where the server allows it.'),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Events'),
      WEBHOOK_EVENTS.map((event) =>
        h(
          'label',
          {},
          h('input', { type: 'checkbox', name: 'events', value: event, checked: events.includes(event) }),
          ` ${event}`,
        ),
      ),
    ),
  ];
}

/** The checked events of a form. */
export function checkedEvents(data: FormData): string[] {
  return data.getAll('events').map(String);
}
