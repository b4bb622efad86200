import type { Rule } from '../../rule-schema.js';
import { callTo } from './fragments.js';

const SECRET_NAME = '(?i)(token|password|passwd|secret|nonce|salt|otp|apikey|api_key|sessionid|csrf)$';

export const tlsInsecureSkipVerifyRule: Rule = {
  id: 'go.tls-insecure-skip-verify',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'InsecureSkipVerify: true turns off TLS certificate checking: anyone on the network path can read and alter the traffic. Keep verification on; add a private CA to RootCAs instead.',
  rule: {
    any: [
      { kind: 'keyed_element', regex: '^InsecureSkipVerify\\s*:\\s*true$' },
      { kind: 'assignment_statement', regex: '\\.InsecureSkipVerify\\s*=\\s*true$' },
    ],
  },
  cwe: 'CWE-295',
  cvss: 7.4,
};

export const insecureRandomRule: Rule = {
  id: 'go.insecure-random',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'math/rand is predictable: a token, password or key made with it can be guessed. Use crypto/rand (rand.Read, or rand.Text in Go 1.24) for secrets.',
  rule: {
    kind: 'call_expression',
    has: {
      field: 'function',
      regex:
        '^rand\\.(Intn|Int31n?|Int63n?|Uint32|Uint64|Float32|Float64|Perm|Shuffle|IntN|Int32N|Int64N|UintN|Uint32N|Uint64N|N)$',
    },
    any: [
      {
        inside: {
          stopBy: 'end',
          any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }],
          has: { field: 'name', regex: SECRET_NAME },
        },
      },
      {
        inside: {
          stopBy: 'end',
          any: [{ kind: 'short_var_declaration' }, { kind: 'assignment_statement' }],
          has: { field: 'left', regex: SECRET_NAME },
        },
      },
    ],
  },
  cwe: 'CWE-338',
  cvss: 7.5,
};

/** Names of what a fast hash must not protect: passwords, tokens, keys and one-time codes. */
const HASHED_SECRET = '(?i)(password|passwd|passphrase|pwd|secret|token|apikey|api_key|credential|^otp|otp$|^pin$)';

const WEAK_HASH_CALL = callTo('^(md5|sha1)\\.(New|Sum)$');

// A weak digest is a comment to weigh, not a defect, until it protects something: it names and
// fingerprints data as well as ever. Over a password or a token it is one (`go.weak-secret-hash`).
export const weakHashRule: Rule = {
  id: 'go.weak-hash',
  languages: ['go'],
  type: 'security',
  severity: 'info',
  message:
    'MD5 and SHA-1 no longer resist collisions: fine to name or fingerprint data, not where someone gains from a forged match (signatures, integrity against an attacker, stored secrets). Prefer crypto/sha256.',
  rule: {
    ...WEAK_HASH_CALL,
    // An ETag, S3's Content-MD5 header or a cache key is a protocol or lookup use, not a security one.
    not: {
      inside: {
        stopBy: 'end',
        any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }],
        has: { field: 'name', regex: '(?i)(etag|contentmd5|cachekey)' },
      },
    },
  },
  cwe: 'CWE-328',
  cvss: 5.3,
};

export const weakSecretHashRule: Rule = {
  id: 'go.weak-secret-hash',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'MD5 or SHA-1 over a password or token: a fast, broken hash lets a leaked table be reversed by brute force in hours. Hash passwords with golang.org/x/crypto/bcrypt or argon2, and tokens with SHA-256 or an HMAC.',
  rule: {
    ...WEAK_HASH_CALL,
    any: [
      { has: { field: 'arguments', has: { stopBy: 'end', kind: 'identifier', regex: HASHED_SECRET } } },
      {
        inside: {
          stopBy: 'end',
          any: [{ kind: 'short_var_declaration' }, { kind: 'assignment_statement' }],
          has: { field: 'left', regex: HASHED_SECRET },
        },
      },
      {
        inside: {
          stopBy: 'end',
          all: [
            { any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }] },
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
  cwe: 'CWE-328',
  cvss: 7.5,
};

export const insecureRandomIdRule: Rule = {
  id: 'go.insecure-random-id',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'math/rand is predictable: identifiers made with it in a session, auth or token package can be guessed. Use crypto/rand (rand.Read, or rand.Text in Go 1.24).',
  rule: {
    kind: 'call_expression',
    has: {
      field: 'function',
      regex: '^rand\\.(Intn|Int31n?|Int63n?|Uint32|Uint64|Int|IntN|Int64N|Uint64N|Read)$',
    },
    all: [
      {
        inside: {
          stopBy: 'end',
          kind: 'source_file',
          all: [
            {
              has: {
                kind: 'package_clause',
                regex: '(?i)^package\\s+(session|sessions|auth|authn|csrf|token|tokens|otp|apikeys?|secrets?)$',
              },
            },
            { has: { kind: 'import_declaration', regex: '"math/rand(/v2)?"', stopBy: 'end' } },
          ],
        },
      },
      {
        inside: {
          stopBy: 'end',
          any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }],
          has: { field: 'name', regex: '(?i)(id|key|code|token|secret|nonce)$' },
        },
      },
    ],
  },
  cwe: 'CWE-338',
};

export const weakCipherRule: Rule = {
  id: 'go.weak-cipher',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'DES, 3DES, RC4 and Blowfish fall to brute force or biased keystreams: the data they protect can be read. Use crypto/aes with cipher.NewGCM and a random nonce.',
  rule: callTo('^(des\\.(NewCipher|NewTripleDESCipher)|rc4\\.NewCipher|blowfish\\.NewCipher)$'),
  cwe: 'CWE-327',
  cvss: 7.5,
};

/** Bytes written in the code: `[]byte("0123456789abcdef")`, `[]byte{0, 1, ...}`, `make([]byte, 16)` (zeros). */
const WRITTEN_BYTES = {
  any: [
    { kind: 'type_conversion_expression', regex: '^\\[\\]byte\\(\\s*["`]' },
    { kind: 'call_expression', regex: '^\\[\\]byte\\(\\s*["`]' },
    { kind: 'composite_literal', regex: '^\\[[0-9]*\\]byte\\{' },
    { kind: 'call_expression', regex: '^make\\(\\s*\\[\\]byte\\s*,\\s*[0-9A-Za-z_.]+\\s*\\)$' },
  ],
};

/**
 * An IV or nonce fixed in the code: written bytes given as they are, or a package-level variable
 * holding them (a local made with `make` is usually filled by `rand.Read` next: not this).
 */
const FIXED_IV = {
  any: [
    WRITTEN_BYTES,
    {
      kind: 'identifier',
      pattern: '$IV',
      inside: {
        kind: 'source_file',
        stopBy: 'end',
        has: {
          any: [{ kind: 'var_declaration' }, { kind: 'const_declaration' }],
          has: {
            kind: 'var_spec',
            stopBy: 'end',
            all: [{ has: { field: 'name', pattern: '$IV' } }, { has: { field: 'value', has: WRITTEN_BYTES } }],
          },
        },
      },
    },
  ],
};

export const staticIvRule: Rule = {
  id: 'go.static-iv',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'The IV or nonce is fixed in the code: the same plaintext encrypts to the same ciphertext, and with GCM a reused nonce lets an attacker forge messages and recover the key stream. Fill a fresh one with crypto/rand for each message and send it with the ciphertext.',
  rule: {
    kind: 'call_expression',
    // Said once for the whole rule, so a file with neither name skips it (rule-anchors.ts).
    regex: '^(cipher\\.New|[\\w.]+\\.Seal\\()',
    any: [
      {
        has: {
          field: 'function',
          regex: '^cipher\\.New(CBCEncrypter|CBCDecrypter|CFBEncrypter|CFBDecrypter|CTR|OFB)$',
        },
        all: [{ has: { field: 'arguments', has: { nthChild: 2, ...FIXED_IV } } }],
      },
      // An AEAD's `Seal(dst, nonce, plaintext, data)`.
      {
        has: { field: 'function', kind: 'selector_expression', has: { field: 'field', regex: '^Seal$' } },
        all: [{ has: { field: 'arguments', has: { nthChild: 2, ...FIXED_IV } } }],
      },
    ],
  },
  cwe: 'CWE-329',
  cvss: 5.9,
};
