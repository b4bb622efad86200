import type { Rule } from '../../rule-schema.js';

/**
 * `httponly=False` given to `set_cookie` / `set_signed_cookie` (Flask, Django, Starlette).
 * (`secure=False` is the flow analysis' `py.flow.insecure-cookie`, which also knows a cookie
 * that carries a token without the flag.)
 */
export const cookieNotHttpOnlyRule: Rule = {
  id: 'py.cookie-not-httponly',
  languages: ['python'],
  type: 'security',
  severity: 'warning',
  message:
    "This cookie turns HttpOnly off, so any script on the page can read it: one XSS and the session goes with it. Leave httponly=True unless the page's own script must read this value.",
  rule: {
    kind: 'keyword_argument',
    regex: '^httponly\\s*=\\s*False$',
    inside: {
      kind: 'argument_list',
      inside: { kind: 'call', has: { field: 'function', regex: '(^|\\.)set_(signed_)?cookie$' } },
      // A CSRF token cookie is meant to be read by the page's script (the double-submit pattern).
      not: { regex: '(?i)^\\(\\s*[^,]*[cx]srf' },
    },
  },
  cwe: 'CWE-1004',
  cvss: 4.3,
};
