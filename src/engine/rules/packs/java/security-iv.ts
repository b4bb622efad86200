import type { Rule } from '../../rule-schema.js';
import { declaredFrom, fieldFrom } from './fragments.js';

/** Bytes written in the code: `new byte[] {1, 2, ...}`, `"0123456789abcdef".getBytes()`. */
const WRITTEN_BYTES = {
  any: [
    { kind: 'array_creation_expression', has: { kind: 'array_initializer' } },
    { kind: 'method_invocation', regex: '^"[^"]*"\\.getBytes\\(' },
  ],
};

/** An IV or nonce the code fixes: written bytes, an all-zero array made on the spot, or a name holding written bytes. */
const FIXED_IV = {
  any: [
    WRITTEN_BYTES,
    // `new byte[16]` passed as it is: all zeros (a local filled by nextBytes first is not this).
    { kind: 'array_creation_expression', not: { has: { kind: 'array_initializer' } } },
    declaredFrom('$IV', WRITTEN_BYTES),
    fieldFrom('$IV', WRITTEN_BYTES),
  ],
};

export const staticIvRule: Rule = {
  id: 'java.static-iv',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'The IV or nonce is fixed in the code: the same plaintext encrypts to the same ciphertext, and with GCM a reused nonce lets an attacker forge messages and recover the key stream. Draw a fresh one from SecureRandom for each message and send it with the ciphertext.',
  rule: {
    kind: 'object_creation_expression',
    any: [
      {
        has: { field: 'type', regex: '^(javax\\.crypto\\.spec\\.)?IvParameterSpec$' },
        all: [{ has: { field: 'arguments', has: { nthChild: 1, ...FIXED_IV } } }],
      },
      {
        has: { field: 'type', regex: '^(javax\\.crypto\\.spec\\.)?GCMParameterSpec$' },
        all: [{ has: { field: 'arguments', has: { nthChild: 2, ...FIXED_IV } } }],
      },
    ],
  },
  cwe: 'CWE-329',
  cvss: 5.9,
};
