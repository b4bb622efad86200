import type { OrganizationUsage } from '../../client/index.js';
import { h } from '../h.js';
import { usageMeter } from '../usage-meter.js';

/** An organization's review quota (GET /v1/organizations/:id/usage): the rolling hour and day. */
export function reviewQuotaMeters(usage: OrganizationUsage): HTMLElement {
  const { hour, day } = usage.review_quota;
  const id = (w: string) => `quota-${w}-${usage.organization_id}`;
  return h(
    'div',
    { class: 'usages' },
    usageMeter(id('hour'), 'Reviews in the last hour', hour.used, hour.limit),
    usageMeter(id('day'), 'Reviews in the last 24 hours', day.used, day.limit),
  );
}
