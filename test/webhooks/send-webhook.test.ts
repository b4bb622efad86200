import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SendOptions, sendWebhook } from '../../src/webhooks/send-webhook.js';
import { type HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver.js';
import { BODY, expectError, fakeLookup, HEADERS } from './send-webhook-harness.js';

describe('sendWebhook', () => {
  let receiver: HttpsReceiver;
  let trusted: SendOptions;
  beforeEach(async () => {
    receiver = await startHttpsReceiver();
    trusted = { allowPrivate: true, ca: receiver.ca };
  });
  afterEach(async () => receiver.close());

  it('posts the exact body and headers and returns the response', async () => {
    receiver.setHandler(() => ({ status: 200, body: 'thanks' }));
    const outcome = await sendWebhook({ url: `${receiver.url}/hooks/in?x=1`, headers: HEADERS, body: BODY }, trusted);

    expect(outcome).toMatchObject({ kind: 'response', status: 200, body: 'thanks', truncated: false });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/hooks/in?x=1');
    expect(request?.body).toBe(BODY);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Svc-Webhook/1.0',
      'x-svc-event': 'review.completed',
      'x-svc-delivery': 'dlv_123',
      // Bytes, not characters: the body has multi-byte UTF-8.
      'content-length': String(Buffer.byteLength(BODY)),
    });
    expect(Buffer.byteLength(BODY)).toBeGreaterThan(BODY.length);
  });

  it('sets Content-Length itself, whatever the caller passed', async () => {
    await sendWebhook({ url: receiver.url, headers: { ...HEADERS, 'content-length': '3' }, body: BODY }, trusted);
    expect(receiver.requests[0]?.headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(receiver.requests[0]?.body).toBe(BODY);
  });

  it('opens a new connection for every attempt (a reused one would skip the address check)', async () => {
    const { lookup, calls } = fakeLookup('127.0.0.1');
    const request = { url: `https://hooks.example.com:${receiver.port}/`, headers: HEADERS, body: BODY };
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await sendWebhook(request, { ...trusted, lookup })).toMatchObject({ kind: 'response', status: 200 });
    }
    expect(receiver.connections).toBe(3);
    expect(calls).toHaveLength(3);
  });

  it.each([201, 204, 400, 500])('returns a %i as a response', async (status) => {
    receiver.setHandler(() => ({ status }));
    const outcome = await sendWebhook({ url: receiver.url, headers: HEADERS, body: BODY }, trusted);
    expect(outcome).toMatchObject({ kind: 'response', status, body: '' });
  });

  it('does not follow a redirect', async () => {
    const target = await startHttpsReceiver();
    try {
      receiver.setHandler(() => ({ status: 301, headers: { Location: `${target.url}/elsewhere` }, body: 'moved' }));
      const outcome = await sendWebhook({ url: receiver.url, headers: HEADERS, body: BODY }, trusted);
      expect(outcome).toMatchObject({ kind: 'response', status: 301, body: 'moved' });
      expect(receiver.requests).toHaveLength(1);
      expect(target.connections).toBe(0);
      expect(target.requests).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('times out on a receiver that never answers', async () => {
    receiver.setHandler(() => ({ hang: true }));
    const outcome = await sendWebhook(
      { url: receiver.url, headers: HEADERS, body: BODY },
      { ...trusted, timeoutMs: 300 },
    );
    expect(expectError(outcome)).toBe('timed out after 300 ms');
    // The message names the 300 ms timer (not the 10 s default) as the one that fired; no upper
    // bound on the latency, which load can stretch.
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(290);
    expect(receiver.requests).toHaveLength(1);
  });

  it('counts reading the response body against the timeout', async () => {
    receiver.setHandler(() => ({ status: 200, body: 'partial', hangAfterHeaders: true }));
    const outcome = await sendWebhook(
      { url: receiver.url, headers: HEADERS, body: BODY },
      { ...trusted, timeoutMs: 300 },
    );
    expect(expectError(outcome)).toBe('timed out after 300 ms');
  });

  it('reports a response cut off mid-body as an error', async () => {
    receiver.setHandler(() => {
      setTimeout(() => void receiver.close(), 50);
      return { status: 200, body: 'partial', hangAfterHeaders: true };
    });
    const outcome = await sendWebhook({ url: receiver.url, headers: HEADERS, body: BODY }, trusted);
    expect(expectError(outcome)).toMatch(/^response interrupted/);
  });

  it('keeps only the first 64 KiB of a large response', async () => {
    const big = Buffer.alloc(1024 * 1024, 'a');
    big.write('START', 0);
    receiver.setHandler(() => ({ status: 200, body: big }));
    const outcome = await sendWebhook({ url: receiver.url, headers: HEADERS, body: BODY }, trusted);
    expect(outcome.kind).toBe('response');
    if (outcome.kind !== 'response') return;
    expect(outcome.truncated).toBe(true);
    expect(outcome.body).toHaveLength(65_536);
    expect(outcome.body.startsWith('STARTaaa')).toBe(true);
  });

  it.each([
    ['exactly the limit', 10, false],
    ['one byte over', 11, true],
  ])('sets truncated only when more came (%s)', async (_name, size, truncated) => {
    receiver.setHandler(() => ({ status: 200, body: '0123456789X'.slice(0, size) }));
    const outcome = await sendWebhook(
      { url: receiver.url, headers: HEADERS, body: BODY },
      { ...trusted, maxResponseBytes: 10 },
    );
    expect(outcome).toMatchObject({ kind: 'response', body: '0123456789', truncated });
  });

  it('decodes the body as UTF-8, lossily where the cut splits a character', async () => {
    receiver.setHandler(() => ({ status: 200, body: 'é€' }));
    const outcome = await sendWebhook(
      { url: receiver.url, headers: HEADERS, body: BODY },
      { ...trusted, maxResponseBytes: 3 },
    );
    expect(outcome).toMatchObject({ kind: 'response', body: 'é\uFFFD', truncated: true });
  });

  describe('refuses private destinations unless allowed (the loopback canary)', () => {
    const refused = (port: number) => [
      `https://localhost:${port}/`,
      `https://127.0.0.1:${port}/`,
      `https://[::1]:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://[::ffff:7f00:1]:${port}/`,
      `https://[::127.0.0.1]:${port}/`,
      `https://[64:ff9b::127.0.0.1]:${port}/`,
      `https://[2002:7f00:1::1]:${port}/`,
      // The URL parser turns these into 127.0.0.1 before we see them.
      `https://2130706433:${port}/`,
      `https://0x7f.1:${port}/`,
      `https://0177.0.0.1:${port}/`,
      `https://127.1:${port}/`,
      `https://0:${port}/`,
      `https://169.254.169.254:${port}/`,
      `https://[fd00:ec2::254]:${port}/`,
      `https://10.0.0.5:${port}/`,
    ];

    it('refuses every spelling of a private address without connecting', async () => {
      for (const url of refused(receiver.port)) {
        const outcome = await sendWebhook(
          { url, headers: HEADERS, body: BODY },
          { allowPrivate: false, ca: receiver.ca },
        );
        expect(expectError(outcome), url).toMatch(/^refusing to connect to \S+ \(.+ address/);
      }
      expect(receiver.connections).toBe(0);
    });

    it('says which address and why', async () => {
      const metadata = await sendWebhook(
        { url: 'https://169.254.169.254/latest/meta-data/', headers: HEADERS, body: BODY },
        { allowPrivate: false },
      );
      expect(expectError(metadata)).toBe(
        'refusing to connect to 169.254.169.254 (link-local address, cloud metadata; WEBHOOK_ALLOW_PRIVATE=true admits it)',
      );
      const decimal = await sendWebhook(
        { url: `https://2130706433:${receiver.port}/`, headers: HEADERS, body: BODY },
        { allowPrivate: false },
      );
      expect(expectError(decimal)).toBe(
        'refusing to connect to 127.0.0.1 (loopback address; WEBHOOK_ALLOW_PRIVATE=true admits it)',
      );
      const mapped = await sendWebhook(
        { url: `https://[::ffff:127.0.0.1]:${receiver.port}/`, headers: HEADERS, body: BODY },
        { allowPrivate: false },
      );
      expect(expectError(mapped)).toBe(
        'refusing to connect to ::ffff:7f00:1 (loopback address; WEBHOOK_ALLOW_PRIVATE=true admits it)',
      );
    });

    it('refuses a public-looking name that resolves to loopback, on every attempt', async () => {
      const { lookup, calls } = fakeLookup('127.0.0.1');
      const request = { url: `https://hooks.example.com:${receiver.port}/`, headers: HEADERS, body: BODY };
      for (let attempt = 0; attempt < 2; attempt++) {
        const outcome = await sendWebhook(request, { allowPrivate: false, ca: receiver.ca, lookup });
        expect(expectError(outcome)).toBe(
          'refusing to connect to 127.0.0.1 (loopback address; WEBHOOK_ALLOW_PRIVATE=true admits it)',
        );
      }
      expect(calls.map((call) => call.hostname)).toEqual(['hooks.example.com', 'hooks.example.com']);
      // Node 20 picks the family itself by default (autoSelectFamily) and so asks for all addresses.
      expect(calls[0]?.options.all).toBe(true);
      expect(receiver.connections).toBe(0);
    });

    it('refuses a name when any of its addresses is private', async () => {
      const { lookup } = fakeLookup('93.184.215.14', '10.1.2.3');
      const outcome = await sendWebhook(
        { url: 'https://hooks.example.com/', headers: HEADERS, body: BODY },
        { allowPrivate: false, lookup },
      );
      expect(expectError(outcome)).toBe(
        'refusing to connect to 10.1.2.3 (private address; WEBHOOK_ALLOW_PRIVATE=true admits it)',
      );
    });

    it.each([
      ['localhost', (port: number) => `https://localhost:${port}/`],
      ['127.0.0.1', (port: number) => `https://127.0.0.1:${port}/`],
      ['a decimal IPv4', (port: number) => `https://2130706433:${port}/`],
      ['a hex IPv4', (port: number) => `https://0x7f.1:${port}/`],
    ])('gets through to %s when private addresses are allowed', async (_name, url) => {
      const outcome = await sendWebhook({ url: url(receiver.port), headers: HEADERS, body: BODY }, trusted);
      expect(outcome).toMatchObject({ kind: 'response', status: 200 });
      expect(receiver.connections).toBeGreaterThan(0);
    });

    it('gets through to a name resolving to loopback when private addresses are allowed', async () => {
      const { lookup } = fakeLookup('127.0.0.1');
      const outcome = await sendWebhook(
        { url: `https://hooks.example.com:${receiver.port}/`, headers: HEADERS, body: BODY },
        { ...trusted, lookup },
      );
      expect(outcome).toMatchObject({ kind: 'response', status: 200 });
      expect(receiver.requests[0]?.headers.host).toBe(`hooks.example.com:${receiver.port}`);
    });
  });

  it('fails on an untrusted certificate', async () => {
    const outcome = await sendWebhook({ url: receiver.url, headers: HEADERS, body: BODY }, { allowPrivate: true });
    expect(expectError(outcome)).toMatch(/^certificate not trusted \([A-Z_]+\)$/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('fails on a certificate for another name', async () => {
    const { lookup } = fakeLookup('127.0.0.1');
    const outcome = await sendWebhook(
      { url: `https://other.example.org:${receiver.port}/`, headers: HEADERS, body: BODY },
      { ...trusted, lookup },
    );
    expect(expectError(outcome)).toBe('certificate does not match the host (ERR_TLS_CERT_ALTNAME_INVALID)');
    expect(receiver.requests).toHaveLength(0);
  });

  it.each([
    [
      'ftp',
      (port: number) => `ftp://127.0.0.1:${port}/`,
      'only https URLs are allowed (got ftp:; no setting admits it)',
    ],
    ['not a URL', () => 'hooks.example.com/in', 'invalid URL'],
  ])('refuses %s without connecting', async (_name, url, error) => {
    const outcome = await sendWebhook(
      { url: url(receiver.port), headers: HEADERS, body: BODY },
      { allowPrivate: true, ca: receiver.ca },
    );
    expect(expectError(outcome)).toBe(error);
    expect(receiver.connections).toBe(0);
  });

  it('reports a refused connection readably', async () => {
    const closed = await startHttpsReceiver();
    await closed.close();
    const outcome = await sendWebhook({ url: closed.url, headers: HEADERS, body: BODY }, trusted);
    expect(expectError(outcome)).toBe('connection refused (ECONNREFUSED)');
  });

  it('reports a refused connection readably when a name has several addresses', async () => {
    // Node 20 then tries each (happy eyeballs) and fails with an AggregateError whose message is
    // empty; the code of its first error is what we can report.
    const closed = await startHttpsReceiver();
    await closed.close();
    const { lookup } = fakeLookup('127.0.0.1', '::1');
    const outcome = await sendWebhook(
      { url: `https://hooks.example.com:${closed.port}/`, headers: HEADERS, body: BODY },
      { ...trusted, lookup },
    );
    // 127.0.0.1 is tried first (the first answer's family leads), so its ECONNREFUSED is first.
    expect(expectError(outcome)).toBe('connection refused (ECONNREFUSED)');
  });
});
