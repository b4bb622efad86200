import type dns from 'node:dns';
import net from 'node:net';
import { expect } from 'vitest';
import type { WebhookOutcome } from '../../src/webhooks/send-webhook.js';

export const BODY = JSON.stringify({ id: 'evt_1', type: 'review.completed', data: { note: 'naïve café ✓' } });
export const HEADERS = {
  'Content-Type': 'application/json',
  'User-Agent': 'Svc-Webhook/1.0',
  'X-Svc-Event': 'review.completed',
  'X-Svc-Delivery': 'dlv_123',
};

/** A resolver that answers every name with `addresses` and counts how often it was asked. */
export function fakeLookup(...addresses: string[]) {
  const calls: { hostname: string; options: dns.LookupOptions }[] = [];
  const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    calls.push({ hostname, options });
    const all = addresses.map((address) => ({ address, family: net.isIP(address) }));
    setImmediate(() => (options.all ? callback(null, all) : callback(null, all[0]?.address, all[0]?.family)));
  }) as unknown as typeof dns.lookup;
  return { lookup, calls };
}

export function expectError(outcome: WebhookOutcome): string {
  expect(outcome.kind).toBe('error');
  return outcome.kind === 'error' ? outcome.error : '';
}
