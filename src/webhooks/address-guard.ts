import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses a webhook delivery may connect to. A webhook URL is chosen by a customer, so
 * without this check the service could be made to POST into its own network (databases, admin
 * ports, the cloud metadata endpoint that hands out credentials). The ranges come from the IANA
 * special-purpose registries (RFC 6890 and successors); anything that is not ordinary public
 * unicast is refused.
 *
 * Matching is plain prefix arithmetic on BigInts rather than `net.BlockList`: a BlockList only
 * answers yes/no (we want to name the class), and its implicit matching of IPv4 rules against
 * IPv4-mapped IPv6 addresses does not cover the other embeddings (NAT64, 6to4, compatible), which
 * we unwrap ourselves and judge by their IPv4.
 */

type Rule =
  | { kind: 'refuse'; base: bigint; bits: number; reason: string }
  /** The range carries an IPv4 address (`extract` pulls it out); the IPv4 decides. */
  | { kind: 'embedded'; base: bigint; bits: number; extract: (address: bigint) => bigint };

const IPV4_RULES: readonly Rule[] = [
  // Most specific first: the first matching rule names the class.
  refuse4('169.254.169.254/32', 'link-local (cloud metadata)'),
  refuse4('0.0.0.0/8', 'unspecified'),
  refuse4('10.0.0.0/8', 'private'),
  refuse4('100.64.0.0/10', 'carrier-grade NAT'),
  refuse4('127.0.0.0/8', 'loopback'),
  refuse4('169.254.0.0/16', 'link-local'),
  refuse4('172.16.0.0/12', 'private'),
  refuse4('192.0.0.0/24', 'reserved'),
  refuse4('192.0.2.0/24', 'documentation'),
  // The deprecated 6to4 relay anycast (RFC 7526): nothing a webhook would live on.
  refuse4('192.88.99.0/24', 'reserved'),
  refuse4('192.168.0.0/16', 'private'),
  refuse4('198.18.0.0/15', 'benchmarking'),
  refuse4('198.51.100.0/24', 'documentation'),
  refuse4('203.0.113.0/24', 'documentation'),
  refuse4('224.0.0.0/4', 'multicast'),
  refuse4('255.255.255.255/32', 'broadcast'),
  refuse4('240.0.0.0/4', 'reserved'),
];

const LOW_32 = 0xffff_ffffn;

const IPV6_RULES: readonly Rule[] = [
  refuse6('::/128', 'unspecified'),
  refuse6('::1/128', 'loopback'),
  // IPv4-mapped (::ffff:a.b.c.d): a dual-stack socket sends these to the IPv4 address.
  embedded6('::ffff:0:0/96', (a) => a & LOW_32),
  // IPv4-compatible (::a.b.c.d, deprecated); after :: and ::1 above, which it would swallow.
  embedded6('::/96', (a) => a & LOW_32),
  // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765 SIIT).
  embedded6('::ffff:0:0:0/96', (a) => a & LOW_32),
  // NAT64 well-known prefix: a NAT64 gateway forwards these to the embedded IPv4.
  embedded6('64:ff9b::/96', (a) => a & LOW_32),
  // Local-use NAT64 (RFC 8215): the IPv4 may sit at several offsets, so refuse it whole.
  refuse6('64:ff9b:1::/48', 'local-use NAT64'),
  refuse6('100::/64', 'reserved'),
  refuse6('2001:2::/48', 'benchmarking'),
  // IETF protocol assignments (Teredo, ORCHID, ...): no webhook receiver lives here.
  refuse6('2001::/23', 'reserved'),
  refuse6('2001:db8::/32', 'documentation'),
  // 6to4: the IPv4 of the tunnel end is bits 16-48.
  embedded6('2002::/16', (a) => (a >> 80n) & LOW_32),
  refuse6('3fff::/20', 'documentation'),
  // AWS's IPv6 instance metadata endpoint.
  refuse6('fd00:ec2::254/128', 'unique-local (cloud metadata)'),
  refuse6('fc00::/7', 'unique-local'),
  refuse6('fe80::/10', 'IPv6 link-local'),
  refuse6('fec0::/10', 'site-local'),
  refuse6('ff00::/8', 'multicast'),
];

/** Only 2000::/3 is allocated as global unicast; everything else is reserved by IANA. */
const IPV6_GLOBAL_UNICAST = cidr6('2000::/3');

/**
 * Why a webhook delivery must not connect to `ip`, or `undefined` when it may. Accepts the
 * textual forms `net.isIP` accepts (IPv6 with an optional `%zone`, no brackets); anything else is
 * refused as 'not an IP address' since it cannot be judged.
 */
export function forbiddenAddressReason(ip: string): string | undefined {
  const family = isIP(ip);
  if (family === 4) return judge4(parseIPv4(ip));
  if (family === 6) return judge6(parseIPv6(ip.replace(/%.*$/, '')));
  return 'not an IP address';
}

function judge4(address: bigint): string | undefined {
  for (const rule of IPV4_RULES) {
    if (rule.kind === 'refuse' && matches(address, 32, rule.base, rule.bits)) return rule.reason;
  }
  return undefined;
}

function judge6(address: bigint): string | undefined {
  for (const rule of IPV6_RULES) {
    if (!matches(address, 128, rule.base, rule.bits)) continue;
    return rule.kind === 'refuse' ? rule.reason : judge4(rule.extract(address));
  }
  return matches(address, 128, IPV6_GLOBAL_UNICAST.base, IPV6_GLOBAL_UNICAST.bits) ? undefined : 'reserved';
}

function matches(address: bigint, width: number, base: bigint, bits: number): boolean {
  const shift = BigInt(width - bits);
  return address >> shift === base >> shift;
}

/** `text` is dotted-quad as `net.isIP` validated it (four decimal parts, no leading zeros). */
function parseIPv4(text: string): bigint {
  return text.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** `text` is IPv6 as `net.isIP` validated it, without zone. */
function parseIPv6(text: string): bigint {
  let hex = text;
  const lastColon = hex.lastIndexOf(':');
  const last = hex.slice(lastColon + 1);
  if (last.includes('.')) {
    // An IPv4 tail ('::ffff:1.2.3.4') is the last two words: rewrite it as hex.
    const v4 = parseIPv4(last);
    hex = `${hex.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16)));
  const gap = hex.indexOf('::');
  let all: number[];
  if (gap === -1) {
    all = words(hex);
  } else {
    const head = words(hex.slice(0, gap));
    const tail = words(hex.slice(gap + 2));
    all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return all.reduce((value, word) => (value << 16n) | BigInt(word), 0n);
}

function cidr6(text: string): { base: bigint; bits: number } {
  const [address = '', bits = ''] = text.split('/');
  return { base: parseIPv6(address), bits: Number(bits) };
}

function refuse4(text: string, reason: string): Rule {
  const [address = '', bits = ''] = text.split('/');
  return { kind: 'refuse', base: parseIPv4(address), bits: Number(bits), reason };
}

function refuse6(text: string, reason: string): Rule {
  return { kind: 'refuse', ...cidr6(text), reason };
}

function embedded6(text: string, extract: (address: bigint) => bigint): Rule {
  return { kind: 'embedded', ...cidr6(text), extract };
}

const LOOPBACK4 = { base: parseIPv4('127.0.0.0'), bits: 8 };
const MAPPED4 = cidr6('::ffff:0:0/96');

/**
 * Whether `ip` is on this host's loopback: 127.0.0.0/8, ::1, or an IPv4-mapped 127.x (a dual-stack
 * socket sends those to the IPv4 loopback). Deliberately narrower than "judged loopback" above:
 * NAT64, 6to4 and IPv4-compatible spellings of 127.x leave the host through a gateway, so plain
 * http to them would cross a network.
 */
export function isLoopbackAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return matches(parseIPv4(ip), 32, LOOPBACK4.base, LOOPBACK4.bits);
  if (family !== 6) return false;
  const address = parseIPv6(ip.replace(/%.*$/, ''));
  if (address === 1n) return true;
  return (
    matches(address, 128, MAPPED4.base, MAPPED4.bits) && matches(address & LOW_32, 32, LOOPBACK4.base, LOOPBACK4.bits)
  );
}

/** What a refusal message says about lifting it: the setting that would, or that none does. */
export const ALLOW_PRIVATE_LIFTS = 'WEBHOOK_ALLOW_PRIVATE=true admits it';
export const HTTP_BEYOND_LOOPBACK =
  'plain http is admitted only for loopback receivers (127.0.0.0/8, ::1, localhost); no setting lifts this, use https';

/** The error a refused connection fails with; `code` lets callers tell it from network errors. */
export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS';
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    // 'link-local (cloud metadata)' reads better as '(link-local address, cloud metadata)'.
    const note = /^(.*) \((.*)\)$/.exec(reason);
    const what = note ? `${note[1]} address, ${note[2]}` : `${reason} address`;
    super(`refusing to connect to ${address} (${what}; ${ALLOW_PRIVATE_LIFTS})`);
    this.name = 'ForbiddenAddressError';
  }
}

/** A plain-http delivery whose address is not loopback; same `code` as ForbiddenAddressError. */
export class PlainHttpAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS';
  constructor(readonly address: string) {
    super(`refusing plain http to ${address} (not a loopback address): ${HTTP_BEYOND_LOOPBACK}`);
    this.name = 'PlainHttpAddressError';
  }
}

/**
 * A `lookup` for `https.request` / `net.connect` that resolves the name and refuses the
 * connection when any resolved address is forbidden. Checking at connection time (not when the
 * URL is saved) is what defeats DNS rebinding: the address checked is the address connected to.
 * One forbidden address refuses the whole name, because with happy eyeballs Node may try any of
 * them. With `loopbackOnly` (plain http) every address must be loopback, for the same reason.
 *
 * Node calls this in two shapes: `{ all: true }` expecting `(err, [{ address, family }])` (Node
 * 20's `net` does so whenever it auto-selects the family, the default), or without `all`
 * expecting `(err, address, family)`. The underlying lookup's answer is normalised to the shape
 * asked for, so a fake resolver that ignores `all` still works, and an empty answer becomes an
 * ENOTFOUND error (Node 20's `net` throws a TypeError on an empty array).
 */
export function guardedLookup(options: {
  allowPrivate: boolean;
  /** Plain http: every resolved address must be loopback, whatever `allowPrivate` says. */
  loopbackOnly?: boolean;
  lookup?: typeof dns.lookup;
}): LookupFunction {
  const resolve = options.lookup ?? dns.lookup;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, lookupOptions, (error, answer) => {
      if (error) {
        callback(error, lookupOptions.all ? [] : '');
        return;
      }
      const addresses = (Array.isArray(answer) ? answer : [{ address: answer }]).map(({ address }) => ({
        address,
        family: isIP(address),
      }));
      const first = addresses[0];
      if (first === undefined) {
        callback(notFound(hostname), lookupOptions.all ? [] : '');
        return;
      }
      if (options.loopbackOnly) {
        const outside = addresses.find(({ address }) => !isLoopbackAddress(address));
        if (outside !== undefined) {
          callback(new PlainHttpAddressError(outside.address), lookupOptions.all ? [] : '');
          return;
        }
      } else if (!options.allowPrivate) {
        for (const { address } of addresses) {
          const reason = forbiddenAddressReason(address);
          if (reason !== undefined) {
            callback(new ForbiddenAddressError(address, reason), lookupOptions.all ? [] : '');
            return;
          }
        }
      }
      if (lookupOptions.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  return error;
}
