import { hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { isBase62, randomBase62, toBase62 } from '../common/base62.js';
import type { Mode } from '../db/schema.js';

/**
 * `svc_live_` / `svc_test_`, 32 random base62 characters, then the CRC32 of those characters in
 * 6 base62 characters. The checksum lets us (and secret scanners) reject a mistyped or made-up
 * token without touching the database.
 */
const PREFIX = { live: 'svc_live_', test: 'svc_test_' } as const;
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

export function checksumOf(random: string): string {
  return toBase62(crc32(random), CHECKSUM_LENGTH);
}

export function generateApiToken(mode: Mode): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${PREFIX[mode]}${random}${checksumOf(random)}`;
}

export function looksLikeApiToken(value: string): boolean {
  return value.startsWith(PREFIX.live) || value.startsWith(PREFIX.test);
}

export type TokenCheck = { ok: true; mode: Mode } | { ok: false; reason: string };

/** Shape and checksum only; whether the token exists is the repository's question. */
export function checkApiToken(token: string): TokenCheck {
  const mode: Mode | undefined = token.startsWith(PREFIX.live)
    ? 'live'
    : token.startsWith(PREFIX.test)
      ? 'test'
      : undefined;
  if (mode === undefined) return { ok: false, reason: 'API key has an unknown prefix' };
  const rest = token.slice(PREFIX[mode].length);
  if (rest.length < RANDOM_LENGTH + CHECKSUM_LENGTH || rest.length > 128 || !isBase62(rest)) {
    return { ok: false, reason: 'API key is malformed' };
  }
  const random = rest.slice(0, -CHECKSUM_LENGTH);
  if (checksumOf(random) !== rest.slice(-CHECKSUM_LENGTH)) {
    return { ok: false, reason: 'API key checksum does not match' };
  }
  return { ok: true, mode };
}

/** SHA-256 in hex; the one-shot hash() (every request hashes its key) skips createHash's stream object. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
