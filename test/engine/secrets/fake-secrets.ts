/**
 * Fake credentials for the secrets tests, assembled at run time from a seeded generator: no
 * literal in this repository looks like a real secret to a scanner (ours or GitHub's), and
 * every run sees the same values.
 */

import { seededRandom } from '../../../bench/seeded-random.js';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const BASE64 = `${BASE62}+/`;
export const BASE64URL = `${BASE62}-_`;
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const HEX = '0123456789abcdef';
export const DIGITS = '0123456789';

export function fakes(seed = 42) {
  const next = seededRandom(seed);
  const pick = (alphabet: string, n: number) => {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
  /** Random text that surely has a digit, a lower-case and an upper-case letter. */
  const mixed = (alphabet: string, n: number) => `${pick(alphabet, n - 3)}a7Q`;
  const privateKeyLines = (kind = 'RSA ', bodyLines = 12) => [
    `-----BEGIN ${kind}PRIVATE ${'KEY'}-----`,
    ...Array.from({ length: bodyLines }, () => pick(BASE64, 64)),
    `${pick(BASE64, 40)}==`,
    `-----END ${kind}PRIVATE ${'KEY'}-----`,
  ];
  return {
    pick,
    awsAccessKeyId: () => `AK${'IA'}${pick(BASE32, 16)}`,
    awsSessionKeyId: () => `AS${'IA'}${pick(BASE32, 16)}`,
    awsSecretKey: () => mixed(BASE64, 40),
    github: (letter: 'p' | 'o' | 'u' | 's' | 'r' = 'p') => `gh${letter}_${pick(BASE62, 36)}`,
    githubFineGrained: () => `github${'_pat_'}${pick(BASE62, 22)}_${pick(BASE62, 59)}`,
    gitlab: () => `gl${'pat-'}${mixed(BASE64URL, 20)}`,
    slack: (kind: 'b' | 'p' | 'a' | 'r' = 'b') =>
      `xo${'x'}${kind}-${pick(DIGITS, 12)}-${pick(DIGITS, 13)}-${pick(BASE62, 24)}`,
    slackWebhook: () =>
      `https://hooks.slack.com/${'services'}/T${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 8)}/B${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 10)}/${pick(BASE62, 24)}`,
    stripe: (kind: 'sk' | 'rk' = 'sk') => `${kind}_${'live'}_${pick(BASE62, 99)}`,
    google: () => `AI${'za'}${pick(BASE64URL, 35)}`,
    npm: () => `np${'m_'}${pick(BASE62, 36)}`,
    sendgrid: () => `S${'G.'}${pick(BASE64URL, 22)}.${pick(BASE64URL, 43)}`,
    twilio: () => `S${'K'}${pick(HEX, 32)}`,
    openaiProject: () => `s${'k-'}proj-${mixed(BASE64URL, 156)}`,
    openaiLegacy: () => `s${'k-'}${pick(BASE62, 20)}T3Blbk${'FJ'}${pick(BASE62, 17)}a7Q`,
    anthropic: () => `s${'k-'}ant-api03-${mixed(BASE64URL, 93)}AA`,
    password: () => mixed(`${BASE62}!~_`, 20),
    privateKeyLines,
  };
}

export type Fakes = ReturnType<typeof fakes>;

/** Added lines numbered from `first`. */
export function added(lines: readonly string[], first = 1): Map<number, string> {
  return new Map(lines.map((text, i) => [first + i, text]));
}
