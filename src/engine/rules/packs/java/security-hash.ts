import type { Rule } from '../../rule-schema.js';
import { NON_SECURITY_DIGEST, WEAK_DIGEST } from './fragments.js';

/** Names of what a fast hash must not protect: passwords, tokens, keys and one-time codes. */
const SECRET = '(?i)(password|passwd|passphrase|pwd|secret|token|api_?key|credential|^otp|otp$|^pin|pin$)';

export const weakSecretHashRule: Rule = {
  id: 'java.weak-secret-hash',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'MD5 or SHA-1 over a password or token: a fast, broken hash lets a leaked table be reversed by brute force in hours. Hash passwords with bcrypt, PBKDF2 or Argon2, and tokens with SHA-256 or an HMAC.',
  rule: {
    ...WEAK_DIGEST,
    inside: {
      stopBy: 'end',
      kind: 'method_declaration',
      any: [
        { has: { field: 'name', regex: SECRET } },
        { has: { field: 'parameters', has: { kind: 'formal_parameter', has: { field: 'name', regex: SECRET } } } },
        // `md.digest(password.getBytes())`, `DigestUtils.sha1Hex(salt + token)`.
        {
          has: {
            stopBy: 'end',
            kind: 'method_invocation',
            all: [
              { has: { field: 'name', regex: '^(digest|update|md5|md5Hex|sha1|sha1Hex|sha|shaHex)$' } },
              { has: { field: 'arguments', has: { stopBy: 'end', kind: 'identifier', regex: SECRET } } },
            ],
          },
        },
      ],
      not: { has: { field: 'name', regex: NON_SECURITY_DIGEST } },
    },
  },
  cwe: 'CWE-328',
  cvss: 7.5,
};
