import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { urlToHttpOptions } from 'node:url';
import {
  ForbiddenAddressError,
  forbiddenAddressReason,
  guardedLookup,
  isLoopbackAddress,
  PlainHttpAddressError,
} from './address-guard.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 65_536;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type WebhookOutcome =
  | { kind: 'response'; status: number; body: string; truncated: boolean; latencyMs: number }
  | { kind: 'error'; error: string; latencyMs: number };

export interface SendOptions {
  /**
   * Let deliveries reach loopback/private/link-local addresses (local development, tests), and
   * use plain http to loopback receivers (and only to them: checked on the resolved address).
   */
  allowPrivate: boolean;
  /** The whole attempt: lookup, connect, TLS, request and reading the response. */
  timeoutMs?: number;
  /** Only this much of the response body is kept; the connection is dropped after it. */
  maxResponseBytes?: number;
  /** An extra trusted CA on top of Node's default trust (tests' self-signed receiver). */
  ca?: string | Buffer;
  /** The resolver behind the address guard (tests inject a fake one). */
  lookup?: typeof dns.lookup;
}

/**
 * One delivery attempt: POST `request.body` to `request.url` and report what came back. Never
 * throws for network trouble: every failure is an `error` outcome with a readable message, since
 * the caller records it per attempt and retries. Redirects are never followed (a 3xx is just a
 * response; following one would let a public receiver point us at an internal address). No
 * connection is reused, so every attempt resolves and checks the address anew.
 */
export async function sendWebhook(request: WebhookRequest, options: SendOptions): Promise<WebhookOutcome> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  const fail = (error: string): WebhookOutcome => ({ kind: 'error', error, latencyMs: latencyMs() });

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return fail('invalid URL');
  }
  const plain = url.protocol === 'http:';
  if (!plain && url.protocol !== 'https:') {
    return fail(`only https URLs are allowed (got ${url.protocol}; no setting admits it)`);
  }
  if (plain && !options.allowPrivate) {
    return fail('only https URLs are allowed (got http:; WEBHOOK_ALLOW_PRIVATE=true admits it for loopback receivers)');
  }

  // Node skips `lookup` for IP-literal hosts, so the guard would never see them: check here. The
  // URL parser has already normalised odd IPv4 spellings ('2130706433', '0x7f.1') to dotted quads.
  const httpOptions = urlToHttpOptions(url);
  const host = httpOptions.hostname ?? '';
  if (isIP(host)) {
    if (plain && !isLoopbackAddress(host)) return fail(new PlainHttpAddressError(host).message);
    const reason = options.allowPrivate ? undefined : forbiddenAddressReason(host);
    if (reason !== undefined) return fail(new ForbiddenAddressError(host, reason).message);
  }

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() !== 'content-length') headers[name] = value;
  }
  headers['Content-Length'] = String(Buffer.byteLength(request.body));

  return new Promise<WebhookOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };

    const common = {
      ...httpOptions,
      method: 'POST',
      headers,
      // A fresh agent per request: no pooled socket skips the lookup (and so the guard).
      agent: false,
      lookup: guardedLookup({ allowPrivate: options.allowPrivate, loopbackOnly: plain, lookup: options.lookup }),
    } as const;
    const req = plain
      ? http.request(common)
      : https.request({ ...common, ...(options.ca === undefined ? {} : { secureContext: trustingAlso(options.ca) }) });

    const timer = setTimeout(() => {
      settle(fail(`timed out after ${timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);

    // Stays attached after settling: a late socket error must not become an uncaught exception.
    req.on('error', (error) => settle(fail(describeError(error))));

    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = (truncated: boolean) => {
        settle({
          kind: 'response',
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          truncated,
          latencyMs: latencyMs(),
        });
      };
      res.on('data', (chunk: Buffer) => {
        const room = maxResponseBytes - kept;
        if (chunk.length <= room) {
          chunks.push(chunk);
          kept += chunk.length;
          return;
        }
        // More than we keep: stop reading and drop the connection rather than drain it.
        chunks.push(chunk.subarray(0, room));
        kept += room;
        finish(true);
        req.destroy();
      });
      res.on('end', () => finish(false));
      // A body cut off mid-way (reset, premature close) is not a trustworthy acknowledgement.
      res.on('error', (error) => settle(fail(`response interrupted: ${describeError(error)}`)));
      // Closed without 'end' and without an error: settle anyway (a no-op after 'end').
      res.on('close', () => settle(fail('response interrupted: connection closed early')));
    });

    req.end(request.body);
  });
}

let lastTrust: { ca: string | Buffer; context: tls.SecureContext } | undefined;

/**
 * A TLS context trusting Node's default roots plus `ca` (`ca` alone would replace the roots).
 * Building it parses ~150 root certificates (tens of milliseconds), so the last one is kept: the
 * extra CA is a configuration constant, not something that varies per attempt.
 */
function trustingAlso(ca: string | Buffer): tls.SecureContext {
  if (lastTrust?.ca !== ca) lastTrust = { ca, context: tls.createSecureContext({ ca: [...tls.rootCertificates, ca] }) };
  return lastTrust.context;
}

const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  'CERT_CHAIN_TOO_LONG',
]);

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  CERT_HAS_EXPIRED: 'certificate expired',
  CERT_NOT_YET_VALID: 'certificate not yet valid',
  CERT_REVOKED: 'certificate revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate does not match the host',
};

/** A message for the delivery log: what went wrong in words, with Node's code to search for. */
function describeError(error: Error & { code?: unknown }): string {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code === 'ERR_WEBHOOK_ADDRESS') return error.message;
  if (code !== undefined) {
    if (UNTRUSTED_CERTIFICATE.has(code)) return `certificate not trusted (${code})`;
    const words = NETWORK_ERRORS[code];
    if (words !== undefined) return `${words} (${code})`;
    if (code.startsWith('ERR_SSL_') || code === 'EPROTO') return `TLS handshake failed (${code}: ${error.message})`;
  }
  // Node 20's happy eyeballs reports a failure of every address as an AggregateError with an
  // empty message; its `code` (the first error's), handled above, is the useful part.
  const message = error.message || error.name;
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
}
