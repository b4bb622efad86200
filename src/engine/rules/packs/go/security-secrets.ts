import type { Rule } from '../../rule-schema.js';

export const hardcodedSigningKeyRule: Rule = {
  id: 'go.hardcoded-signing-key',
  languages: ['go'],
  type: 'security',
  severity: 'critical',
  message:
    'A signing or encryption key is written in the source as `[]byte("...")`: everyone with the code (or the binary) can forge tokens and signatures with it, and rotating it needs a release. Load it from the environment or a secret manager.',
  rule: {
    kind: 'type_conversion_expression',
    regex: '^\\[\\]byte\\(\\s*("[^"\\s]{16,}"|`[^`\\s]{16,}`)\\s*\\)$',
    not: { regex: '(?i)(change.?me|example|your|dummy|placeholder|xxxx|test)' },
    any: [
      {
        inside: {
          stopBy: 'end',
          all: [
            {
              any: [
                { kind: 'var_spec' },
                { kind: 'const_spec' },
                { kind: 'short_var_declaration' },
                { kind: 'assignment_statement' },
              ],
            },
            {
              any: ['name', 'left'].map((field) => ({
                has: {
                  field,
                  regex:
                    '(?i)(secret|signing_?key|jwt_?key|hmac_?key|api_?key|private_?key|encryption_?key|secret_?key)$',
                },
              })),
            },
          ],
        },
      },
      {
        inside: {
          kind: 'argument_list',
          inside: { kind: 'call_expression', has: { field: 'function', regex: '(\\.SignedString|^hmac\\.New)$' } },
        },
      },
    ],
  },
  cwe: 'CWE-798',
  cvss: 9.1,
};
