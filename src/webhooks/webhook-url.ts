import { isIP } from 'node:net';
import { validationError } from '../common/errors.js';
import { forbiddenAddressReason } from './address-guard.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks a subscriber URL at registration (decisions §5): `https:`, no credentials in it, and,
 * when private targets are not allowed, not an address we would refuse anyway. Names are only
 * resolved when connecting, every attempt (DNS can change); this early check spares the user a
 * webhook that could never deliver.
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
  if (url.protocol !== 'https:') throw fail('must use https');
  if (url.username !== '' || url.password !== '') throw fail('must not contain a user name or password');
  if (url.hash !== '') throw fail('must not contain a fragment');
  if (!allowPrivate) {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const reason = isIP(host) ? forbiddenAddressReason(host) : isLocalName(host) ? 'loopback' : undefined;
    if (reason !== undefined) throw fail(`must not point at a ${reason} address`);
  }
  return url.toString();
}

function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
