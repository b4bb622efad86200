import type { Organization, OrganizationUsage, RateLimit } from '../../client/index.js';
import type { Dashboard, Page } from '../dashboard.js';
import { errorBox } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';
import { usageMeter } from '../usage-meter.js';
import { reviewQuotaMeters } from './review-quota-meters.js';

/**
 * Organizations: each one you belong to with its plan and review quota used, and your own
 * request rate this hour. Each links to its page (organization-page.ts), where its teams are.
 */
export async function organizationsPage(dash: Dashboard): Promise<Page> {
  const api = dash.api();
  const organizations = await api.listOrganizations();
  // One organization's failure shows in its own card; the others still show.
  const usages = await Promise.all(organizations.map((org) => outcome(api.getOrganizationUsage(org.id))));
  // Read last, so the count includes the requests this page just made (this one is not counted).
  const rate = await outcome(api.getRateLimit());
  return {
    title: 'Organizations',
    body: h(
      'div',
      {},
      requestRate(rate),
      h('h2', {}, 'Your organizations'),
      organizations.length === 0
        ? h(
            'p',
            { class: 'empty' },
            'You belong to no organization. The GitHub organizations you are a member of appear here ' +
              'once you sign in with GitHub (memberships are read at sign-in, then at most hourly).',
          )
        : h(
            'ul',
            { class: 'cards' },
            organizations.map((org, i) => h('li', {}, organizationCard(org, usages[i]))),
          ),
    ),
  };
}

type Outcome<T> = { value: T } | { error: unknown };

function outcome<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** The signed-in user's budget (spec 8.1), counted per user across all their credentials. */
function requestRate(answer: Outcome<RateLimit>): HTMLElement {
  const section = h(
    'section',
    { class: 'card', 'aria-labelledby': 'h-rate' },
    h('h2', { id: 'h-rate' }, 'Your request rate'),
  );
  if ('error' in answer) {
    section.append(errorBox(answer.error));
    return section;
  }
  const rate = answer.value;
  section.append(
    usageMeter('rate-hour', 'Requests this hour', rate.used, rate.limit),
    h(
      'p',
      { class: 'muted' },
      `Your plan: ${rate.plan}. The count starts again at ${when(new Date(rate.reset * 1000).toISOString())}. ` +
        'Every request of every one of your keys counts, and so do the dashboard’s own.',
    ),
  );
  return section;
}

function organizationCard(org: Organization, usage: Outcome<OrganizationUsage> | undefined): HTMLElement {
  const headingId = `h-org-${org.id}`;
  const href = `#/organizations/${encodeURIComponent(org.id)}`;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': headingId },
    h(
      'h3',
      { id: headingId },
      h('a', { href }, org.login),
      org.name && org.name !== org.login ? ` (${org.name})` : null,
    ),
    h('p', {}, 'Plan: ', h('span', { class: 'badge plan' }, org.plan)),
    h('p', {}, `Your role: ${org.role}`),
    usage === undefined ? null : 'error' in usage ? errorBox(usage.error) : reviewQuotaMeters(usage.value),
    h('p', {}, h('a', { href }, 'Teams', h('span', { class: 'visually-hidden' }, ` of ${org.login}`))),
  );
}
