import type { Rule } from '../../rule-schema.js';

/** `Flag: false` written in an `http.Cookie{...}` literal (a cookie type of any package). */
const cookieFlagOff = (flag: string) => ({
  kind: 'keyed_element',
  regex: `^${flag}\\s*:\\s*false$`,
  inside: { kind: 'literal_value', inside: { kind: 'composite_literal', has: { field: 'type', regex: 'Cookie$' } } },
});

export const cookieNotSecureRule: Rule = {
  id: 'go.cookie-not-secure',
  languages: ['go'],
  type: 'security',
  severity: 'warning',
  message:
    'This cookie sets Secure: false, so the browser also sends it over plain HTTP, where anyone on the network can read it. Set Secure: true (browsers accept Secure cookies on http://localhost, so development works too).',
  rule: cookieFlagOff('Secure'),
  cwe: 'CWE-614',
  cvss: 4.3,
};

export const cookieNotHttpOnlyRule: Rule = {
  id: 'go.cookie-not-httponly',
  languages: ['go'],
  type: 'security',
  severity: 'warning',
  message:
    "This cookie sets HttpOnly: false, so any script on the page can read it: one XSS and the session goes with it. Set HttpOnly: true unless the page's own script must read this value.",
  rule: {
    ...cookieFlagOff('HttpOnly'),
    // A CSRF token cookie is meant to be read by the page's script (the double-submit pattern).
    not: { inside: { kind: 'literal_value', has: { kind: 'keyed_element', regex: '(?i)^Name\\s*:.*[cx]srf' } } },
  },
  cwe: 'CWE-1004',
  cvss: 4.3,
};

/** A cookie name that says it carries a session or a credential. */
const SESSION_COOKIE_NAME = '(?i)^"[^"]*(sess|sid|auth|token|remember|login|jwt)[^"]*"$';

export const cookieWithoutFlagsRule: Rule = {
  id: 'go.cookie-without-flags',
  languages: ['go'],
  type: 'security',
  severity: 'warning',
  message:
    'A session cookie without Secure and HttpOnly (both false when not set): the browser sends it over plain HTTP and any script on the page can read it. Set Secure: true and HttpOnly: true, and a SameSite mode.',
  rule: {
    kind: 'composite_literal',
    has: { field: 'type', regex: 'Cookie$' },
    all: [
      {
        has: {
          field: 'body',
          all: [
            { has: { kind: 'keyed_element', regex: '^Name\\s*:', has: { regex: SESSION_COOKIE_NAME, stopBy: 'end' } } },
            { not: { has: { kind: 'keyed_element', regex: '^(Secure|HttpOnly)\\s*:' } } },
            // A value written in the code (`Value: "1"`) is a preference, not a credential.
            { not: { has: { kind: 'keyed_element', regex: '^Value\\s*:\\s*["`]' } } },
          ],
        },
      },
    ],
  },
  cwe: 'CWE-614',
  cvss: 4.3,
};
