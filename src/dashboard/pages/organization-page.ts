import type { Dashboard, Page } from '../dashboard.js';
import { when } from '../format.js';
import { h } from '../h.js';
import { reviewQuotaMeters } from './review-quota-meters.js';
import { teamsSection } from './teams-section.js';

/** One organization: its plan and review quota used, and its teams (teams-section.ts). */
export async function organizationPage(dash: Dashboard, id: string): Promise<Page> {
  const api = dash.api();
  // An organization you do not belong to answers 404 (decisions §1): the error shows as the page.
  const [org, usage] = await Promise.all([api.getOrganization(id), api.getOrganizationUsage(id)]);
  return {
    title: org.name && org.name !== org.login ? `${org.login} (${org.name})` : org.login,
    body: h(
      'div',
      {},
      h('p', {}, h('a', { href: '#/organizations' }, 'Back to the organizations')),
      h(
        'dl',
        { class: 'overview' },
        h('dt', {}, 'Plan'),
        h('dd', {}, h('span', { class: 'badge plan' }, org.plan)),
        h('dt', {}, 'In Redline since'),
        h('dd', {}, when(org.created_at)),
        h('dt', {}, 'Your role'),
        h('dd', {}, org.role),
      ),
      h('h2', {}, 'Review quota'),
      h(
        'p',
        { class: 'muted' },
        'Live reviews only: test reviews are free. Both windows roll: a review counts for an hour, and for a day.',
      ),
      reviewQuotaMeters(usage),
      await teamsSection(dash, org.id, org.role),
    ),
  };
}
