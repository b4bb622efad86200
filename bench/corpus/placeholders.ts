/**
 * Hard-coded secrets in the corpus are written as `{{NAME}}` placeholders so that no committed file
 * holds a literal a secret scanner (or GitHub push protection) would flag. The benchmark replaces
 * them with values generated at run time, in the formats real tokens have. Generation is seeded, so
 * a run is repeatable; the prefixes are assembled from pieces for the same reason the corpus uses
 * placeholders. No value contains a newline, so line numbers never move.
 */

import { seededRandom } from '../seeded-random.js';

const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = `${BASE62}+/`;
const DIGITS = '0123456789';
const HEX = '0123456789abcdef';

type Generator = (pick: (alphabet: string, length: number) => string) => string;

const GENERATORS: Record<string, Generator> = {
  /** AWS access key id. */
  AWS_KEY: (pick) => `${'AK'}${'IA'}${pick(UPPER_DIGITS, 16)}`,
  /** AWS secret access key (40 base64 characters). */
  AWS_SECRET: (pick) => pick(BASE64, 40),
  /** GitHub personal access token (classic). */
  GITHUB_TOKEN: (pick) => `${'gh'}${'p_'}${pick(BASE62, 36)}`,
  /** Slack bot token. */
  SLACK_TOKEN: (pick) => `${'xo'}${'xb-'}${pick(DIGITS, 12)}-${pick(DIGITS, 13)}-${pick(BASE62, 24)}`,
  /** Stripe live secret key. */
  STRIPE_KEY: (pick) => `${'sk_'}${'live_'}${pick(BASE62, 24)}`,
  /** Google API key. */
  GOOGLE_API_KEY: (pick) => `${'AI'}${'za'}${pick(`${BASE62}-_`, 35)}`,
  /** npm access token. */
  NPM_TOKEN: (pick) => `${'np'}${'m_'}${pick(BASE62, 36)}`,
  /** SendGrid API key. */
  SENDGRID_KEY: (pick) => `${'SG'}.${pick(BASE62, 22)}.${pick(BASE62, 43)}`,
  /** A strong password or shared secret, as someone pasted it into code. */
  PASSWORD: (pick) => `${pick(BASE62, 12)}!${pick(DIGITS, 4)}`,
  /** A hex signing key (e.g. a JWT HMAC secret). */
  HEX_SECRET: (pick) => pick(HEX, 64),
  /** The first line of a PEM private key. */
  PRIVATE_KEY_HEADER: () => `${'-----BEGIN RSA '}${'PRIVATE KEY-----'}`,
  /** The last line of a PEM private key. */
  PRIVATE_KEY_FOOTER: () => `${'-----END RSA '}${'PRIVATE KEY-----'}`,
  /** One line of a PEM body. */
  PRIVATE_KEY_BODY: (pick) => `MIIE${pick(BASE64, 60)}`,
};

export const PLACEHOLDER = /\{\{([A-Z_]+)\}\}/g;

export function isPlaceholder(name: string): boolean {
  return Object.hasOwn(GENERATORS, name);
}

/**
 * Returns a function that fills the placeholders of a text. The same name in the same case gets
 * the same value (a key declared once and referenced twice), different cases get different values.
 */
export function placeholderFiller(seed: number): (text: string, caseId: string) => string {
  const random = seededRandom(seed);
  const pick = (alphabet: string, length: number): string => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
    return out;
  };
  const values = new Map<string, string>();
  return (text, caseId) =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const generate = GENERATORS[name];
      if (!generate) throw new Error(`unknown placeholder ${whole} in case ${caseId}`);
      const key = `${caseId}\u0000${name}`;
      let value = values.get(key);
      if (value === undefined) {
        value = generate(pick);
        values.set(key, value);
      }
      return value;
    });
}

/**
 * Shapes a secret scanner would flag. The raw corpus must contain none of them: secrets appear only
 * as placeholders. (A tripwire for contributors, not a scanner.)
 */
export const FORBIDDEN_LITERALS: readonly RegExp[] = [
  /AKIA[0-9A-Z]{16}/,
  /gh[pousr]_[A-Za-z0-9]{20,}/,
  /xox[abpr]-[0-9A-Za-z-]{10,}/,
  /sk_live_[0-9A-Za-z]{10,}/,
  /AIza[0-9A-Za-z_-]{30,}/,
  /npm_[A-Za-z0-9]{30,}/,
  /SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];
