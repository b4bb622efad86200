import type { Rule } from '../../rule-schema.js';
import {
  anyKind,
  calleeName,
  calleeProperty,
  declaredFrom,
  FUNCTION,
  FUNCTION_KINDS,
  firstArgument,
  LANGUAGES,
  moduleConstant,
} from './fragments.js';

/** Names of values that must be unpredictable. */
const SECRET_NAME = '(?i)(token|secret|passw|pwd|nonce|salt|otp|apikey|api_key|csrf|session)';

/** A declaration, object key or assignment whose name matches `regex`. */
const namedTarget = (regex: string) => ({
  any: [
    { kind: 'variable_declarator', has: { field: 'name', regex } },
    { kind: 'pair', has: { field: 'key', regex } },
    { kind: 'assignment_expression', has: { field: 'left', regex } },
    // `token += Math.floor(Math.random() * 10)`: a code built digit by digit.
    { kind: 'augmented_assignment_expression', has: { field: 'left', regex } },
  ],
});

/** A class whose instances issue secrets: `SessionStore`, `ApiKeysService`, `ResetTokens`. */
const SECRET_ISSUER_CLASS = {
  kind: 'class_declaration',
  has: { field: 'name', regex: '(?i)(session|token|secret|nonce|csrf|passw|api_?keys?|otp)' },
};

/**
 * Where a random value ends up that must not be guessable: a token/secret/session-like name, or an
 * `id` made inside a function that creates a session, token or nonce (`newSession() { const id = ... }`).
 */
const RANDOM_SECRET_TARGET = {
  any: [
    namedTarget(SECRET_NAME),
    {
      ...namedTarget('^(id|_id|sid)$'),
      inside: {
        any: [
          ...['function_declaration', 'method_definition', 'variable_declarator'].map((kind) => ({
            kind,
            has: { field: 'name', regex: '(?i)(session|token|secret|nonce|csrf|passw|apikey|api_key|otp)' },
          })),
          SECRET_ISSUER_CLASS,
        ],
        stopBy: 'end',
      },
    },
  ],
};

/** A function that makes a secret value: `createResetToken`, `inviteCode`, `generateApiKey`, `newOtp`. */
const SECRET_MAKER_NAME =
  '(?i)(^(random|generate|gen|make|create|new)_?(key|pin|passcode)s?$|(token|secret|password|passwd|nonce|salt|otp|api_?key|csrf|session_?id)s?|(invite|invitation|verification|verify|reset|confirmation|confirm|access|auth|promo|coupon|voucher|referral|license|activation|recovery|backup|pairing|magic|login|one_?time|signing|encryption)_?(code|key|link|pin)s?|^(create|generate|make|new|issue)_?(invite|invitation|password_?reset|magic_?link|login_?link)s?)$';

const RANDOM_TARGET_STOP = anyKind([
  'variable_declarator',
  'pair',
  'assignment_expression',
  'augmented_assignment_expression',
  ...FUNCTION_KINDS,
]);

/** `createHash('md5')`, `createHash('sha1')`. */
const WEAK_HASH_CALL = {
  kind: 'call_expression',
  all: [
    { any: [calleeProperty('^createHash$'), calleeName('^createHash$')] },
    firstArgument({ kind: 'string', regex: '^.(?i)(md5|md4|sha1|sha-1).$' }),
  ],
};

/** Names of what a fast hash must not protect: passwords, tokens, keys and one-time codes. */
const HASHED_SECRET = '(?i)(password|passwd|passphrase|pwd|secret|token|api_?key|credential|^otp|otp$|^pin$)';

// A weak digest is a comment to weigh, not a defect, until it protects something: it names and
// fingerprints data as well as ever. Over a password or a token it is one (`js.weak-secret-hash`).
export const weakHashRule: Rule = {
  id: 'js.weak-hash',
  languages: LANGUAGES,
  type: 'security',
  severity: 'info',
  message:
    'MD5 and SHA-1 no longer resist collisions: fine to name or fingerprint data, not where someone gains from a forged match (signatures, integrity against an attacker, stored secrets). Prefer SHA-256.',
  rule: {
    ...WEAK_HASH_CALL,
    all: [
      ...WEAK_HASH_CALL.all,
      // A change detector or bucket, not a security control: `const etag = ...`, `cacheKey: ...`,
      // `res.set('ETag', ...)`.
      {
        not: {
          inside: {
            stopBy: RANDOM_TARGET_STOP,
            any: [
              namedTarget('(?i)(etag|cache_?key|checksum|fingerprint|shard|bucket|partition|gravatar)$'),
              { kind: 'call_expression', regex: '^[\\w$.]+\\.(set|setHeader|header)\\(\\s*[\'"](?i)etag[\'"]' },
            ],
          },
        },
      },
    ],
  },
  cwe: 'CWE-328',
};

export const weakSecretHashRule: Rule = {
  id: 'js.weak-secret-hash',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'MD5 or SHA-1 over a password or token: a fast, broken hash lets a leaked table be reversed by brute force in hours. Hash passwords with bcrypt, scrypt or argon2, and tokens with SHA-256 or an HMAC.',
  rule: {
    ...WEAK_HASH_CALL,
    all: [
      ...WEAK_HASH_CALL.all,
      {
        any: [
          // `createHash('md5').update(password)`: the digest's own chain hashes the secret.
          {
            inside: {
              kind: 'member_expression',
              inside: {
                kind: 'call_expression',
                has: {
                  field: 'arguments',
                  has: {
                    stopBy: 'end',
                    any: [{ kind: 'identifier' }, { kind: 'property_identifier' }],
                    regex: HASHED_SECRET,
                  },
                },
              },
            },
          },
          { inside: { stopBy: RANDOM_TARGET_STOP, ...namedTarget(HASHED_SECRET) } },
          {
            inside: {
              stopBy: 'end',
              all: [
                FUNCTION,
                {
                  any: [
                    { has: { field: 'name', regex: HASHED_SECRET } },
                    { has: { field: 'parameters', has: { stopBy: 'end', kind: 'identifier', regex: HASHED_SECRET } } },
                  ],
                },
              ],
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-328',
  cvss: 7.5,
};

/** A cipher that is broken, or a mode that leaks patterns, named in its algorithm string. */
const WEAK_ALGORITHM = { kind: 'string', regex: '(?i)(des|rc4|rc2|blowfish|-ecb)' };

export const weakCipherRule: Rule = {
  id: 'js.weak-cipher',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'This cipher is weak or misused (createCipher derives a key without salt or IV; DES, RC4 and ECB leak patterns): use createCipheriv with aes-256-gcm and a random IV.',
  rule: {
    kind: 'call_expression',
    any: [
      { all: [{ any: [calleeProperty('^createCipher$'), calleeName('^createCipher$')] }] },
      {
        all: [
          { any: [calleeProperty('^createCipheriv$'), calleeName('^createCipheriv$')] },
          firstArgument({ any: [WEAK_ALGORITHM, moduleConstant(WEAK_ALGORITHM, '$ALGORITHM')] }),
        ],
      },
    ],
  },
  cwe: 'CWE-327',
};

/** Bytes written in the code: `Buffer.alloc(16)` (zeros), `Buffer.from('0123456789abcdef')`, a string. */
const WRITTEN_BYTES = {
  any: [
    { kind: 'call_expression', regex: '^Buffer\\.(alloc|from)\\(\\s*([0-9]|[\'"`])' },
    { kind: 'new_expression', regex: '^new\\s+Uint8Array\\(\\s*([0-9]|\\[)' },
    { kind: 'string' },
  ],
};

export const staticIvRule: Rule = {
  id: 'js.static-iv',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'The IV is fixed in the code: the same plaintext encrypts to the same ciphertext, and with GCM a reused nonce lets an attacker forge messages and recover the key stream. Draw a fresh one with crypto.randomBytes for each message and send it with the ciphertext.',
  rule: {
    kind: 'call_expression',
    any: [calleeProperty('^createCipheriv$'), calleeName('^createCipheriv$')],
    has: {
      field: 'arguments',
      kind: 'arguments',
      has: {
        nthChild: 3,
        any: [WRITTEN_BYTES, declaredFrom(WRITTEN_BYTES, '$IV'), moduleConstant(WRITTEN_BYTES, '$IV')],
      },
    },
  },
  cwe: 'CWE-329',
  cvss: 5.9,
};

export const insecureRandomRule: Rule = {
  id: 'js.insecure-random',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'Math.random is predictable and must not generate tokens, passwords or secrets: use crypto.randomBytes, crypto.randomUUID or crypto.getRandomValues.',
  rule: {
    pattern: 'Math.random()',
    any: [
      { inside: { ...RANDOM_SECRET_TARGET, stopBy: RANDOM_TARGET_STOP } },
      // A random string built item by item: `Array.from({ length: 32 }, () => ...Math.random()...)`.
      {
        inside: {
          any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
          stopBy: FUNCTION,
          inside: {
            kind: 'arguments',
            inside: {
              kind: 'call_expression',
              regex:
                '^(Array\\.from\\(|\\[\\.\\.\\.(new\\s+)?Array\\(\\w+\\)\\]\\.map\\(|(new\\s+)?Array\\(\\w+\\)\\.fill\\([^)]*\\)\\.map\\()',
              inside: { ...RANDOM_SECRET_TARGET, stopBy: RANDOM_TARGET_STOP },
            },
          },
        },
      },
      // A numeric code made in a function that makes a secret: `function issueLoginCode() { const code = ... }`.
      {
        all: [
          {
            inside: {
              any: [
                {
                  kind: 'variable_declarator',
                  has: { field: 'name', regex: '(?i)^(code|pin|otp|token|secret|key)$' },
                },
                // `return Math.floor(Math.random() * 1e6)...`, `return String(...)`.
                { kind: 'return_statement', regex: '^return\\s+(String\\(|Number\\(|Math\\.(floor|round|trunc)\\()' },
              ],
              stopBy: RANDOM_TARGET_STOP,
            },
          },
          {
            inside: {
              any: [
                ...['function_declaration', 'method_definition', 'variable_declarator'].map((kind) => ({
                  kind,
                  has: { field: 'name', regex: SECRET_MAKER_NAME },
                })),
                // A method of a class that issues codes: `class OtpService { async issue() { const code = ... } }`.
                {
                  kind: 'class_declaration',
                  has: {
                    field: 'name',
                    regex: '(?i)(otp|totp|mfa|two_?factor|2fa|verif|passcode|auth|login|token|password|reset)',
                  },
                },
              ],
              stopBy: 'end',
            },
          },
        ],
      },
      // A random string built from Math.random (`.toString(36)`, `ALPHABET[Math.floor(Math.random() * n)]`)
      // inside a function that makes a secret: `function inviteCode()`, `generateApiKey()`.
      {
        all: [
          {
            any: [
              // `Math.random().toString(36)`, or a digit at a time: `Math.floor(Math.random() * 16).toString(16)`.
              {
                inside: {
                  kind: 'call_expression',
                  regex: '^Math\\.random\\(\\)\\.toString\\(|\\.toString\\(\\s*(2|8|16|32|36)\\s*\\)$',
                  stopBy: FUNCTION,
                },
              },
              { inside: { kind: 'subscript_expression', stopBy: FUNCTION } },
              { inside: { kind: 'call_expression', regex: '^\\w+\\.charAt\\(', stopBy: FUNCTION } },
            ],
          },
          {
            inside: {
              any: [
                ...['function_declaration', 'method_definition', 'variable_declarator'].map((kind) => ({
                  kind,
                  has: { field: 'name', regex: SECRET_MAKER_NAME },
                })),
                SECRET_ISSUER_CLASS,
              ],
              stopBy: 'end',
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-338',
};

export const tlsDisabledRule: Rule = {
  id: 'js.tls-disabled',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'Turning off TLS certificate verification lets anyone on the network impersonate the server (man-in-the-middle): fix the certificate chain or pass the right CA instead.',
  rule: {
    any: [
      { kind: 'pair', regex: '^(rejectUnauthorized|strictSSL)\\s*:\\s*false$' },
      // `checkServerIdentity: () => undefined`: accepts a certificate issued for any host name.
      {
        kind: 'pair',
        has: { field: 'key', regex: '^checkServerIdentity$' },
        all: [
          {
            has: {
              field: 'value',
              any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
              has: {
                field: 'body',
                regex:
                  '^(undefined|null|\\{\\s*\\}|\\{\\s*return(\\s+(undefined|null))?;?\\s*\\}|\\(\\s*\\{\\s*\\}\\s*\\))$',
              },
            },
          },
        ],
      },
      {
        kind: 'assignment_expression',
        has: { field: 'left', regex: 'NODE_TLS_REJECT_UNAUTHORIZED' },
        all: [{ has: { field: 'right', regex: '^([\'"`]0[\'"`]|0)$' } }],
      },
    ],
  },
  cwe: 'CWE-295',
  cvss: 7.4,
};
