import { shannonEntropy } from './entropy.js';

/**
 * Words that mark a value as a stand-in, not a credential. Matched anywhere in the value, case
 * aside: a real random secret almost never spells one of them.
 */
const PLACEHOLDER_WORDS = [
  'changeme',
  'change_me',
  'change-me',
  'example',
  'dummy',
  'fake',
  'sample',
  'placeholder',
  'redacted',
  'your_',
  'your-',
  'yourpass',
  'yourtoken',
  'yoursecret',
  'xxx',
  '***',
  '...',
  '…',
  'test',
  'mock',
  'password',
  'secret',
  'todo',
  'replace',
  'insert',
  'foobar',
];

/** Interpolations and environment look-ups: the value is read at run time, nothing is committed. */
const INDIRECTIONS = ['${', '{{', '}}', '%s', '%(', 'process.env', 'os.environ', 'getenv', 'env[', 'env(', 'env.'];

function allSameCharacter(value: string): boolean {
  for (let i = 1; i < value.length; i++) if (value[i] !== value[0]) return false;
  return true;
}

/** For free-form values (passwords, generic assignments): anything that reads like a stand-in. */
export function isPlaceholder(value: string): boolean {
  if (value.length === 0 || allSameCharacter(value)) return true;
  if (value.startsWith('$') || value.startsWith('%') || value.startsWith(':')) return true;
  const lower = value.toLowerCase();
  if (/<[^<>]*>/.test(value)) return true;
  return PLACEHOLDER_WORDS.some((w) => lower.includes(w)) || INDIRECTIONS.some((w) => lower.includes(w));
}

// A word as people write one: lower case, upper case or capitalised. A random segment mixes cases.
const WORD = '(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)';
const WORDS = new RegExp(`^${WORD}(?:[-_.]${WORD})+$`);

/**
 * For known token formats, whose prefix already says "credential": only documented examples
 * (AKIAIOSFODNN7EXAMPLE), runs of one character ("ghp_xxxx…") and separated words
 * ("glpat-your-token-goes-here", "YOUR_TOKEN_HERE") are stand-ins. Random bodies pass with near
 * certainty: one without digits around a single "-" or "_" (about one Google key in 500) is
 * mixed-case within its segments, so it is not read as words. The entropy floor is 2.5 bits a
 * character: a random AWS key ID, whose fixed prefix letters may repeat in its body, falls under
 * 3 about once in 4,000 and under 2.5 not once in a million draws, while a run of one character
 * sits near 1.
 */
export function isExampleToken(body: string): boolean {
  if (body.toLowerCase().includes('example')) return true;
  if (WORDS.test(body)) return true;
  return shannonEntropy(body) < 2.5;
}
