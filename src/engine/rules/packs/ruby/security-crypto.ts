import type { Rule } from '../../rule-schema.js';

const SECRET_NAME =
  '(?i)(^|[@._])(\\w*_)?(token|password|passwd|secret|nonce|salt|otp|api_key|session_id|csrf_token|reset_code)$';

const SECRET_CLASS = '(?i)(token|password|secret|api_?key|otp|nonce|credential)';

/** A class that issues one-time codes: `OtpSender`, `LoginCode`, `VerificationMailer`, `PasswordReset`. */
const ONE_TIME_CODE_CLASS = '(?i)(otp|login_?code|verification|passcode|two_?factor|mfa|2fa|reset|one_?time)';

const SECRET_METHOD = '(?i)(^|_)(token|password|passwd|secret|nonce|salt|otp|api_key)(_|$|\\?|!)';

/** Names of digests that only key or fingerprint data: `cache_key`, `etag`, `checksum`. */
const NON_SECURITY_DIGEST = '(?i)(cache|etag|checksum|fingerprint|shard|bucket|dedup)';

export const tlsVerifyNoneRule: Rule = {
  id: 'rb.tls-verify-none',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'Certificate verification is turned off (VERIFY_NONE / verify: false): anyone on the network path can read and alter the traffic. Keep VERIFY_PEER and add a private CA to the cert store if needed.',
  rule: {
    any: [
      { kind: 'scope_resolution', regex: '^(::)?OpenSSL::SSL::VERIFY_NONE$' },
      { kind: 'pair', regex: '^:?(verify_ssl|ssl_verify|ssl_verify_peer)(:|\\s*=>)\\s*false$' },
      {
        kind: 'pair',
        regex: '^:?verify(:|\\s*=>)\\s*false$',
        inside: { kind: 'hash', inside: { kind: 'pair', regex: '^:?ssl(:|\\s*=>)' } },
      },
    ],
  },
  cwe: 'CWE-295',
  cvss: 7.4,
};

/** `Digest::MD5`, `OpenSSL::Digest::SHA1`, `OpenSSL::Digest.new("md5")`. */
const WEAK_DIGEST = {
  any: [
    { kind: 'scope_resolution', regex: '^(::)?(OpenSSL::)?Digest::(MD5|SHA1)$' },
    { kind: 'call', regex: '^(::)?OpenSSL::Digest\\.new\\(\\s*["\'](?i)(md5|sha1)["\']' },
  ],
};

/** Names of what a fast hash must not protect: passwords, tokens, keys and one-time codes. */
const HASHED_SECRET = '(?i)(password|passwd|passphrase|pwd|secret|token|api_?key|credential|(^|_)(otp|pin)(_|$))';

// A weak digest is a comment to weigh, not a defect, until it protects something: it names and
// fingerprints data (a header fingerprint, an HMAC's digest) as well as ever. Over a password or
// a token it is one (`rb.weak-secret-hash`).
export const weakHashRule: Rule = {
  id: 'rb.weak-hash',
  languages: ['ruby'],
  type: 'security',
  severity: 'info',
  message:
    'MD5 and SHA-1 no longer resist collisions: fine to name or fingerprint data, not where someone gains from a forged match (signatures, integrity against an attacker, stored secrets). Prefer Digest::SHA256.',
  rule: {
    ...WEAK_DIGEST,
    // A digest that only names or buckets data (a cache key, an ETag, a checksum): nothing depends
    // on it being hard to forge.
    not: {
      any: [
        { inside: { stopBy: 'end', kind: 'method', has: { field: 'name', regex: NON_SECURITY_DIGEST } } },
        { inside: { stopBy: 'end', kind: 'assignment', has: { field: 'left', regex: NON_SECURITY_DIGEST } } },
      ],
    },
  },
  cwe: 'CWE-328',
  cvss: 5.3,
};

export const weakSecretHashRule: Rule = {
  id: 'rb.weak-secret-hash',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'MD5 or SHA-1 over a password or token: a fast, broken hash lets a leaked table be reversed by brute force in hours. Hash passwords with bcrypt (has_secure_password) or argon2, and tokens with SHA-256 or an HMAC.',
  rule: {
    all: [
      WEAK_DIGEST,
      {
        any: [
          // `Digest::MD5.hexdigest(salt + password)`: the digest's own call hashes the secret.
          {
            inside: {
              kind: 'call',
              has: {
                field: 'arguments',
                has: {
                  stopBy: 'end',
                  any: [{ kind: 'identifier' }, { kind: 'instance_variable' }],
                  regex: HASHED_SECRET,
                },
              },
            },
          },
          { inside: { stopBy: 'end', kind: 'assignment', has: { field: 'left', regex: HASHED_SECRET } } },
          {
            inside: {
              stopBy: 'end',
              kind: 'method',
              any: [
                { has: { field: 'name', regex: HASHED_SECRET } },
                { has: { field: 'parameters', has: { stopBy: 'end', kind: 'identifier', regex: HASHED_SECRET } } },
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

export const insecureRandomRule: Rule = {
  id: 'rb.insecure-random',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'rand, Random and Array#sample are predictable: a token, password or key made with them can be guessed. Use SecureRandom (SecureRandom.hex, SecureRandom.urlsafe_base64, SecureRandom.alphanumeric).',
  rule: {
    kind: 'call',
    any: [
      {
        all: [
          { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
          { has: { field: 'method', regex: '^(rand|srand)$' } },
        ],
      },
      { has: { field: 'receiver', regex: '^(Random|Random\\.new(\\(.*\\))?|Kernel)$' } },
      {
        all: [
          { has: { field: 'method', regex: '^(sample|shuffle)$' } },
          { not: { has: { field: 'arguments', has: { stopBy: 'end', regex: 'SecureRandom' } } } },
        ],
      },
    ],
    inside: {
      stopBy: 'end',
      any: [
        { kind: 'assignment', has: { field: 'left', regex: SECRET_NAME } },
        { kind: 'method', has: { field: 'name', regex: SECRET_METHOD } },
        // The value generator of a credential model: `class ApiToken ... def generate_value`.
        {
          kind: 'method',
          has: { field: 'name', regex: '^(generate|regenerate|assign|set|build|reset)_\\w+$' },
          inside: { stopBy: 'end', kind: 'class', has: { field: 'name', regex: SECRET_CLASS } },
        },
        // A code or PIN made by a class that sends one-time codes: `class OtpSender ... code = rand(...)`.
        {
          kind: 'assignment',
          has: { field: 'left', regex: '^(code|pin|passcode|\\w+_code|\\w+_pin)$' },
          inside: { stopBy: 'end', kind: 'class', has: { field: 'name', regex: ONE_TIME_CODE_CLASS } },
        },
      ],
    },
  },
  cwe: 'CWE-338',
  cvss: 7.5,
};

export const weakCipherRule: Rule = {
  id: 'rb.weak-cipher',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'DES, 3DES, RC4 and Blowfish fall to brute force or biased keystreams, and ECB mode encrypts equal blocks to equal blocks: the data shows through. Use OpenSSL::Cipher.new("aes-256-gcm") with a random IV.',
  rule: {
    any: [
      {
        kind: 'call',
        regex: '^(::)?OpenSSL::Cipher\\.new\\(\\s*["\'](?i)(des|rc4|rc2|bf|blowfish|cast|[a-z0-9-]*-ecb["\'])',
      },
      { kind: 'scope_resolution', regex: '^(::)?OpenSSL::Cipher::(DES|RC4|RC2|BF|CAST5)$' },
    ],
  },
  cwe: 'CWE-327',
  cvss: 7.5,
};

/** Bytes written in the code: a string literal, `"0123456789abcdef".b`, `"\\0" * 16`. */
const WRITTEN_BYTES = {
  any: [
    { kind: 'string', not: { has: { kind: 'interpolation' } } },
    { kind: 'call', regex: '^["\']' },
    { kind: 'binary', regex: '^["\']' },
  ],
};

/** An IV or nonce fixed in the code: written bytes, or a constant the file binds to them. */
const FIXED_IV = {
  any: [
    WRITTEN_BYTES,
    {
      kind: 'constant',
      pattern: '$IV',
      inside: {
        any: [{ kind: 'class' }, { kind: 'module' }, { kind: 'program' }],
        stopBy: 'end',
        has: {
          kind: 'assignment',
          stopBy: { kind: 'method' },
          all: [{ has: { field: 'left', pattern: '$IV' } }, { has: { field: 'right', ...WRITTEN_BYTES } }],
        },
      },
    },
  ],
};

export const staticIvRule: Rule = {
  id: 'rb.static-iv',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'The IV is fixed in the code: the same plaintext encrypts to the same ciphertext, and with GCM a reused nonce lets an attacker forge messages and recover the key stream. Use cipher.random_iv for each message and send the IV with the ciphertext.',
  rule: {
    kind: 'assignment',
    has: { field: 'left', kind: 'call', regex: '\\.(iv|nonce)$' },
    all: [{ has: { field: 'right', ...FIXED_IV } }],
  },
  cwe: 'CWE-329',
  cvss: 5.9,
};
