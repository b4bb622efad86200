import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScreen, collectPageErrors, launchChromium } from './dashboard-browser.js';
import { type DashboardServer, startDashboardServer } from './dashboard-server.js';

/**
 * The webhook journey in Chromium against the real server: create a webhook to a real
 * HTTP receiver on this machine (WEBHOOK_ALLOW_PRIVATE admits http: to loopback, as in the
 * webhook tests), send a test event and see its delivery with the receiver's answer, redeliver
 * it, switch it off and see why it is disabled, re-enable it, an API error shown, and delete it
 * after a confirmation.
 */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: DashboardServer;
let browser: Browser;
let page: Page;
let errors: string[];
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let onReceived: (() => void) | undefined;
// Assembled at run time: no secret-looking literal in the source.
const secret = ['receiver', 'secret', String(16 * 4)].join('-');

/** Resolves once the receiver holds `count` requests (waits on the request, not on time). */
function receivedCount(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (received.length >= count) resolve();
      else onReceived = check;
    };
    check();
  });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('pong from the receiver');
      onReceived?.();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  [server, browser] = await Promise.all([startDashboardServer({ WEBHOOK_ALLOW_PRIVATE: 'true' }), launchChromium()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  errors = collectPageErrors(page);
  const { user } = await server.t.createUser('wes');
  await page.goto(await server.signInLink(user.id));
  await page.getByRole('heading', { level: 1, name: 'Reviews' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('the webhooks journey', () => {
  let webhookId: string;

  it('shows the empty state, then creates a webhook to a local receiver', async () => {
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    await checkScreen(page, '11-webhooks-empty');

    await page.getByLabel('Payload URL').fill(receiverUrl);
    await page.getByLabel('review.failed').check();
    await page.getByLabel('Secret (optional)').fill(secret);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook' }).waitFor();
    await page.getByText('No deliveries yet').waitFor();
    webhookId = decodeURIComponent(/#\/webhooks\/(.+)$/.exec(page.url())?.[1] ?? '');
    expect(webhookId).toMatch(/^whk_/);
    const stored = await server.t.database.db
      .selectFrom('webhooks')
      .select(['url', 'events', 'enabled'])
      .where('id', '=', webhookId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ url: receiverUrl, events: ['review.completed', 'review.failed'], enabled: true });

    // A live webhook is not a test one (decisions §17): the test list is empty, the live one lists it.
    await page.getByRole('link', { name: 'Back to the webhooks' }).click();
    await page.getByRole('link', { name: 'Test webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks (test mode)' }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    await page.getByRole('link', { name: 'Live webhooks' }).click();
    await page.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook' }).waitFor();
    expect(page.url()).toBe(`${server.base}/app/#/webhooks/${webhookId}`);
  });

  it('sends a test event and shows its delivery with the answer, then redelivers it', async () => {
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const sent = page.getByRole('status').filter({ hasText: 'Test event sent' });
    await sent.waitFor();
    const deliveryId = /\(delivery (dlv_\w+)\)/.exec((await sent.textContent()) ?? '')?.[1];
    expect(deliveryId).toMatch(/^dlv_/);
    await page.locator('.delivery-pending').first().waitFor();

    // A worker sends it; the page, reading the pending delivery again, shows the attempt.
    await server.t.runJobs();
    await receivedCount(1);
    const [ping] = received;
    expect(ping?.path).toBe('/hook');
    expect(ping?.headers['x-svc-delivery']).toBe(deliveryId);
    const event = await server.t.database.db
      .selectFrom('events')
      .select(['id', 'created_at'])
      .where('type', '=', 'ping')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(ping?.body ?? '')).toEqual({
      id: event.id,
      type: 'ping',
      created_at: event.created_at.toISOString(),
      data: { webhook_id: webhookId, url: receiverUrl, events: ['review.completed', 'review.failed'] },
    });
    const row = page.locator('table.attempts tbody tr').first();
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect([cells[0], cells[2], cells[4], cells[5]]).toEqual(['1', '200', '—', 'pong from the receiver']);
    expect(cells[3]).toMatch(/^\d+ ms$/);
    await expect(page.locator('.delivery-delivered').first().textContent()).resolves.toBe('delivered');
    await checkScreen(page, '12-webhook-delivered');

    await page.getByRole('button', { name: `Redeliver ${deliveryId}` }).click();
    await page.getByText(`A redelivery of ${deliveryId}.`).waitFor();
    await server.t.runJobs();
    await receivedCount(2);
    expect(received[1]?.body).toBe(ping?.body);
    await page.locator('.delivery-delivered').nth(1).waitFor();
  });

  it('says why a switched-off webhook is disabled, and re-enables it', async () => {
    await page.getByLabel('Enabled').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const note = page.getByRole('region', { name: 'This webhook is disabled' });
    await note.waitFor();
    await expect(note.textContent()).resolves.toContain('switched off');
    await checkScreen(page, '13-webhook-disabled');
    await note.getByRole('button', { name: 'Re-enable' }).click();
    await page.locator('.state-on').waitFor();
    const stored = await server.t.database.db
      .selectFrom('webhooks')
      .select(['enabled', 'disabled_at'])
      .where('id', '=', webhookId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ enabled: true, disabled_at: null });
  });

  it("replaces and removes the secret, and shows the API's error naming the field", async () => {
    await page.getByLabel('Replace it').check();
    await page.getByLabel('New secret').fill('short');
    // The browser's own minlength check would stop the form: the API's answer is what is tested.
    await page.evaluate("document.getElementById('w-edit-secret').removeAttribute('minlength')");
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/secret.*must be 16 to 256 characters/);
    // The browser logs the refused request; nothing else went wrong on the page.
    expect(errors.splice(0)).toEqual([
      'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await checkScreen(page, '14-webhook-error');

    await page.getByLabel('Remove it').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('group', { name: 'Secret (none set)' }).waitFor();
    const stored = await server.t.database.db
      .selectFrom('webhooks')
      .select(['secret_sealed'])
      .where('id', '=', webhookId)
      .executeTakeFirstOrThrow();
    expect(stored.secret_sealed).toBeNull();
  });

  it('deletes the webhook after a confirmation', async () => {
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await dialog.waitFor();
    await checkScreen(page, '15-webhook-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhooks yet').waitFor();
    const left = await server.t.database.db.selectFrom('webhooks').select('id').execute();
    expect(left).toEqual([]);
    expect(errors).toEqual([]);
  });
});
