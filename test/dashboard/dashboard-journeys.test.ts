import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScreen, collectPageErrors, launchChromium } from './dashboard-browser.js';
import { type DashboardServer, startDashboardServer } from './dashboard-server.js';

/**
 * The journeys in Chromium against the real server (real HTTP), on whichever database
 * this run uses: sign in with a one-time link, a failed GitHub sign-in sent back to the sign-in
 * page, the empty state, a test key shown once, a review made with it through the API watched to
 * completion, its comments, a cancel, the usage charts, revoking the key and the API refusing it,
 * signing out and the old cookie refused. One browser for the file.
 */
let server: DashboardServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let userId: string;
let testKey: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startDashboardServer(), launchChromium()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  errors = collectPageErrors(page);
  userId = (await server.t.createUser('dana')).user.id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${server.base}${path}`, init);
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, asserted field by field
  return { status: res.status, json: async (): Promise<any> => res.json() };
};

describe('the dashboard journeys', () => {
  it('signs in with a one-time link and shows the empty state', async () => {
    const link = await server.signInLink(userId);
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Reviews' }).waitFor();
    // The code left the address bar.
    expect(page.url()).toBe(`${server.base}/app/#/reviews`);
    await expect(page.getByText('Signed in as dana').isVisible()).resolves.toBe(true);
    await page.getByRole('heading', { name: 'No reviews yet' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.map((c) => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite }))).toEqual([
      { name: 'redline_session', httpOnly: true, sameSite: 'Lax' },
    ]);
    await checkScreen(page, '01-reviews-empty');

    // The same link again signs nobody in.
    const second = await browser.newPage();
    await second.goto(link);
    await second.getByRole('heading', { level: 1, name: 'Sign in to Redline' }).waitFor();
    await expect(second.getByRole('alert').textContent()).resolves.toMatch(/unknown or already used/);
    await checkScreen(second, '02-sign-in-link-used');

    // A GitHub sign-in this browser started from the dashboard fails at the callback (this server
    // has no GitHub configured): the callback sends it back to the sign-in page with the error in
    // the fragment, which the page shows, then clears from the address bar.
    await second
      .context()
      .addCookies([
        { name: 'redline_dashboard_sign_in', value: '1', domain: '127.0.0.1', path: '/api/auth/scm/callback' },
      ]);
    await second.goto(`${server.base}/api/auth/scm/callback?state=gone&code=any`);
    await second.getByRole('heading', { level: 1, name: 'Sign in to Redline' }).waitFor();
    await expect(second.getByRole('alert').textContent()).resolves.toBe(
      'GitHub sign-in did not complete.' +
        'GitHub sign-in is not configured on this server (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET) (service_unavailable)',
    );
    expect(second.url()).toBe(`${server.base}/app/#/reviews`);
    await checkScreen(second, '02-sign-in-github-failed');
    // Try again starts GitHub sign-in anew; here the server answers why it cannot.
    await second.getByRole('button', { name: 'Try again' }).click();
    await expect(second.getByRole('alert').nth(1).textContent()).resolves.toMatch(
      /^GitHub sign-in is not configured on this server .* \(service_unavailable, req_\w+\)$/,
    );
    await second.close();
  });

  it('creates a test key and shows its value once', async () => {
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByText('No keys yet').waitFor();
    await page.getByLabel('Name').fill('ci test key');
    await page.getByLabel('Mode').selectOption('test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = page.getByLabel('Key value');
    await value.waitFor();
    testKey = await value.inputValue();
    expect(testKey).toMatch(/^svc_test_[0-9A-Za-z]{38}$/);
    await page.getByRole('cell', { name: 'ci test key', exact: true }).waitFor();
    await checkScreen(page, '03-key-created');

    // Shown once: the list and a reload never show it again.
    await page.reload();
    await page.getByRole('cell', { name: 'ci test key', exact: true }).waitFor();
    expect(await page.content()).not.toContain(testKey);
  });

  it('watches a review made with the key through the API complete, then reads its comments', async () => {
    const created = await api('/v1/reviews', {
      method: 'POST',
      headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pull_request_url: 'https://github.com/acme/shop/pull/2' }),
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id as string;

    await page.goto(`${server.base}/app/#/reviews?mode=test`);
    await page.getByRole('heading', { level: 1, name: 'Reviews (test mode)' }).waitFor();
    await page.getByRole('link', { name: /acme\/shop#2/ }).click();
    await page.getByText('in progress (refreshing)').waitFor();
    await checkScreen(page, '04-review-in-progress');

    // A worker finishes the review; the page, refreshing itself, shows it completed.
    await server.t.runJobs();
    await page.getByRole('heading', { name: /^Comments \(\d+\)$/ }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('completed');
    const firstComment = page.locator('li.comment').first();
    await expect(firstComment.locator('.badge').allTextContents()).resolves.toEqual(['critical', 'security']);
    await expect(page.locator('pre.suggestion').first().textContent()).resolves.toContain('$1');
    const href = await firstComment.getByRole('link').getAttribute('href');
    expect(href).toMatch(/^https:\/\/github\.com\/acme\/shop\/pull\/2\/files#diff-[0-9a-f]{64}R\d+$/);
    await page.getByRole('heading', { name: 'Statistics' }).waitFor();
    expect(page.url()).toBe(`${server.base}/app/#/reviews/${id}?mode=test`);
    await checkScreen(page, '05-review-completed');
  });

  it('cancels a review in progress from its page', async () => {
    const created = await api('/v1/reviews', {
      method: 'POST',
      headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pull_request_url: 'https://github.com/acme/shop/pull/7' }),
    });
    const id = (await created.json()).data.id as string;
    await page.goto(`${server.base}/app/#/reviews/${id}?mode=test`);
    await page.getByText('in progress (refreshing)').waitFor();
    await page.getByRole('button', { name: 'Cancel review' }).click();
    await page.getByText('cancelled', { exact: true }).waitFor();
    const read = await api(`/v1/reviews/${id}`, { headers: { authorization: `Bearer ${testKey}` } });
    expect((await read.json()).data.status).toBe('cancelled');
    await checkScreen(page, '06-review-cancelled');
  });

  it('lists the reviews with their filters', async () => {
    await page.goto(`${server.base}/app/#/reviews?mode=test`);
    await page.getByRole('link', { name: /acme\/shop#7/ }).waitFor();
    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=completed/);
    // The URL changes before the filtered list replaces the old one, which shows #2 as well: wait
    // for the cancelled #7 to go, then for #2 in the new list.
    await page.getByRole('link', { name: /acme\/shop#7/ }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: /acme\/shop#2/ }).waitFor();
    expect(await page.getByRole('link', { name: /acme\/shop#7/ }).count()).toBe(0);
    await checkScreen(page, '07-reviews-filtered');
  });

  it('works at 360 px wide', async () => {
    const narrow = await context.newPage();
    await narrow.setViewportSize({ width: 360, height: 740 });
    await narrow.goto(`${server.base}/app/#/reviews?mode=test`);
    await narrow.getByRole('link', { name: /acme\/shop#2/ }).waitFor();
    // Nothing is wider than the screen: no sideways scrolling.
    const width = await narrow.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(360);
    await checkScreen(narrow, '08-reviews-360px');
    await narrow.close();
  });

  it('draws the usage of the last days from the API, in numbers too', async () => {
    // Live mode has no review: the empty state says how to make one.
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    await page.getByRole('heading', { name: 'No reviews in the last 30 days' }).waitFor();
    await page.getByText('Here is how to create one').waitFor();
    await checkScreen(page, '08a-usage-empty');

    // Test mode: the completed review (score 65) and the cancelled one, both made above.
    await page.getByRole('navigation', { name: 'Mode' }).getByRole('link', { name: 'Test' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage (test mode)' }).waitFor();
    expect(page.url()).toBe(`${server.base}/app/#/usage?mode=test`);
    await expect(page.locator('.usage-summary').textContent()).resolves.toBe(
      '2 reviews created in the last 30 days: 1 completed, 0 failed; average score 65.',
    );
    await page.getByText('Reviews per day: the numbers').click();
    const rows = await page
      .locator('details.chart-data')
      .first()
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent ?? '')));
    expect(rows).toHaveLength(30);
    const numbers = rows.map(([, ...counts]) => counts.map(Number));
    const sum = (column: number) => numbers.reduce((total, row) => total + (row[column] ?? 0), 0);
    expect([sum(0), sum(1), sum(2)]).toEqual([2, 1, 0]);
    // One bar per non-zero count (both reviews were made today, unless the run straddled midnight UTC).
    const nonZero = numbers.flat().filter((n) => n > 0).length;
    const perDay = page.getByRole('img', { name: 'Reviews per day' });
    await expect(perDay.locator('rect.bar').count()).resolves.toBe(nonZero);
    const scores = page.getByRole('img', { name: 'Score distribution of the completed reviews' });
    await expect(scores.locator('rect.bar').count()).resolves.toBe(1);
    await expect(scores.locator('rect.bar title').textContent()).resolves.toBe('60–69: 1 review');
    await page.getByText('Score distribution: the numbers').click();
    await expect(page.getByRole('row', { name: '60–69 1' }).isVisible()).resolves.toBe(true);
    await checkScreen(page, '08b-usage-test');

    // The period: 7 days, in the same mode, one row a day.
    await page.getByRole('link', { name: '7 days' }).click();
    await page.waitForURL(/#\/usage\?days=7&mode=test$/);
    await page.getByText('2 reviews created in the last 7 days').waitFor();
    await expect(page.locator('details.chart-data').first().locator('tbody tr').count()).resolves.toBe(7);

    const narrow = await context.newPage();
    await narrow.setViewportSize({ width: 360, height: 740 });
    await narrow.goto(`${server.base}/app/#/usage?days=90&mode=test`);
    await narrow.getByText('2 reviews created in the last 90 days').waitFor();
    const width = await narrow.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(360);
    await checkScreen(narrow, '08c-usage-360px');
    await narrow.close();
  });

  it('revokes the key after a confirmation, and the API refuses it', async () => {
    await page.goto(`${server.base}/app/#/keys`);
    await page.getByRole('button', { name: 'Revoke ci test key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke "ci test key"?' });
    await dialog.waitFor();
    await checkScreen(page, '09-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No keys yet').waitFor();
    const refused = await api('/v1/reviews', { headers: { authorization: `Bearer ${testKey}` } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toBe('API key has been revoked');
  });

  it('signs out, and the old cookie is refused', async () => {
    const [cookie] = await context.cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Redline' }).waitFor();
    expect(await context.cookies()).toEqual([]);
    await checkScreen(page, '10-signed-out');
    const replay = await api('/v1/reviews', { headers: { cookie: `redline_session=${cookie?.value}` } });
    expect(replay.status).toBe(401);
    // No page error and no console error (a Content-Security-Policy refusal would be one) on any screen.
    expect(errors).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Redline' }).waitFor();
  });
});
