import http from 'node:http';
import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SendOptions, sendWebhook } from '../../src/webhooks/send-webhook.js';
import { BODY, expectError, fakeLookup, HEADERS } from './send-webhook-harness.js';

/**
 * Plain http (the README's local receiver): admitted with WEBHOOK_ALLOW_PRIVATE for loopback
 * receivers only, judged on the address connected to; every refusal names the setting or says
 * none lifts it.
 */
describe('sendWebhook over plain http', () => {
  let server: http.Server;
  let port = 0;
  let connections = 0;
  const bodies: string[] = [];
  beforeEach(async () => {
    connections = 0;
    bodies.length = 0;
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.end('plain thanks');
      });
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (url: string, options: SendOptions) => sendWebhook({ url, headers: HEADERS, body: BODY }, options);

  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port}/in`],
    ['localhost', () => `http://localhost:${port}/in`],
    ['IPv4-mapped 127.0.0.1', () => `http://[::ffff:127.0.0.1]:${port}/in`],
  ])('delivers to a loopback receiver (%s) with private addresses allowed', async (_name, url) => {
    const outcome = await send(url(), { allowPrivate: true });
    expect(outcome).toMatchObject({ kind: 'response', status: 200, body: 'plain thanks' });
    expect(bodies).toEqual([BODY]);
  });

  it('refuses it without private addresses allowed, naming WEBHOOK_ALLOW_PRIVATE, and does not connect', async () => {
    for (const url of [`http://127.0.0.1:${port}/in`, `http://localhost:${port}/in`]) {
      const outcome = await send(url, { allowPrivate: false });
      expect(expectError(outcome), url).toBe(
        'only https URLs are allowed (got http:; WEBHOOK_ALLOW_PRIVATE=true admits it for loopback receivers)',
      );
    }
    expect(connections).toBe(0);
  });

  it.each(['10.0.0.5', '192.168.1.20', '169.254.169.254', '[64:ff9b::7f00:1]', '[::127.0.0.1]', '93.184.215.14'])(
    'refuses http to %s even with private addresses allowed, saying no setting lifts it',
    async (host) => {
      const outcome = await send(`http://${host}:${port}/in`, { allowPrivate: true });
      expect(expectError(outcome)).toMatch(
        /^refusing plain http to \S+ \(not a loopback address\): .*no setting lifts this, use https$/,
      );
    },
  );

  it('delivers to a name that resolves to loopback at delivery, resolving it on every attempt', async () => {
    const { lookup, calls } = fakeLookup('127.0.0.1');
    for (let attempt = 0; attempt < 2; attempt++) {
      const outcome = await send(`http://receiver.internal:${port}/in`, { allowPrivate: true, lookup });
      expect(outcome).toMatchObject({ kind: 'response', status: 200 });
    }
    expect(calls.map((call) => call.hostname)).toEqual(['receiver.internal', 'receiver.internal']);
    expect(connections).toBe(2);
  });

  it('refuses a name whose addresses are not all loopback at delivery, without connecting', async () => {
    for (const addresses of [['10.1.2.3'], ['127.0.0.1', '10.1.2.3']]) {
      const { lookup } = fakeLookup(...addresses);
      const outcome = await send(`http://receiver.internal:${port}/in`, { allowPrivate: true, lookup });
      expect(expectError(outcome), addresses.join()).toBe(
        'refusing plain http to 10.1.2.3 (not a loopback address): plain http is admitted only for loopback ' +
          'receivers (127.0.0.0/8, ::1, localhost); no setting lifts this, use https',
      );
    }
    expect(connections).toBe(0);
  });
});
