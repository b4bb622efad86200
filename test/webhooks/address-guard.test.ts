import type dns from 'node:dns';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forbiddenAddressReason, guardedLookup, isLoopbackAddress } from '../../src/webhooks/address-guard.js';

/** IPv4 addresses of every refused class, with the reason each must get. */
const BLOCKED_V4: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.5', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.1.1', 'link-local'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['192.0.0.8', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
];

/** Public IPv4, including the neighbours of refused ranges (off-by-one in a prefix shows here). */
const PUBLIC_V4 = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.1',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
];

function hexWords(v4: string): [string, string] {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** Every IPv6 spelling that carries `v4` and must be judged by it. */
function embeddings(v4: string): [string, string][] {
  const [high, low] = hexWords(v4);
  return [
    ['IPv4-mapped dotted', `::ffff:${v4}`],
    ['IPv4-mapped hex', `::ffff:${high}:${low}`],
    ['IPv4-mapped in full', `0:0:0:0:0:ffff:${high}:${low}`],
    ['IPv4-mapped upper case', `::FFFF:${high.toUpperCase()}:${low.toUpperCase()}`],
    ['IPv4-compatible dotted', `::${v4}`],
    ['IPv4-translated (SIIT)', `::ffff:0:${v4}`],
    ['NAT64 dotted', `64:ff9b::${v4}`],
    ['NAT64 hex', `64:ff9b::${high}:${low}`],
    ['6to4', `2002:${high}:${low}::1`],
    ['6to4 with a subnet', `2002:${high}:${low}:abcd:1:2:3:4`],
  ];
}

const BLOCKED_V6: [string, string][] = [
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fd00:ec2::254', 'unique-local (cloud metadata)'],
  ['fe80::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local'],
  ['febf:ffff::1', 'IPv6 link-local'],
  ['fec0::1', 'site-local'],
  ['feff::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['100::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['4000::1', 'reserved'],
  ['::1:0:0:0', 'reserved'],
];

const PUBLIC_V6 = [
  '2606:4700::1111',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001::1',
  '2001:200::1',
  '2c0f:fb50:4003::1',
  '::ffff:8.8.8.8',
  '::ffff:101:101',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  '::1.1.1.1',
];

describe('forbiddenAddressReason', () => {
  it.each(BLOCKED_V4)('refuses %s as %s', (ip, reason) => {
    expect(forbiddenAddressReason(ip)).toBe(reason);
  });

  describe.each(BLOCKED_V4)('IPv6 forms embedding %s', (v4, reason) => {
    it.each(embeddings(v4))(`refuses %s (%s) as ${reason}`, (_form, ip) => {
      expect(forbiddenAddressReason(ip)).toBe(reason);
    });
  });

  it.each(BLOCKED_V6)('refuses %s as %s', (ip, reason) => {
    expect(forbiddenAddressReason(ip)).toBe(reason);
  });

  it.each([...PUBLIC_V4, ...PUBLIC_V6])('allows %s', (ip) => {
    expect(forbiddenAddressReason(ip)).toBeUndefined();
  });

  it.each(PUBLIC_V4.slice(0, 4))('allows the IPv6 embeddings of public %s', (v4) => {
    for (const [form, ip] of embeddings(v4)) {
      expect(forbiddenAddressReason(ip), `${form} ${ip}`).toBeUndefined();
    }
  });

  it.each(['', 'localhost', '127.1', '2130706433', '0x7f.0.0.1', '010.0.0.1', '[::1]', '1.2.3.4.5', '::g'])(
    'refuses %j as not an IP address (the sender normalises through URL first)',
    (text) => {
      expect(forbiddenAddressReason(text)).toBe('not an IP address');
    },
  );
});

type Answer = { error?: NodeJS.ErrnoException; answer?: string | { address: string; family?: number }[] };

/** A resolver answering `answer` whatever it is asked, recording the options it was given. */
function fakeLookup({ error, answer }: Answer) {
  const calls: dns.LookupOptions[] = [];
  const lookup = ((_hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    calls.push(options);
    setImmediate(() => (error ? callback(error) : callback(null, answer, 4)));
  }) as unknown as typeof dns.lookup;
  return { lookup, calls };
}

/** Calls a LookupFunction with `options` and returns what its callback got. */
function runLookup(fn: net.LookupFunction, options: dns.LookupOptions) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: unknown }>((resolve) => {
    fn('hooks.example.com', options, (error, address, family) => resolve({ error, address, family }));
  });
}

describe('isLoopbackAddress (where plain http may go)', () => {
  it.each(['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:0:0:1'])(
    'takes %s as loopback',
    (ip) => {
      expect(isLoopbackAddress(ip)).toBe(true);
    },
  );

  // The embeddings that leave the host through a gateway are not loopback, though judged as such.
  it.each([
    '10.0.0.5',
    '0.0.0.0',
    '::',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '8.8.8.8',
    'localhost',
    '',
  ])('does not take %s as loopback', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(false);
  });
});

describe('guardedLookup', () => {
  it('passes a public answer through in the single shape', async () => {
    const { lookup } = fakeLookup({ answer: '93.184.215.14' });
    const result = await runLookup(guardedLookup({ allowPrivate: false, lookup }), {});
    expect(result).toEqual({ error: null, address: '93.184.215.14', family: 4 });
  });

  it('passes a public answer through in the all shape', async () => {
    const answer = [
      { address: '2606:4700::1111', family: 6 },
      { address: '1.1.1.1', family: 4 },
    ];
    const { lookup, calls } = fakeLookup({ answer });
    const result = await runLookup(guardedLookup({ allowPrivate: false, lookup }), { all: true, hints: 32 });
    expect(result.error).toBeNull();
    expect(result.address).toEqual(answer);
    // The caller's options reach the resolver unchanged.
    expect(calls).toEqual([{ all: true, hints: 32 }]);
  });

  it('refuses a private answer with ERR_WEBHOOK_ADDRESS', async () => {
    const { lookup } = fakeLookup({ answer: '10.0.0.5' });
    const { error } = await runLookup(guardedLookup({ allowPrivate: false, lookup }), {});
    expect(error?.code).toBe('ERR_WEBHOOK_ADDRESS');
    expect(error?.message).toBe(
      'refusing to connect to 10.0.0.5 (private address; WEBHOOK_ALLOW_PRIVATE=true admits it)',
    );
  });

  it('names the cloud metadata address', async () => {
    const { lookup } = fakeLookup({ answer: '169.254.169.254' });
    const { error } = await runLookup(guardedLookup({ allowPrivate: false, lookup }), {});
    expect(error?.message).toBe(
      'refusing to connect to 169.254.169.254 (link-local address, cloud metadata; WEBHOOK_ALLOW_PRIVATE=true admits it)',
    );
  });

  it('refuses the whole name when any one of its addresses is forbidden', async () => {
    const { lookup } = fakeLookup({
      answer: [
        { address: '8.8.8.8', family: 4 },
        { address: '::ffff:127.0.0.1', family: 6 },
      ],
    });
    const { error } = await runLookup(guardedLookup({ allowPrivate: false, lookup }), { all: true });
    expect(error?.code).toBe('ERR_WEBHOOK_ADDRESS');
    expect(error?.message).toContain('::ffff:127.0.0.1 (loopback address; WEBHOOK_ALLOW_PRIVATE=true admits it)');
  });

  it('lets anything through when private addresses are allowed', async () => {
    const { lookup } = fakeLookup({ answer: '127.0.0.1' });
    const result = await runLookup(guardedLookup({ allowPrivate: true, lookup }), {});
    expect(result).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });

  it('answers in the shape asked for, whatever shape the resolver used', async () => {
    const single = fakeLookup({ answer: '1.1.1.1' });
    const asAll = await runLookup(guardedLookup({ allowPrivate: false, lookup: single.lookup }), { all: true });
    expect(asAll.address).toEqual([{ address: '1.1.1.1', family: 4 }]);

    const list = fakeLookup({ answer: [{ address: '2606:4700::1111' }, { address: '1.1.1.1' }] });
    const asOne = await runLookup(guardedLookup({ allowPrivate: false, lookup: list.lookup }), {});
    // The family is taken from the address, not trusted from the resolver.
    expect(asOne).toEqual({ error: null, address: '2606:4700::1111', family: 6 });
  });

  it('turns an empty answer into ENOTFOUND (Node 20 would throw a TypeError on it)', async () => {
    const { lookup } = fakeLookup({ answer: [] });
    const { error } = await runLookup(guardedLookup({ allowPrivate: false, lookup }), { all: true });
    expect(error?.code).toBe('ENOTFOUND');
  });

  it('for plain http, passes a name whose addresses are all loopback, even in the all shape', async () => {
    const answer = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
    const { lookup } = fakeLookup({ answer });
    const result = await runLookup(guardedLookup({ allowPrivate: true, loopbackOnly: true, lookup }), { all: true });
    expect(result.error).toBeNull();
    expect(result.address).toEqual(answer);
  });

  it('for plain http, refuses a name with any address off loopback, naming that no setting lifts it', async () => {
    const { lookup } = fakeLookup({
      answer: [
        { address: '127.0.0.1', family: 4 },
        { address: '192.168.1.20', family: 4 },
      ],
    });
    const { error } = await runLookup(guardedLookup({ allowPrivate: true, loopbackOnly: true, lookup }), { all: true });
    expect(error?.code).toBe('ERR_WEBHOOK_ADDRESS');
    expect(error?.message).toBe(
      'refusing plain http to 192.168.1.20 (not a loopback address): plain http is admitted only for loopback ' +
        'receivers (127.0.0.0/8, ::1, localhost); no setting lifts this, use https',
    );
  });

  it("passes the resolver's error through", async () => {
    const failure: NodeJS.ErrnoException = Object.assign(new Error('getaddrinfo EAI_AGAIN x'), { code: 'EAI_AGAIN' });
    const { lookup } = fakeLookup({ error: failure });
    const { error } = await runLookup(guardedLookup({ allowPrivate: false, lookup }), { all: true });
    expect(error).toBe(failure);
  });

  describe('inside net.connect', () => {
    // A plain TCP server on loopback: its connection count is the canary.
    let server: net.Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = net.createServer((socket) => {
        connections += 1;
        socket.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as net.AddressInfo).port;
    });
    afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

    function connect(options: { allowPrivate: boolean; family?: number }) {
      const { lookup, calls } = fakeLookup({ answer: [{ address: '127.0.0.1', family: 4 }] });
      return new Promise<{ error?: NodeJS.ErrnoException; calls: dns.LookupOptions[] }>((resolve) => {
        const socket = net.connect({
          host: 'hooks.example.com',
          port,
          ...(options.family === undefined ? {} : { family: options.family }),
          lookup: guardedLookup({ allowPrivate: options.allowPrivate, lookup }),
        });
        socket.on('connect', () => {
          socket.destroy();
          resolve({ calls });
        });
        socket.on('error', (error) => resolve({ error, calls }));
      });
    }

    // Node 20 asks with { all: true } when it picks the family itself (autoSelectFamily, the
    // default) and without `all` when the family is fixed: both must be refused.
    it.each([
      ['auto-selected family', undefined, true],
      ['fixed family', 4, undefined],
    ])('refuses before connecting (%s)', async (_name, family, all) => {
      const before = connections;
      const { error, calls } = await connect({ allowPrivate: false, family });
      expect(error?.code).toBe('ERR_WEBHOOK_ADDRESS');
      expect(calls[0]?.all).toBe(all);
      expect(connections).toBe(before);
    });

    it.each([
      ['auto-selected family', undefined],
      ['fixed family', 4],
    ])('connects when private addresses are allowed (%s)', async (_name, family) => {
      const { error } = await connect({ allowPrivate: true, family });
      expect(error).toBeUndefined();
    });
  });
});
