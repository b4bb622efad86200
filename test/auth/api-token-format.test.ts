import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkApiToken, generateApiToken, hashSecret, looksLikeApiToken } from '../../src/auth/api-token-format.js';

/**
 * Decisions §2: `svc_live_` / `svc_test_`, at least 32 random base62 characters, then a 6-character
 * base62 CRC32 of the random part. The checksum is recomputed here with our own base62 encoder so
 * the test does not trust the code it checks.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Built by concatenation so nothing committed looks like a real token.
const LIVE = `svc_${'live'}_`;
const TEST = `svc_${'test'}_`;
const SHAPE = /^svc_(live|test)_([0-9A-Za-z]{32,})([0-9A-Za-z]{6})$/;

function base62(value: number, width: number): string {
  let out = '';
  for (let n = value; n > 0; n = Math.floor(n / 62)) out = BASE62.charAt(n % 62) + out;
  return out.padStart(width, '0');
}

const expectedChecksum = (random: string) => base62(crc32(Buffer.from(random, 'utf8')), 6);

/** Splits a token into its parts, failing the test when the shape is wrong. */
function parts(token: string) {
  const match = SHAPE.exec(token);
  expect(match, token).not.toBeNull();
  const [, mode = '', random = '', checksum = ''] = match ?? [];
  return { mode, random, checksum };
}

/** A well-formed token for any random part, built independently of the code under test. */
const forge = (prefix: string, random: string) => `${prefix}${random}${expectedChecksum(random)}`;

describe('generated API tokens', () => {
  it.each([
    ['live', LIVE],
    ['test', TEST],
  ] as const)('%s tokens carry their prefix, 32+ base62 characters and the CRC32 of them', (mode, prefix) => {
    for (let i = 0; i < 200; i++) {
      const token = generateApiToken(mode);
      expect(token.startsWith(prefix)).toBe(true);
      const { random, checksum } = parts(token);
      expect(random.length).toBeGreaterThanOrEqual(32);
      expect(checksum).toBe(expectedChecksum(random));
      expect(checkApiToken(token)).toEqual({ ok: true, mode });
      expect(looksLikeApiToken(token)).toBe(true);
    }
  });

  it('our base62 encoder agrees with known values (so the checksum comparison means something)', () => {
    expect(base62(0, 6)).toBe('000000');
    expect(base62(61, 6)).toBe('00000z');
    expect(base62(62, 6)).toBe('000010');
    // The largest CRC32 still fits in six characters (62^6 > 2^32).
    expect(base62(0xffffffff, 6)).toBe('4gfFC3');
  });

  it('never repeats a token, nor the random part of one, over many generations', () => {
    const tokens = new Set<string>();
    const randoms = new Set<string>();
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const token = generateApiToken(i % 2 === 0 ? 'live' : 'test');
      tokens.add(token);
      randoms.add(parts(token).random);
    }
    expect(tokens.size).toBe(n);
    expect(randoms.size).toBe(n);
  });

  it('uses the whole base62 alphabet in the random part', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const c of parts(generateApiToken('live')).random) seen.add(c);
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('checkApiToken', () => {
  it('accepts tokens made elsewhere with the same recipe, including longer random parts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(LIVE, TEST),
        fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 100 }),
        (prefix, random) => {
          expect(checkApiToken(forge(prefix, random))).toEqual({ ok: true, mode: prefix === LIVE ? 'live' : 'test' });
        },
      ),
    );
  });

  // Tokens built by the independent recipe above (shown equal to generated ones), so fast-check
  // can replay and shrink a failure.
  const validToken = fc
    .tuple(fc.constantFrom(LIVE, TEST), fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 48 }))
    .map(([prefix, random]) => forge(prefix, random));

  it('rejects any single-character change of a valid token', () => {
    // Half the replacements stay base62 (so only the checksum can catch them), half are anything.
    const replacement = fc.oneof(fc.constantFrom(...BASE62), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(validToken, fc.nat(), replacement, (token, position, char) => {
        const i = position % token.length;
        fc.pre(token[i] !== char);
        const changed = token.slice(0, i) + char + token.slice(i + 1);
        expect(checkApiToken(changed).ok).toBe(false);
      }),
      { numRuns: 5_000 },
    );
  });

  it('rejects a generated token with one character removed or two neighbours swapped', () => {
    fc.assert(
      fc.property(fc.constantFrom('live', 'test'), fc.nat(), (mode, position) => {
        const token = generateApiToken(mode);
        const i = position % (token.length - 1);
        expect(checkApiToken(token.slice(0, i) + token.slice(i + 1)).ok).toBe(false);
        fc.pre(token[i] !== token[i + 1]);
        const swapped = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2);
        expect(checkApiToken(swapped).ok).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('names what is wrong', () => {
    const random = 'A'.repeat(32);
    expect(checkApiToken(`svc_${'prod'}_${random}${expectedChecksum(random)}`)).toEqual({
      ok: false,
      reason: 'API key has an unknown prefix',
    });
    const malformed = { ok: false, reason: 'API key is malformed' };
    expect(checkApiToken(`${LIVE}abc`)).toEqual(malformed);
    expect(checkApiToken(LIVE)).toEqual(malformed);
    expect(checkApiToken(forge(LIVE, 'A'.repeat(31)))).toEqual(malformed);
    expect(checkApiToken(`${LIVE}${'A'.repeat(16)}-${'A'.repeat(15)}${expectedChecksum(random)}`)).toEqual(malformed);
    expect(checkApiToken(`${forge(LIVE, random)} `)).toEqual(malformed);
    expect(checkApiToken(forge(LIVE, 'A'.repeat(200)))).toEqual(malformed);
    const token = generateApiToken('live');
    const last = token.at(-1) === '0' ? '1' : '0';
    expect(checkApiToken(token.slice(0, -1) + last)).toEqual({ ok: false, reason: 'API key checksum does not match' });
  });

  it('is not fooled by swapping the prefix: the format holds, only the database can tell', () => {
    // The checksum covers the random part only, so this passes the format check; authenticate.test.ts
    // shows the database then refuses it (the hash covers the whole token).
    const token = generateApiToken('live');
    expect(checkApiToken(TEST + token.slice(LIVE.length))).toEqual({ ok: true, mode: 'test' });
    expect(hashSecret(TEST + token.slice(LIVE.length))).not.toBe(hashSecret(token));
  });
});

describe('looksLikeApiToken and hashSecret', () => {
  it('sends only svc_live_ / svc_test_ values down the API token path', () => {
    expect(looksLikeApiToken(`${LIVE}x`)).toBe(true);
    expect(looksLikeApiToken(`${TEST}x`)).toBe(true);
    expect(looksLikeApiToken('eyJhbGciOiJIUzI1NiJ9.e30.x')).toBe(false);
    expect(looksLikeApiToken(`svc_${'prod'}_x`)).toBe(false);
  });

  it('is the SHA-256 hex of the whole token', () => {
    const token = generateApiToken('test');
    expect(hashSecret(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashSecret(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
