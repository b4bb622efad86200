import { CWE_HARD_CODED_KEY, SECRET_CVSS } from './secret-cvss.js';
import { committedMessage, type SecretMatch } from './secret-match.js';

const HEADER = /-----BEGIN ((?:RSA |EC |OPENSSH |DSA |PGP |ENCRYPTED )?)PRIVATE KEY( BLOCK)?-----/g;
const END_MARKER = '-----END ';
/** A 4096-bit RSA key is about 50 lines; PGP blocks run longer. Bounds the look-ahead. */
const MAX_KEY_LINES = 400;
/** A body this long without an END line (a truncated hunk) is still a key. */
const MIN_BODY_WITHOUT_END = 256;
const MIN_BODY_WITH_END = 32;
const BASE64_CHUNK = /^[A-Za-z0-9+/]{16,}={0,2}$/;
/** PEM and armour headers inside a key ("Proc-Type: 4,ENCRYPTED", "Version: GnuPG"). */
const ARMOUR_HEADER = /^[A-Za-z][A-Za-z-]{1,30}: /;
const JUNK = '\'"`+,;()[]{} \t';

const KINDS: Record<string, string> = {
  '': 'a private key',
  'RSA ': 'an RSA private key',
  'EC ': 'an EC private key',
  'OPENSSH ': 'an OpenSSH private key',
  'DSA ': 'a DSA private key',
  'PGP ': 'a PGP private key',
  'ENCRYPTED ': 'an encrypted private key',
};

/** A source line stripped of what quotes and joins a key inside code: quotes, `+`, `\n`, commas. */
function clean(text: string): string {
  const t = text.replace(/\\[nr]/g, ' ');
  let start = 0;
  let end = t.length;
  while (start < end && JUNK.includes(t[start] ?? '')) start++;
  while (end > start && JUNK.includes(t[end - 1] ?? '')) end--;
  return t.slice(start, end);
}

type LineKind = 'body' | 'skip' | 'other';

function classify(text: string): { kind: LineKind; body: string } {
  const chunks = text
    .replace(/\\[nr]/g, ' ')
    .split(/\s+/)
    .map(clean)
    .filter(Boolean);
  if (chunks.length === 0) return { kind: 'skip', body: '' };
  if (ARMOUR_HEADER.test(clean(text))) return { kind: 'skip', body: '' };
  let body = '';
  for (const chunk of chunks) {
    if (!BASE64_CHUNK.test(chunk)) return { kind: 'other', body: '' };
    body += chunk;
  }
  return { kind: 'body', body };
}

/**
 * Private keys: the BEGIN line, then the body on the same line (a JSON string with `\n` escapes)
 * or on the consecutive added lines that follow, up to the END line. A header alone (code that
 * checks for one, documentation) is not a key: the body must be there.
 */
export function findPrivateKeys(
  lineNumber: number,
  text: string,
  addedLines: ReadonlyMap<number, string>,
): { matches: SecretMatch[]; bodyLines: number[] } {
  const matches: SecretMatch[] = [];
  const bodyLines: number[] = [];
  for (const header of text.matchAll(HEADER)) {
    const headerEnd = header.index + header[0].length;
    // The same-line body runs to the next '-----' (its END line, or another key): scanning no
    // further keeps a line of many headers linear.
    const boundary = text.indexOf('-----', headerEnd);
    const endOnLine = boundary >= 0 && text.startsWith(END_MARKER, boundary) ? boundary : -1;
    let body = '';
    let foundEnd = false;
    let spanEnd = headerEnd;
    for (const chunk of text
      .slice(headerEnd, boundary >= 0 ? boundary : text.length)
      .replace(/\\[nr]/g, ' ')
      .split(/\s+/)) {
      const c = clean(chunk);
      if (BASE64_CHUNK.test(c)) body += c;
    }
    if (body.length > 0) {
      const close = endOnLine >= 0 ? text.indexOf('-----', endOnLine + END_MARKER.length) : -1;
      spanEnd = close >= 0 ? close + 5 : endOnLine >= 0 ? endOnLine : boundary >= 0 ? boundary : text.length;
    }
    const lines: number[] = [];
    if (endOnLine >= 0) {
      foundEnd = true;
    } else if (boundary < 0) {
      // Only a header that ends its line continues on the next lines.
      for (let n = lineNumber + 1; n <= lineNumber + MAX_KEY_LINES; n++) {
        const next = addedLines.get(n);
        if (next === undefined || next.includes('-----BEGIN ')) break;
        const endAt = next.indexOf(END_MARKER);
        const { kind, body: part } = classify(endAt >= 0 ? next.slice(0, endAt) : next);
        if (kind === 'other') break;
        body += part;
        lines.push(n);
        if (endAt >= 0) {
          foundEnd = true;
          break;
        }
      }
    }
    const enough = foundEnd ? body.length >= MIN_BODY_WITH_END : body.length >= MIN_BODY_WITHOUT_END;
    if (!enough) continue;
    bodyLines.push(...lines);
    matches.push({
      ruleId: 'secrets.private-key',
      cwe: CWE_HARD_CODED_KEY,
      cvss: SECRET_CVSS.accountTakeover,
      severity: 'critical',
      message: committedMessage(
        KINDS[header[1] ?? ''] ?? 'a private key',
        'anyone with read access to the repository can impersonate its owner or decrypt what it protects',
        'Replace the key pair and keep the private key out of the repository (a secret store or the environment).',
      ),
      line: lineNumber,
      start: headerEnd,
      end: spanEnd,
      secret: body,
      keep: 0,
    });
  }
  return { matches, bodyLines };
}
