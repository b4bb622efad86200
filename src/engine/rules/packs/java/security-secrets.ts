import type { Rule } from '../../rule-schema.js';

export const hardcodedDbPasswordRule: Rule = {
  id: 'java.hardcoded-db-password',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'The database password is a string literal in the source: everyone with the repository (and every build artifact) has it. Read it from the environment or a secret store.',
  rule: {
    kind: 'method_invocation',
    all: [
      { regex: '^DriverManager\\.getConnection\\(' },
      {
        has: {
          field: 'arguments',
          has: {
            nthChild: 3,
            kind: 'string_literal',
            regex: '^"[^"\\s]{4,}"$',
            not: { regex: '(?i)(changeme|example|password|placeholder|dummy|test|\\$\\{)' },
          },
        },
      },
    ],
  },
  cwe: 'CWE-798',
};

export const hardcodedSigningKeyRule: Rule = {
  id: 'java.hardcoded-signing-key',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'A signing or encryption key is a string literal in the source: everyone with the code (or the jar) can forge tokens or decrypt data with it, and rotating it needs a release. Load it from configuration or a secret manager.',
  rule: {
    kind: 'string_literal',
    regex: '^"[^"\\s]{16,}"$',
    not: { regex: '(?i)(change.?me|example|your|dummy|placeholder|xxxx|test|hmacsha|aes/|rsa/)' },
    any: [
      // `Keys.hmacShaKeyFor("...".getBytes(UTF_8))`, `new SecretKeySpec("...".getBytes(), "HmacSHA256")`.
      {
        inside: {
          kind: 'method_invocation',
          field: 'object',
          has: { field: 'name', regex: '^getBytes$' },
          inside: {
            kind: 'argument_list',
            inside: {
              any: [
                { kind: 'method_invocation', regex: '^(Keys\\.hmacShaKeyFor|Algorithm\\.HMAC(256|384|512))\\(' },
                { kind: 'method_invocation', has: { field: 'name', regex: '^(signWith|setSigningKey|verifyWith)$' } },
                { kind: 'object_creation_expression', has: { field: 'type', regex: '^SecretKeySpec$' } },
              ],
            },
          },
        },
      },
      // `Algorithm.HMAC256("...")`, `Jwts.parser().setSigningKey("...")`.
      {
        inside: {
          kind: 'argument_list',
          inside: {
            any: [
              { kind: 'method_invocation', regex: '^Algorithm\\.HMAC(256|384|512)\\(' },
              { kind: 'method_invocation', has: { field: 'name', regex: '^(signWith|setSigningKey)$' } },
            ],
          },
        },
      },
    ],
  },
  cwe: 'CWE-798',
  cvss: 9.1,
};
