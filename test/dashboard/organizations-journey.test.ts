import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewRow } from '../helpers/review-row.js';
import { checkScreen, collectPageErrors, launchChromium } from './dashboard-browser.js';
import { type DashboardServer, startDashboardServer } from './dashboard-server.js';

/**
 * The organizations journey in Chromium against the real server: the plan, the review quota used
 * and the request rate, each as the API says it, with her role; create, rename and delete a team;
 * where she is a plain member, the teams without any control and the sentence saying why; the page
 * at 360 px. One browser for the file.
 */
let server: DashboardServer;
let browser: Browser;
let page: Page;
let errors: string[];
let userId: string;
let jwt: string;
let ownOrg: string;
let otherOrg: string;
let ownerJwt: string;

/** The API as a client sees it, with the user's JWT (each call counts against their rate). */
const api = async (path: string) => {
  const res = await server.t.app.inject({ url: path, headers: { authorization: `Bearer ${jwt}` } });
  return res.json().data;
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startDashboardServer(), launchChromium()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  errors = collectPageErrors(page);
  const db = server.t.database.db;
  const created = await server.t.createUser('olga');
  userId = created.user.id;
  jwt = created.jwt;
  ownOrg = (
    await db.selectFrom('memberships').select('organization_id').where('user_id', '=', userId).executeTakeFirstOrThrow()
  ).organization_id;
  // A live review of her organization a minute ago. Inserted as the review service stores it: a
  // live review through the API would need GitHub (test reviews never count against the quota).
  const at = new Date(server.t.clock.now().getTime() - 60_000);
  await db
    .insertInto('reviews')
    .values(reviewRow({ userId, organizationId: ownOrg }, at, { repository: 'olga/shop', pr_title: 'Add the cart' }))
    .execute();
  // Another user's organization, where she is a plain member: only Victor may change its teams.
  const owner = await server.t.createUser('victor');
  ownerJwt = owner.jwt;
  otherOrg = (
    await db
      .selectFrom('memberships')
      .select('organization_id')
      .where('user_id', '=', owner.user.id)
      .executeTakeFirstOrThrow()
  ).organization_id;
  await db.insertInto('memberships').values({ organization_id: otherOrg, user_id: userId, role: 'member' }).execute();
  await page.goto(await server.signInLink(userId));
  await page.getByRole('heading', { level: 1, name: 'Reviews' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The text beside a meter (or an unlimited window), found by its label. */
const usageText = (scope: ReturnType<Page['locator']> | Page, label: string) =>
  scope.locator('.usage').filter({ hasText: label }).locator('span').last().textContent();

describe('the organizations journey', () => {
  it('shows each organization with its plan and quota, and the request rate, as the API says', async () => {
    await page.getByRole('link', { name: 'Organizations', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    // Read at once, before any other request: GET /v1/rate-limit does not count itself.
    const rate = await api('/v1/rate-limit');
    expect(rate).toMatchObject({ plan: 'free', limit: 100 });
    expect(await usageText(page, 'Requests this hour')).toBe(`${rate.used} of 100 used, ${rate.remaining} left`);
    expect(await page.getByLabel('Requests this hour').getAttribute('value')).toBe(String(rate.used));

    const usage = await api(`/v1/organizations/${ownOrg}/usage`);
    expect(usage.review_quota).toEqual({
      hour: { limit: 10, used: 1, remaining: 9 },
      day: { limit: 20, used: 1, remaining: 19 },
    });
    const card = page.getByRole('region', { name: 'olga' });
    await expect(card.locator('.plan').textContent()).resolves.toBe('free');
    expect(await usageText(card, 'Reviews in the last hour')).toBe('1 of 10 used, 9 left');
    expect(await usageText(card, 'Reviews in the last 24 hours')).toBe('1 of 20 used, 19 left');
    await expect(card.getByText(/^Your role: /).textContent()).resolves.toBe('Your role: admin');
    const other = page.getByRole('region', { name: 'victor' });
    await expect(other.getByText(/^Your role: /).textContent()).resolves.toBe('Your role: member');
    await checkScreen(page, '21-organizations');
  });

  it('creates, renames and deletes a team of her own organization', async () => {
    await page.getByRole('link', { name: 'Teams of olga' }).click();
    await page.getByRole('heading', { level: 1, name: 'olga' }).waitFor();
    await page.getByText('No teams yet').waitFor();
    expect(await usageText(page, 'Reviews in the last hour')).toBe('1 of 10 used, 9 left');

    await page.getByLabel('Team name').fill('Platform');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('status').filter({ hasText: 'Team "Platform" created.' }).waitFor();
    await page.getByRole('cell', { name: 'Platform', exact: true }).waitFor();
    const teams = () =>
      server.t.database.db
        .selectFrom('teams')
        .select(['name', 'organization_id'])
        .where('organization_id', '=', ownOrg)
        .orderBy('name')
        .execute();
    expect(await teams()).toEqual([{ name: 'Platform', organization_id: ownOrg }]);
    await checkScreen(page, '22-organization-team-created');

    await page.getByText('Rename Platform').click();
    await page.getByLabel('New name for Platform').fill('Infra');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Team "Platform" renamed to "Infra".' }).waitFor();
    await page.getByRole('cell', { name: 'Infra', exact: true }).waitFor();
    expect(await teams()).toEqual([{ name: 'Infra', organization_id: ownOrg }]);

    await page.getByRole('button', { name: 'Delete Infra' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the team "Infra"?' });
    await dialog.waitFor();
    await checkScreen(page, '23-organization-team-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete team' }).click();
    await page.getByText('No teams yet').waitFor();
    await page.getByRole('status').filter({ hasText: 'Team "Infra" deleted.' }).waitFor();
    expect(await teams()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the teams without controls where she is a plain member, and says why', async () => {
    // Victor, the organization's admin, made a team through the API.
    const made = await server.t.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: { authorization: `Bearer ${ownerJwt}` },
      payload: { organization_id: otherOrg, name: 'Design' },
    });
    expect(made.statusCode).toBe(201);
    expect((await api(`/v1/organizations/${otherOrg}`)).role).toBe('member');

    await page.goto(`${server.base}/app/#/organizations/${otherOrg}`);
    await page.getByRole('heading', { level: 1, name: 'victor' }).waitFor();
    const teams = page.getByRole('region', { name: 'Teams', exact: true });
    await teams.getByRole('cell', { name: 'Design', exact: true }).waitFor();
    await teams
      .getByText(
        "You are a member of this organization: only the organization's admins can create, rename or delete its teams.",
        { exact: true },
      )
      .waitFor();
    // No control at all: no form, no Rename disclosure, no button, no Actions column.
    expect(await teams.locator('form, details, button, input').count()).toBe(0);
    await expect(teams.getByRole('columnheader').allTextContents()).resolves.toEqual(['Name', 'Created', 'Id']);
    await checkScreen(page, '24-organization-not-admin');
    expect(errors).toEqual([]);
  });

  it('works at 360 px wide', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${server.base}/app/#/organizations`);
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    await checkScreen(page, '25-organizations-360px');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.goto(`${server.base}/app/#/organizations/${ownOrg}`);
    await page.getByText('No teams yet').waitFor();
    await checkScreen(page, '26-organization-360px');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(errors).toEqual([]);
  });
});
