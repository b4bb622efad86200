import type { Rule } from '../../rule-schema.js';

/**
 * `flag: false` (or `:flag => false`) in a cookie's options hash: assigned to `cookies[...]`
 * (Rails, also `cookies.signed[...]`), or passed to a call that names cookies
 * (`response.set_cookie`, `cookies.set`).
 */
const cookieFlagOff = (flag: string) => ({
  kind: 'pair',
  regex: `^:?${flag}:?\\s*(=>)?\\s*false$`,
  inside: {
    kind: 'hash',
    any: [
      { inside: { kind: 'assignment', has: { field: 'left', regex: '^cookies\\b' } } },
      { inside: { kind: 'argument_list', inside: { kind: 'call', regex: '^[\\w.:]*cookie' } } },
    ],
  },
});

export const cookieNotSecureRule: Rule = {
  id: 'rb.cookie-not-secure',
  languages: ['ruby'],
  type: 'security',
  severity: 'warning',
  message:
    'This cookie turns secure off, so the browser also sends it over plain HTTP, where anyone on the network can read it. Set secure: true (or config.force_ssl, which marks cookies Secure).',
  rule: cookieFlagOff('secure'),
  cwe: 'CWE-614',
  cvss: 4.3,
};

export const cookieNotHttpOnlyRule: Rule = {
  id: 'rb.cookie-not-httponly',
  languages: ['ruby'],
  type: 'security',
  severity: 'warning',
  message:
    "This cookie turns httponly off, so any script on the page can read it: one XSS and the session goes with it. Leave httponly: true unless the page's own script must read this value.",
  rule: {
    ...cookieFlagOff('httponly'),
    // A CSRF token cookie is meant to be read by the page's script (the double-submit pattern).
    not: { inside: { any: [{ kind: 'assignment' }, { kind: 'call' }], stopBy: 'end', regex: '(?i)^[^=(]*[cx]srf' } },
  },
  cwe: 'CWE-1004',
  cvss: 4.3,
};

export const cookieWithoutFlagsRule: Rule = {
  id: 'rb.cookie-without-flags',
  languages: ['ruby'],
  type: 'security',
  severity: 'warning',
  message:
    'A session cookie without secure: and httponly: (HttpOnly is false when not given, Secure too unless force_ssl is on): any script on the page can read it. Add httponly: true and secure: true.',
  rule: {
    kind: 'assignment',
    has: {
      field: 'left',
      kind: 'element_reference',
      regex:
        '(?i)^cookies(\\.(signed|encrypted|permanent))*\\[\\s*(:|["\'])\\w*(sess|sid|auth|token|remember|login|jwt)',
    },
    all: [
      {
        has: {
          field: 'right',
          kind: 'hash',
          not: {
            has: {
              kind: 'pair',
              any: [
                { regex: '^:?(secure|httponly):?\\s*(=>)?' },
                // A value written in the code (`value: "1"`) is a preference, not a credential.
                { regex: '^:?value:?\\s*(=>)?\\s*(["\'0-9]|true|false)' },
              ],
            },
          },
        },
      },
    ],
  },
  cwe: 'CWE-614',
  cvss: 4.3,
};
