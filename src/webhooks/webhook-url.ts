import { isIP } from 'node:net';
import { validationError } from '../common/errors.js';
import {
  ALLOW_PRIVATE_LIFTS,
  forbiddenAddressReason,
  HTTP_BEYOND_LOOPBACK,
  isLoopbackAddress,
} from './address-guard.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks a subscriber URL at registration (decisions §5): `https:`, no credentials in it, and,
 * when private targets are not allowed, not an address we would refuse anyway. With private
 * targets allowed, plain `http:` is admitted for loopback receivers (a literal loopback address,
 * or a name, whose addresses must then all be loopback when delivering). Names are only resolved
 * when connecting, every attempt (DNS can change); this early check spares the user a webhook
 * that could never deliver. Each refusal names the setting that lifts it, or says none does.
 */
export function parseWebhookUrl(input: string, allowPrivate: boolean): string {
  const fail = (issue: string) => validationError('url', issue);
  if (input.length > MAX_WEBHOOK_URL_LENGTH) throw fail(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw fail('must be an absolute URL');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (url.protocol === 'http:') {
    if (!allowPrivate) throw fail('must use https (WEBHOOK_ALLOW_PRIVATE=true admits http for loopback receivers)');
    if (isIP(host) && !isLoopbackAddress(host)) throw fail(`must use https: ${HTTP_BEYOND_LOOPBACK}`);
  } else if (url.protocol !== 'https:') {
    throw fail(`must use https (no setting admits ${url.protocol})`);
  }
  if (url.username !== '' || url.password !== '') throw fail('must not contain a user name or password');
  if (url.hash !== '') throw fail('must not contain a fragment');
  if (!allowPrivate) {
    const reason = isIP(host) ? forbiddenAddressReason(host) : isLocalName(host) ? 'loopback' : undefined;
    if (reason !== undefined) throw fail(`must not point at a ${reason} address (${ALLOW_PRIVATE_LIFTS})`);
  }
  return url.toString();
}

function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
