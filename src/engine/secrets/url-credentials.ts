import { isPlaceholder } from './placeholders.js';
import { CWE_HARD_CODED_CREDENTIALS, SECRET_CVSS } from './secret-cvss.js';
import { committedMessage, type SecretMatch } from './secret-match.js';

const MAX_AUTHORITY = 256;
const MAX_SCHEME = 32;
/** Characters that end a URL's authority (path, query, fragment) or the URL itself in source. */
const AUTHORITY_END = '/?#\t"\'`<>(){}\\,; ';
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
/** Passwords that only name themselves: `user:pass@`, `admin:password@`. */
const STAND_IN_PASSWORDS = new Set(['pass', 'passwd', 'pwd', 'pw', 'user', 'username', 'token', 'foo', 'bar', 'baz']);
/** Local development databases and reserved example domains hold no one's real credentials. */
const LOCAL_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)$/i;
const EXAMPLE_HOST = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/i;

/**
 * `scheme://user:password@host`: a password written into a connection string or URL. One
 * bounded scan per `://`, so a long line costs linear time.
 */
export function findUrlCredentials(lineNumber: number, text: string): SecretMatch[] {
  const matches: SecretMatch[] = [];
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', at + 3)) {
    let schemeStart = at;
    while (schemeStart > 0 && at - schemeStart < MAX_SCHEME && SCHEME_CHAR.test(text[schemeStart - 1] ?? '')) {
      schemeStart--;
    }
    if (schemeStart === at || !/[A-Za-z]/.test(text[schemeStart] ?? '')) continue;
    const authorityStart = at + 3;
    let authorityEnd = authorityStart;
    while (
      authorityEnd < text.length &&
      authorityEnd - authorityStart < MAX_AUTHORITY &&
      !AUTHORITY_END.includes(text[authorityEnd] ?? '/')
    ) {
      authorityEnd++;
    }
    const authority = text.slice(authorityStart, authorityEnd);
    const lastAt = authority.lastIndexOf('@');
    if (lastAt <= 0) continue;
    const userinfo = authority.slice(0, lastAt);
    const colon = userinfo.indexOf(':');
    if (colon < 0) continue;
    const user = userinfo.slice(0, colon);
    const password = userinfo.slice(colon + 1);
    const host = hostOf(authority.slice(lastAt + 1));
    if (host === '' || LOCAL_HOST.test(host) || EXAMPLE_HOST.test(host)) continue;
    if (password === user || STAND_IN_PASSWORDS.has(password.toLowerCase()) || isPlaceholder(password)) continue;
    const start = authorityStart + colon + 1;
    matches.push({
      ruleId: 'secrets.url-credentials',
      cwe: CWE_HARD_CODED_CREDENTIALS,
      cvss: SECRET_CVSS.hostLogin,
      severity: 'critical',
      message: committedMessage(
        `a password in a URL for ${host}`,
        `anyone with read access to the repository can sign in to ${host} with it`,
        'Change the password and load the URL (or the password) from the environment.',
      ),
      line: lineNumber,
      start,
      end: start + password.length,
      secret: `${user}:${password}@${host}`,
    });
  }
  return matches;
}

function hostOf(hostPort: string): string {
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    return close < 0 ? '' : hostPort.slice(0, close + 1);
  }
  const colon = hostPort.indexOf(':');
  return colon < 0 ? hostPort : hostPort.slice(0, colon);
}
