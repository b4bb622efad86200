import { shannonEntropy } from './entropy.js';
import { isPlaceholder } from './placeholders.js';
import { CWE_HARD_CODED_CREDENTIALS, SECRET_CVSS } from './secret-cvss.js';
import { committedMessage, type SecretMatch } from './secret-match.js';

const MAX_NAME = 64;
const MAX_SPACES = 8;
const MAX_LITERAL = 1024;
const MIN_VALUE = 10;
/** Bits per character; random base62 scores about 5, an English identifier about 3.5 or less. */
const MIN_ENTROPY = 3;

/** Name words that mean "this holds a credential". */
const CREDENTIAL_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
]);
/** Two-word names that mean the same: api_key, accessKey, PRIVATE_KEY, client_secret. */
const CREDENTIAL_PAIRS = new Set(['api key', 'access key', 'private key', 'secret key', 'auth key', 'signing key']);
/** A last word that makes the name about the credential, not the credential: token_url, password_hash. */
const NOT_A_CREDENTIAL = new Set(
  (
    'url uri endpoint host path file filename dir name type id label field header prefix suffix pattern regex re ' +
    'format length len count size env var placeholder hint message msg error description desc column param kind ' +
    'mode method policy expiry expires ttl timeout hash digest algorithm alg version scope scopes location ' +
    'enabled required min max strength input ref identifier attribute attr property'
  ).split(' '),
);
/** Files where `NAME=value` without quotes is how values are written. */
const CONFIG_FILE =
  /(?:^|\/)(?:\.env[^/]*|[^/]*\.env|[^/]*\.(?:ya?ml|properties|ini|cfg|conf|sh|bash|zsh)|Dockerfile[^/]*)$/i;
/**
 * Names, not secrets: `auth_token_v2`, `session.cookie`, `Summer2024` (a word and a number), and
 * the same marked as internal or private by a leading sigil (`!real_csrf_token`, `_csrf`,
 * `__Host-session`, `@auth.token`).
 */
const WORDS_ONLY = /^[!_@#$.:]*[A-Za-z]+[0-9]*(?:[_.\-/:][A-Za-z]+[0-9]*)*$/;

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_.$-]/.test(c);
}

export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A line without any of these (in any case) holds no credential name, so most lines are passed
 * over at once: a name is an ASCII slice of the line (`isNameChar`), and `isCredentialName` needs
 * one of them in the name lower-cased, which on ASCII is what `/i` compares.
 */
const CREDENTIAL_HINT = /pass|secret|token|key|credential/i;

/** `CONFIG_FILE` of the last path asked about: the scan asks once per line of the same file. */
let lastPath: string | undefined;
let lastIsConfig = false;

function isConfigFile(path: string): boolean {
  if (path !== lastPath) {
    lastPath = path;
    lastIsConfig = CONFIG_FILE.test(path);
  }
  return lastIsConfig;
}

export function isCredentialName(name: string): boolean {
  const lower = name.toLowerCase();
  if (!/pass|secret|token|key|credential/.test(lower)) return false;
  const words = nameWords(name);
  const last = words.at(-1);
  if (last === undefined || NOT_A_CREDENTIAL.has(last)) return false;
  if (words.some((w) => CREDENTIAL_WORDS.has(w))) return true;
  for (let i = 0; i + 1 < words.length; i++) if (CREDENTIAL_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  return false;
}

/** A literal that could be a real credential: long, random-looking, not a stand-in or a sentence. */
export function isCredentialValue(value: string): boolean {
  if (value.length < MIN_VALUE || /\s/.test(value)) return false;
  if (WORDS_ONLY.test(value) || value.includes('://') || /^(?:\.{0,2}\/|~\/)/.test(value)) return false;
  if (isPlaceholder(value)) return false;
  return shannonEntropy(value) >= MIN_ENTROPY;
}

interface Assignment {
  nameStart: number;
  nameEnd: number;
  valueFrom: number;
}

/** A setter given the literal as its argument: `config.setPassword("…")`, `.withApiKey('…')`. */
function setterAt(text: string, i: number): Assignment | undefined {
  let j = i;
  while (j > 0 && i - j < MAX_NAME && /[A-Za-z0-9_$]/.test(text[j - 1] ?? '')) j--;
  if (!/^(?:set|with|use)(?:_|[A-Z])/.test(text.slice(j, i))) return undefined;
  return { nameStart: j, nameEnd: i, valueFrom: i + 1 };
}

/** The name and the value position around an `=`, `:`, `:=`, `=>` or `(` at index i, or undefined. */
function assignmentAt(text: string, i: number): Assignment | undefined {
  const c = text[i];
  if (c === '(') return setterAt(text, i);
  const prev = text[i - 1];
  const next = text[i + 1];
  let nameEnd = i;
  let valueFrom = i + 1;
  if (c === ':') {
    if (next === ':' || next === '=' || prev === ':' || (next === '/' && text[i + 2] === '/')) return undefined;
  } else {
    if (next === '=' || next === '~') return undefined;
    if (prev !== undefined && '=!<>+-*/%&|^?'.includes(prev)) return undefined;
    if (next === '>') valueFrom = i + 2;
    if (prev === ':') nameEnd = i - 1;
  }
  let j = nameEnd;
  for (let n = 0; n < MAX_SPACES && (text[j - 1] === ' ' || text[j - 1] === '\t'); n++) j--;
  for (let n = 0; n < 2 && j > 0 && '"\'`]'.includes(text[j - 1] ?? ''); n++) j--;
  const end = j;
  while (j > 0 && end - j < MAX_NAME && isNameChar(text[j - 1])) j--;
  if (j === end) return undefined;
  // `const apiKey: string = "…"`: the name is before the type annotation.
  if (c === '=' && nameEnd === i) {
    let k = j;
    while (k > 0 && text[k - 1] === ' ') k--;
    if (text[k - 1] === ':' && text[k - 2] !== ':') {
      let m = k - 1;
      while (m > 0 && text[m - 1] === ' ') m--;
      const typedEnd = m;
      while (m > 0 && typedEnd - m < MAX_NAME && isNameChar(text[m - 1])) m--;
      if (m < typedEnd) return { nameStart: m, nameEnd: typedEnd, valueFrom };
    }
  }
  return { nameStart: j, nameEnd: end, valueFrom };
}

/** The literal after the operator: a quoted string, or in config files a bare value ending the line. */
function valueAt(text: string, from: number, bareAllowed: boolean): { start: number; end: number } | undefined {
  let k = from;
  for (let n = 0; n < MAX_SPACES && (text[k] === ' ' || text[k] === '\t'); n++) k++;
  if ('rRbBuU'.includes(text[k] ?? '_') && '"\''.includes(text[k + 1] ?? '_')) k++;
  const quote = text[k];
  if (quote === '"' || quote === "'" || quote === '`') {
    const limit = Math.min(text.length, k + 1 + MAX_LITERAL);
    for (let e = k + 1; e < limit; e++) {
      const ch = text[e];
      if (ch === '\\') e++;
      else if (ch === quote) return { start: k + 1, end: e };
    }
    return undefined;
  }
  if (!bareAllowed) return undefined;
  let e = k;
  while (e < text.length && e - k < MAX_LITERAL && text[e] !== ' ' && text[e] !== '\t') e++;
  const after = text.slice(e).trimStart();
  if (after !== '' && !after.startsWith('#')) return undefined;
  const value = text.slice(k, e);
  if (/[()[\]{}]/.test(value)) return undefined;
  return { start: k, end: e };
}

/**
 * Hard-coded credentials with no recognisable format: a long, random-looking literal assigned to
 * (or passed to a setter of) a name such as password, secret, api_key or token. One bounded
 * look-around per `=`, `:` or `(`.
 */
export function findGenericCredentials(path: string, lineNumber: number, text: string): SecretMatch[] {
  const matches: SecretMatch[] = [];
  if (!CREDENTIAL_HINT.test(text)) return matches;
  const configFile = isConfigFile(path);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 61 /* = */ && c !== 58 /* : */ && c !== 40 /* ( */) continue;
    const assignment = assignmentAt(text, i);
    if (assignment === undefined) continue;
    const name = text.slice(assignment.nameStart, assignment.nameEnd);
    if (!isCredentialName(name)) continue;
    // A bare value only where the whole line is the assignment: `DB_PASSWORD=…`, `password: …`.
    const bareAllowed =
      configFile &&
      assignment.nameStart <= 32 &&
      /^\s*(?:(?:export|-|ENV|set)\s+)?$/.test(text.slice(0, assignment.nameStart));
    const span = valueAt(text, assignment.valueFrom, bareAllowed);
    if (span === undefined) continue;
    const value = text.slice(span.start, span.end);
    if (!isCredentialValue(value)) continue;
    matches.push({
      ruleId: 'secrets.generic-credential',
      cwe: CWE_HARD_CODED_CREDENTIALS,
      cvss: SECRET_CVSS.unknownReach,
      severity: 'important',
      message: committedMessage(
        `a hard-coded credential in \`${name}\``,
        'anyone with read access to the repository can use it',
        'Rotate it and load it from the environment or a secret manager.',
      ),
      line: lineNumber,
      start: span.start,
      end: span.end,
      secret: value,
    });
    i = span.end;
  }
  return matches;
}
