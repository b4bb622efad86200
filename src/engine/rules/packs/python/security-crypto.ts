import type { Rule } from '../../rule-schema.js';

/** A one-time code sent to prove identity: `login_code`, `verification_code`, `pin`, `passcode`. */
const ONE_TIME_CODE =
  '(login|signin|verification|verify|confirmation|confirm|auth|mfa|2fa|sms|email|one_?time|reset|activation|invite|access|security|pass)_?code|pin|passcode';

/** Names that hold secrets: `token`, `reset_token`, `user.password`, `api_key`, `otp`. */
const SECRET_NAME = `(?i)(^|[._])(token|password|passwd|secret|nonce|salt|otp|api_?key|session_?id|csrf_?token|${ONE_TIME_CODE})$`;

const SECRET_FUNCTION = `(?i)(^|_)(token|password|passwd|secret|nonce|salt|otp|api_?key|${ONE_TIME_CODE})(_|$)`;

export const tlsVerifyDisabledRule: Rule = {
  id: 'py.tls-verify-disabled',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'verify=False turns off TLS certificate checking: anyone on the network path can read and alter the traffic. Keep verification on, and pass verify="/path/to/ca.pem" for a private CA.',
  rule: {
    kind: 'keyword_argument',
    regex: '^verify\\s*=\\s*False$',
    inside: {
      kind: 'argument_list',
      inside: {
        kind: 'call',
        has: {
          field: 'function',
          regex: '(^|\\.)(get|post|put|patch|delete|head|options|request|send|Client|AsyncClient|stream)$',
        },
      },
    },
  },
  fix: 'verify=True',
  cwe: 'CWE-295',
  cvss: 7.4,
};

export const sslUnverifiedContextRule: Rule = {
  id: 'py.ssl-unverified-context',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'An SSL context without certificate verification (ssl._create_unverified_context, CERT_NONE) accepts any server: the connection can be intercepted. Use ssl.create_default_context().',
  rule: {
    any: [{ pattern: 'ssl._create_unverified_context($$$)' }, { kind: 'attribute', regex: '^ssl\\.CERT_NONE$' }],
  },
  cwe: 'CWE-295',
  cvss: 7.4,
};

export const weakHashRule: Rule = {
  id: 'py.weak-hash',
  languages: ['python'],
  type: 'security',
  severity: 'warning',
  message:
    'MD5 and SHA-1 are broken for security use (collisions are practical). Use hashlib.sha256, or a password hash (bcrypt, scrypt, argon2) for passwords; pass usedforsecurity=False for a non-security checksum.',
  rule: {
    any: [
      { pattern: 'hashlib.md5($$$)' },
      { pattern: 'hashlib.sha1($$$)' },
      {
        pattern: 'hashlib.new($$$)',
        has: { field: 'arguments', has: { nthChild: 1, regex: '^[\'"](md5|sha1|MD5|SHA1)[\'"]$' } },
      },
    ],
    not: { has: { field: 'arguments', has: { kind: 'keyword_argument', regex: '^usedforsecurity\\s*=\\s*False$' } } },
  },
  cwe: 'CWE-328',
  cvss: 5.3,
};

export const insecureRandomRule: Rule = {
  id: 'py.insecure-random',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'The random module is predictable (Mersenne Twister): a token, password or key made with it can be guessed. Use the secrets module (secrets.token_urlsafe, secrets.choice).',
  rule: {
    kind: 'call',
    has: {
      field: 'function',
      regex: '^random\\.(random|randint|randrange|choice|choices|sample|getrandbits|randbytes|shuffle|uniform)$',
    },
    any: [
      { inside: { stopBy: 'end', kind: 'assignment', has: { field: 'left', regex: SECRET_NAME } } },
      { inside: { stopBy: 'end', kind: 'function_definition', has: { field: 'name', regex: SECRET_FUNCTION } } },
    ],
  },
  cwe: 'CWE-338',
  cvss: 7.5,
};
