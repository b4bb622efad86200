import { crc32 } from 'node:zlib';
import { isBase62, toBase62 } from '../../common/base62.js';

/**
 * Redline's own API tokens: `svc_live_`/`svc_test_`, 32+ random base62 characters, then the CRC32
 * of those characters in 6 base62 characters. Same format as src/auth/api-token-format.ts,
 * re-derived here because the engine imports nothing outside common/. The checksum lets us report
 * only real tokens, never a made-up string that happens to share the prefix.
 */
const CHECKSUM_LENGTH = 6;
const MIN_RANDOM = 32;

export function isValidRedlineToken(token: string): boolean {
  const prefix = token.startsWith('svc_live_') ? 'svc_live_' : token.startsWith('svc_test_') ? 'svc_test_' : undefined;
  if (prefix === undefined) return false;
  const rest = token.slice(prefix.length);
  if (rest.length < MIN_RANDOM + CHECKSUM_LENGTH || rest.length > 128 || !isBase62(rest)) return false;
  const random = rest.slice(0, -CHECKSUM_LENGTH);
  return toBase62(crc32(random), CHECKSUM_LENGTH) === rest.slice(-CHECKSUM_LENGTH);
}
