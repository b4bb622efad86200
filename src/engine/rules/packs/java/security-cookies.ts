import type { Rule } from '../../rule-schema.js';

/**
 * HttpOnly turned off on a cookie: the Servlet `Cookie.setHttpOnly(false)`, or Spring's
 * `ResponseCookie` builder `.httpOnly(false)`. (Secure turned off is the flow analysis'
 * `java.flow.insecure-cookie`, which follows the cookie to `addCookie`.)
 */
export const cookieNotHttpOnlyRule: Rule = {
  id: 'java.cookie-not-httponly',
  languages: ['java'],
  type: 'security',
  severity: 'warning',
  message:
    "This cookie turns HttpOnly off, so any script on the page can read it: one XSS and the session goes with it. Leave HttpOnly on unless the page's own script must read this value.",
  rule: {
    kind: 'method_invocation',
    has: { field: 'name', regex: '^(setHttpOnly|httpOnly)$' },
    all: [
      { has: { field: 'arguments', regex: '^\\(\\s*false\\s*\\)$' } },
      // A CSRF token cookie is meant to be read by the page's script (the double-submit pattern).
      { not: { inside: { kind: 'method_declaration', stopBy: 'end', regex: '(?i)[cx]srf' } } },
    ],
  },
  cwe: 'CWE-1004',
  cvss: 4.3,
};
