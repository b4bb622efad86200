import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The spec 6.2 check a receiver makes: HMAC-SHA256 of the raw body, compared in constant time. */
function specSignatureValid(body: string, header: string | undefined, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(header ?? '');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const DELAYS = [0, 1000, 2000, 3000, 4000];

describe('webhook delivery', () => {
  let receiver: HttpsReceiver;
  let t: TestApp;
  let key: string;
  let liveKey: string;
  const secret = ['s3cret', 'for', 'the', 'receiver', String(42)].join('-');

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: DELAYS.join(',') },
      webhookSend: { ca: receiver.ca, timeoutMs: 1000 },
    });
    const { user } = await t.createUser();
    key = await t.createToken(user.id, { mode: 'test' });
    liveKey = await t.createToken(user.id, { mode: 'live' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  beforeEach(async () => {
    // Each test starts with no subscription, so a failed one cannot feed the next.
    await t.database.db.deleteFrom('webhooks').execute();
    receiver.requests.length = 0;
    receiver.setHandler(() => ({ status: 200, body: 'ok' }));
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, apiKey = key) =>
    t.app.inject({ method, url, headers: { 'x-api-key': apiKey }, ...(payload ? { payload } : {}) });
  const subscribe = async (events: string[], options: { secret?: string; apiKey?: string; path?: string } = {}) => {
    const res = await call(
      'POST',
      '/v1/webhooks',
      {
        url: `${receiver.url}${options.path ?? '/hook'}`,
        events,
        ...(options.secret ? { secret: options.secret } : {}),
      },
      options.apiKey ?? key,
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string };
  };
  const review = async (number: number) => {
    const res = await call('POST', '/v1/reviews', { pull_request_url: `https://github.com/acme/shop/pull/${number}` });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  const deliveries = async (webhookId: string) => (await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).json();
  const unsubscribe = async (id: string) => expect((await call('DELETE', `/v1/webhooks/${id}`)).statusCode).toBe(204);

  it('delivers each subscribed event once, with the exact body, headers and both signatures', async () => {
    const hook = await subscribe(
      ['review.created', 'review.started', 'review.in_progress', 'review.completed', 'security.alert'],
      { secret },
    );
    const live = await subscribe(['review.completed', 'security.alert'], { apiKey: liveKey });
    const reviewId = await review(2);
    await t.runJobs();

    const events = await t.database.db
      .selectFrom('events')
      .selectAll()
      .where('review_id', '=', reviewId)
      .orderBy('seq')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'review.created',
      'review.started',
      'review.in_progress',
      'review.completed',
      'security.alert',
    ]);
    // One request per event (deliveries run in no promised order).
    const eventIdOf = (body: string) => JSON.parse(body).id as string;
    expect(receiver.requests.map((r) => eventIdOf(r.body)).sort()).toEqual(events.map((e) => e.id).sort());
    const log = (await deliveries(hook.id)).data as { id: string; event_id: string; status: string }[];
    const standard = new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
    const received = (type: string) => receiver.requests.find((r) => r.headers['x-svc-event'] === type);
    for (const request of receiver.requests) {
      const event = events.find((e) => e.id === eventIdOf(request.body));
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/hook');
      expect(request.body).toBe(
        JSON.stringify({
          id: event?.id,
          type: event?.type,
          created_at: event?.created_at.toISOString(),
          data: event?.data,
        }),
      );
      const delivery = log.find((d) => d.event_id === event?.id);
      expect(delivery?.status).toBe('delivered');
      expect(request.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'Svc-Webhook/1.0',
        'x-svc-event': event?.type,
        'x-svc-delivery': delivery?.id,
        'webhook-id': delivery?.id,
        'webhook-timestamp': String(Math.floor(t.clock.now().getTime() / 1000)),
      });
      expect(specSignatureValid(request.body, request.headers['x-svc-signature'] as string, secret)).toBe(true);
      expect(specSignatureValid(request.body, request.headers['x-svc-signature'] as string, `${secret}x`)).toBe(false);
      expect(() => standard.verify(request.body, request.headers as Record<string, string>)).not.toThrow();
      expect(() => standard.verify(`${request.body} `, request.headers as Record<string, string>)).toThrow();
    }

    // Spec 6.3's review.completed and security.alert bodies, field for field.
    const completed = JSON.parse(received('review.completed')?.body ?? '{}');
    expect(completed.data).toEqual({
      review_id: reviewId,
      status: 'completed',
      repository: { id: expect.any(String), name: 'acme/shop', provider: 'github' },
      pull_request: { number: 2, title: expect.any(String), url: 'https://github.com/acme/shop/pull/2' },
      summary: { status: 'changes_requested', issues_found: 2, critical: 1, high: 1, medium: 0, low: 0 },
      review_url: `http://redline.test/v1/reviews/${reviewId}`,
    });
    const alert = JSON.parse(received('security.alert')?.body ?? '{}');
    const [critical] = (await call('GET', `/v1/reviews/${reviewId}/comments`)).json().data;
    expect(alert.data).toEqual({
      alert_id: critical.id,
      severity: 'critical',
      type: expect.any(String),
      repository: { id: completed.data.repository.id, name: 'acme/shop' },
      file: critical.file,
      line: critical.line,
      description: critical.message,
      recommendation: critical.suggestion,
      cwe: 'CWE-89',
      cvss_score: 9.8,
    });
    // A live subscription never hears of test-mode events (decisions §2).
    expect((await call('GET', `/v1/webhooks/${live.id}/deliveries`, undefined, liveKey)).json().data).toEqual([]);
    await unsubscribe(hook.id);
    await call('DELETE', `/v1/webhooks/${live.id}`, undefined, liveKey);
  });

  it('sends no signature headers without a secret, and only the events subscribed to', async () => {
    const hook = await subscribe(['review.failed']);
    await review(1);
    await review(3);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request?.headers['x-svc-event']).toBe('review.failed');
    expect(request?.headers['x-svc-signature']).toBeUndefined();
    expect(request?.headers['webhook-signature']).toBeUndefined();
    expect(JSON.parse(request?.body ?? '{}').data.error).toEqual({ code: 'test_failure', message: expect.any(String) });
    await unsubscribe(hook.id);
  });

  it('retries on the schedule, disables after the fifth failure, and redelivers once re-enabled', async () => {
    receiver.setHandler(() => ({ status: 500, body: 'down' }));
    const hook = await subscribe(['review.completed']);
    const start = t.clock.now().getTime();
    await review(1);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(1);
    for (const [i, delay] of DELAYS.slice(1).entries()) {
      t.clock.advance(delay - 1);
      await t.runJobs();
      expect(receiver.requests, `attempt ${i + 2} is not due yet`).toHaveLength(i + 1);
      t.clock.advance(1);
      await t.runJobs();
      expect(receiver.requests).toHaveLength(i + 2);
    }
    t.clock.advance(60_000);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(5);
    // The same delivery every time.
    expect(new Set(receiver.requests.map((r) => r.headers['x-svc-delivery'])).size).toBe(1);
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);

    const [delivery] = (await deliveries(hook.id)).data;
    expect(delivery.status).toBe('failed');
    expect(delivery.next_attempt_at).toBeNull();
    let at = start;
    expect(
      delivery.attempts.map((a: { attempt: number; status_code: number; error: string; created_at: string }) => [
        a.attempt,
        a.status_code,
        a.error,
        Date.parse(a.created_at) - start,
      ]),
    ).toEqual(
      DELAYS.map((d, i) => {
        at += d;
        return [i + 1, 500, 'answered 500', at - start];
      }),
    );
    expect(delivery.attempts[0].response_body).toBe('down');
    const disabled = (await call('GET', `/v1/webhooks/${hook.id}`)).json().data;
    expect(disabled).toMatchObject({ enabled: false, failure_count: 5 });
    expect(disabled.disabled_at).not.toBeNull();

    // Disabled: new events are not delivered, and redelivery waits for re-enabling.
    await review(1);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(5);
    const early = await call('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(early.statusCode).toBe(409);

    receiver.setHandler(() => ({ status: 204 }));
    const enabled = (await call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true })).json().data;
    expect(enabled).toMatchObject({ enabled: true, failure_count: 0, disabled_at: null });
    const again = await call('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(again.statusCode).toBe(202);
    expect(again.json().data).toMatchObject({ status: 'pending', redelivery_of: delivery.id, attempts: [] });
    await t.runJobs();
    expect(receiver.requests).toHaveLength(6);
    const resent = receiver.requests[5];
    expect(resent?.body).toBe(receiver.requests[0]?.body);
    expect(resent?.headers['x-svc-delivery']).toBe(again.json().data.id);
    const log = (await deliveries(hook.id)).data;
    expect(log[0]).toMatchObject({ id: again.json().data.id, status: 'delivered' });
    expect(log[0].attempts).toMatchObject([{ attempt: 1, status_code: 204, error: null }]);
    await unsubscribe(hook.id);
  });

  it('ends, without an attempt, the retries still pending when the failures disable the webhook', async () => {
    // Decisions §5: a disabled webhook gets nothing more; re-enabling resends nothing, redeliver does.
    receiver.setHandler(() => ({ status: 503, body: 'down' }));
    const hook = await subscribe(['review.created']);
    await review(11);
    await t.runJobs();
    for (const delay of DELAYS.slice(1, 4)) {
      t.clock.advance(delay);
      await t.runJobs();
    }
    expect(receiver.requests).toHaveLength(4);
    const first = receiver.requests[0]?.headers['x-svc-delivery'];
    // A second delivery starts failing while the first has one attempt left.
    await review(12);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(5);
    t.clock.advance(DELAYS[4] as number);
    await t.runJobs(); // the second's attempt 2, then the first's attempt 5, which disables the webhook
    expect(receiver.requests).toHaveLength(7);
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).json().data).toMatchObject({ enabled: false });
    t.clock.advance(60_000);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(7);
    const log = (await deliveries(hook.id)).data as { id: string; status: string; attempts: unknown[] }[];
    const second = log.find((d) => d.id !== first);
    // Two attempts made; the third found the webhook disabled and made none.
    expect(second).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(second?.attempts).toHaveLength(2);

    receiver.setHandler(() => ({ status: 200 }));
    expect((await call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true })).statusCode).toBe(200);
    t.clock.advance(60_000);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(7);
    const again = await call('POST', `/v1/webhooks/${hook.id}/deliveries/${second?.id}/redeliver`);
    expect(again.statusCode).toBe(202);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(8);
    expect(receiver.requests[7]?.body).toBe(receiver.requests[4]?.body);
    expect(receiver.requests[7]?.headers['x-svc-delivery']).toBe(again.json().data.id);
    await unsubscribe(hook.id);
  });

  it('counts a redirect, a timeout and a 500 as failures, and follows no redirect', async () => {
    const hook = await subscribe(['review.completed']);
    const answers = [
      { status: 301, headers: { location: `${receiver.url}/elsewhere` } },
      { hang: true },
      { status: 500 },
      { status: 200, body: 'x'.repeat(100_000) },
    ];
    receiver.setHandler((_request, index) => answers[index] ?? { status: 200 });
    await review(1);
    for (const delay of [0, ...DELAYS.slice(1, 4)]) {
      t.clock.advance(delay);
      await t.runJobs();
    }
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hook', '/hook', '/hook', '/hook']);
    const [delivery] = (await deliveries(hook.id)).data;
    expect(delivery.status).toBe('delivered');
    const attempts = delivery.attempts as { status_code: number | null; error: string | null; response_body: string }[];
    expect(attempts.map((a) => [a.status_code, a.error])).toEqual([
      [301, 'answered 301 (redirects are not followed)'],
      [null, expect.stringContaining('timed out')],
      [500, 'answered 500'],
      [200, null],
    ]);
    expect(attempts[3]?.response_body).toHaveLength(65_536);
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).json().data.failure_count).toBe(0);
    await unsubscribe(hook.id);
  });

  it('lists deliveries newest first, a page at a time; a cursor from another list is refused', async () => {
    const hook = await subscribe(['review.completed']);
    const other = await subscribe(['review.completed'], { path: '/other' });
    const ping = async (id: string) => {
      t.clock.advance(10);
      const res = await call('POST', `/v1/webhooks/${id}/test`);
      expect(res.statusCode).toBe(202);
      return res.json().data.id as string;
    };
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await ping(hook.id));
    const foreign = await ping(other.id);
    const page = async (query: string) => (await call('GET', `/v1/webhooks/${hook.id}/deliveries?${query}`)).json();
    const first = await page('limit=2');
    expect(first.data.map((d: { id: string }) => d.id)).toEqual([ids[4], ids[3]]);
    expect(first.pagination).toEqual({ has_more: true, next_cursor: ids[3] });
    const second = await page(`limit=2&after=${ids[3]}`);
    expect(second.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const last = await page(`limit=2&after=${ids[1]}`);
    expect(last.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(last.pagination).toEqual({ has_more: false, next_cursor: null });
    const refused = await call('GET', `/v1/webhooks/${hook.id}/deliveries?after=${foreign}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toEqual({ field: 'after', issue: 'is not a delivery id of this list' });
  });

  it('sends a ping to one webhook on request, once, even when it fails', async () => {
    const hook = await subscribe(['config.updated']);
    const other = await subscribe(['config.updated']);
    receiver.setHandler(() => ({ status: 503 }));
    const res = await call('POST', `/v1/webhooks/${hook.id}/test`);
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ event_type: 'ping', status: 'pending', webhook_id: hook.id });
    await t.runJobs();
    t.clock.advance(60_000);
    await t.runJobs();
    expect(receiver.requests).toHaveLength(1);
    const body = JSON.parse(receiver.requests[0]?.body ?? '{}');
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'ping',
      created_at: expect.any(String),
      data: { webhook_id: hook.id, url: `${receiver.url}/hook`, events: ['config.updated'] },
    });
    expect(receiver.requests[0]?.headers['x-svc-event']).toBe('ping');
    const [delivery] = (await deliveries(hook.id)).data;
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ attempt: 1, status_code: 503 }] });
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).json().data).toMatchObject({
      enabled: true,
      failure_count: 0,
    });
    expect((await deliveries(other.id)).data).toEqual([]);
    await unsubscribe(hook.id);
    await unsubscribe(other.id);
  });
});
