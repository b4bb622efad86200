import type { Rule } from '../../rule-schema.js';
import { LANGUAGES } from './fragments.js';

/**
 * A flag written `false` in a cookie's options: an argument of a call that names cookies
 * (`res.cookie`, `cookies().set`, `ctx.cookies.set`, `reply.setCookie`, `cookie.serialize`), or
 * the `cookie` options of a session middleware (`session({ cookie: { secure: false } })`).
 */
const cookieFlagOff = (flag: string) => ({
  kind: 'pair',
  regex: `^['"]?${flag}['"]?\\s*:\\s*false$`,
  inside: {
    kind: 'object',
    any: [
      {
        inside: {
          kind: 'arguments',
          inside: { kind: 'call_expression', has: { field: 'function', regex: '(?i)cookie' } },
        },
      },
      { inside: { kind: 'pair', has: { field: 'key', regex: `^['"]?cookie['"]?$` } } },
    ],
  },
});

export const cookieNotSecureRule: Rule = {
  id: 'js.cookie-not-secure',
  languages: LANGUAGES,
  type: 'security',
  severity: 'warning',
  message:
    'This cookie turns Secure off, so the browser also sends it over plain HTTP, where anyone on the network can read it. Set secure: true (browsers accept Secure cookies on http://localhost, so development works too).',
  rule: cookieFlagOff('secure'),
  cwe: 'CWE-614',
  cvss: 4.3,
};

export const cookieNotHttpOnlyRule: Rule = {
  id: 'js.cookie-not-httponly',
  languages: LANGUAGES,
  type: 'security',
  severity: 'warning',
  message:
    "This cookie turns HttpOnly off, so any script on the page can read it: one XSS and the session goes with it. Leave httpOnly on unless the page's own script must read this value.",
  rule: {
    ...cookieFlagOff('httpOnly'),
    // A CSRF token cookie is meant to be read by the page's script (the double-submit pattern).
    not: { inside: { kind: 'call_expression', stopBy: 'end', has: { field: 'arguments', regex: '(?i)[cx]srf' } } },
  },
  cwe: 'CWE-1004',
  cvss: 4.3,
};

export const cookieWithoutFlagsRule: Rule = {
  id: 'js.cookie-without-flags',
  languages: LANGUAGES,
  type: 'security',
  severity: 'warning',
  message:
    'A session cookie without secure and httpOnly (both false when not given): the browser sends it over plain HTTP and any script on the page can read it. Pass { httpOnly: true, secure: true, sameSite: "lax" }.',
  rule: {
    kind: 'call_expression',
    // `res.cookie(...)`, `reply.setCookie(...)`, `cookies().set(...)`, `ctx.cookies.set(...)`.
    has: { field: 'function', kind: 'member_expression', regex: '(\\.(cookie|setCookie)|cookies(\\(\\))?\\.set)$' },
    all: [
      {
        has: {
          field: 'arguments',
          all: [
            { has: { nthChild: 1, kind: 'string', regex: '(?i)(sess|sid|auth|token|remember|login|jwt)' } },
            // A value written in the code (`res.cookie('remember', 1)`) is a preference, not a credential.
            {
              not: {
                has: {
                  nthChild: 2,
                  any: [{ kind: 'number' }, { kind: 'string' }, { kind: 'true' }, { kind: 'false' }],
                },
              },
            },
            { not: { has: { stopBy: 'end', kind: 'pair', regex: '^[\'"]?(secure|httpOnly)[\'"]?\\s*:' } } },
            // Options kept elsewhere (`res.cookie('sid', id, COOKIE_OPTIONS)`) are not read: not this.
            { not: { has: { nthChild: 3, not: { kind: 'object' } } } },
          ],
        },
      },
    ],
  },
  cwe: 'CWE-614',
  cvss: 4.3,
};
