import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('webhook delivery with private targets refused', () => {
  let receiver: HttpsReceiver;
  let t: TestApp;
  let key: string;
  // A public-looking name that resolves to loopback: the guard must judge the address, not the name.
  const lookup = ((_host: string, options: unknown, callback: unknown) => {
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const address: LookupAddress = { address: '127.0.0.1', family: 4 };
    if (all) cb(null, [address]);
    else cb(null, address.address, address.family);
  }) as unknown as typeof import('node:dns').lookup;

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await createTestApp({ webhookSend: { ca: receiver.ca, lookup } });
    const { user } = await t.createUser();
    key = await t.createToken(user.id);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('refuses to connect when the name resolves to loopback: the canary sees no connection', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'x-api-key': key },
      payload: { url: `https://hooks.example.com:${receiver.port}/hook`, events: ['review.completed'] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    await t.app.inject({ method: 'POST', url: `/v1/webhooks/${id}/test`, headers: { 'x-api-key': key } });
    await t.runJobs();
    expect(receiver.connections).toBe(0);
    const log = await t.app.inject({
      method: 'GET',
      url: `/v1/webhooks/${id}/deliveries`,
      headers: { 'x-api-key': key },
    });
    const [attempt] = log.json().data[0].attempts;
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toContain('127.0.0.1');
    expect(attempt.error).toContain('loopback');
  });
});
