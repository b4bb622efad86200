import type { Rule } from '../../rule-schema.js';
import { calleeProperty, FUNCTION, LANGUAGES } from './fragments.js';

/** Names of variables and keys that hold a secret: `JWT_SECRET`, `sessionSecret`, `apiKey`, `dbPassword`. */
const SECRET_VAR_NAME = '(?i)(password|passwd|secret|api_?key|private_?key|access_?token|auth_?token|signing_?key)$';

/** `process.env.JWT_SECRET || 'b7f1...'`: an environment variable with a key-like literal default. */
const ENV_WITH_LITERAL_FALLBACK = {
  kind: 'binary_expression',
  has: { field: 'operator', regex: '^(\\|\\||\\?\\?)$' },
  all: [
    { has: { field: 'left', regex: '^process\\.env\\b' } },
    {
      has: {
        field: 'right',
        kind: 'string',
        regex: '^.[^\\s\'"]{8,}.$',
        any: [{ regex: '[0-9]' }, { regex: '[a-z].*[A-Z]|[A-Z].*[a-z]' }],
        not: {
          regex:
            '(?i)(example|changeme|change-me|change_me|placeholder|your[-_]|xxx|\\*\\*\\*|dummy|redacted|fake|test|localhost|http|<|\\$\\{|\\{\\{)',
        },
      },
    },
  ],
};

export const jwtNoneAlgorithmRule: Rule = {
  id: 'js.jwt-none-algorithm',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    "Accepting or signing with the 'none' JWT algorithm means tokens are not signed at all: anyone can forge one. Pin a real algorithm (e.g. RS256 or HS256).",
  rule: {
    kind: 'call_expression',
    all: [
      calleeProperty('^(verify|sign)$', '^(jwt|jsonwebtoken|JWT)$'),
      {
        has: {
          field: 'arguments',
          has: {
            kind: 'object',
            has: { kind: 'pair', regex: '^algorithms?\\s*:.*[\'"]none[\'"]' },
          },
        },
      },
    ],
  },
  cwe: 'CWE-347',
  cvss: 9.1,
};

export const jwtDecodeWithoutVerifyRule: Rule = {
  id: 'js.jwt-decode-without-verify',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'jwt.decode does not check the signature: a request handler that trusts decoded claims accepts forged tokens. Use jwt.verify with the key and a pinned algorithm.',
  rule: {
    kind: 'call_expression',
    all: [
      calleeProperty('^decode$', '^(jwt|jsonwebtoken|JWT)$'),
      {
        inside: {
          ...FUNCTION,
          all: [
            { has: { kind: 'member_expression', regex: '^(req|request|ctx)\\.', stopBy: 'end' } },
            { not: { has: { kind: 'call_expression', regex: '^\\w+\\.verify\\(', stopBy: 'end' } } },
          ],
          stopBy: FUNCTION,
        },
      },
    ],
  },
  cwe: 'CWE-347',
};

export const hardcodedCredentialRule: Rule = {
  id: 'js.hardcoded-credential',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'A password or secret written in the source ends up in every clone and log of the repository: read it from the environment or a secret store.',
  rule: {
    any: [
      {
        kind: 'variable_declarator',
        has: {
          field: 'name',
          regex: '(?i)(password|passwd|secret|api_?key|private_?key|access_?token|auth_?token)$',
        },
        all: [{ has: { field: 'value', kind: 'string', regex: '^.[^\\s\'"]{8,}.$' } }],
      },
      {
        kind: 'pair',
        has: { field: 'key', regex: '(?i)(password|passwd|secret|api_?key|private_?key|access_?token|auth_?token)$' },
        all: [{ has: { field: 'value', kind: 'string', regex: '^.[^\\s\'"]{8,}.$' } }],
      },
    ],
    has: { field: 'value', any: [{ regex: '[0-9]' }, { regex: '[a-z].*[A-Z]|[A-Z].*[a-z]' }] },
    not: {
      has: {
        field: 'value',
        any: [
          {
            regex:
              '(?i)(example|changeme|change-me|placeholder|your[-_]|xxx|\\*\\*\\*|dummy|redacted|fake|test|<|\\$\\{|\\{\\{)',
          },
          { regex: '^.[A-Z0-9_]+.$' },
        ],
      },
    },
  },
  cwe: 'CWE-798',
};

export const secretEnvFallbackRule: Rule = {
  id: 'js.secret-env-fallback',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'The secret falls back to a key written in the source when the environment variable is missing: every deployment that forgets the variable silently uses a key anyone with the repository can read (and forge tokens or sessions with). Fail at start-up when the variable is unset instead.',
  rule: {
    any: [
      ...[
        ['variable_declarator', 'name', 'value'],
        ['pair', 'key', 'value'],
        ['assignment_expression', 'left', 'right'],
      ].map(([kind, name, value]) => ({
        kind,
        has: { field: name, regex: SECRET_VAR_NAME },
        all: [{ has: { field: value, ...ENV_WITH_LITERAL_FALLBACK } }],
      })),
      // `jwt.sign(claims, process.env.JWT_SECRET || 'b7f1...')`.
      {
        kind: 'call_expression',
        all: [
          calleeProperty('^(sign|verify)$', '^(jwt|jsonwebtoken|JWT|jsonWebToken)$'),
          { has: { field: 'arguments', has: { nthChild: 2, ...ENV_WITH_LITERAL_FALLBACK } } },
        ],
      },
    ],
  },
  cwe: 'CWE-798',
  cvss: 9.1,
};

export const jwtHardcodedSecretRule: Rule = {
  id: 'js.jwt-hardcoded-secret',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'The JWT signing key is a string literal in the source: anyone who can read the repository can forge tokens for any user. Read the key from the environment or a secret store.',
  rule: {
    kind: 'call_expression',
    all: [
      calleeProperty('^(sign|verify)$', '^(jwt|jsonwebtoken|JWT|jsonWebToken)$'),
      {
        has: {
          field: 'arguments',
          has: {
            nthChild: 2,
            kind: 'string',
            regex: '^.[^\\s]{6,}.$',
            not: { regex: '(?i)(example|changeme|change-me|placeholder|your[-_]|xxx|dummy|fake|test|\\$\\{)' },
          },
        },
      },
    ],
  },
  cwe: 'CWE-798',
};
