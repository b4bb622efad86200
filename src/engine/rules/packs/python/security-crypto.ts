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

export const tlsVerifySessionDisabledRule: Rule = {
  id: 'py.tls-verify-disabled-session',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    "A session's verify set to False turns off TLS certificate checking for every request it sends: anyone on the network path can read and alter the traffic. Keep verification on, and set verify to a CA bundle's path for a private CA.",
  rule: {
    kind: 'assignment',
    pattern: '$SESSION.verify = False',
    inside: { kind: 'module', stopBy: 'end', regex: '(?m)^\\s*(import|from)\\s+(requests|httpx)\\b' },
  },
  fix: '$SESSION.verify = True',
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

/** MD5 or SHA-1 through hashlib. */
const WEAK_HASH_CALL = {
  any: [
    { pattern: 'hashlib.md5($$$)' },
    { pattern: 'hashlib.sha1($$$)' },
    {
      pattern: 'hashlib.new($$$)',
      has: { field: 'arguments', has: { nthChild: 1, regex: '^[\'"](md5|sha1|MD5|SHA1)[\'"]$' } },
    },
  ],
};

/** `usedforsecurity=False`: the call says it is a checksum. */
const NOT_FOR_SECURITY = {
  has: { field: 'arguments', has: { kind: 'keyword_argument', regex: '^usedforsecurity\\s*=\\s*False$' } },
};

/** Names of what a fast hash must not protect: passwords, tokens, keys and one-time codes. */
const HASHED_SECRET = '(?i)(password|passwd|passphrase|pwd|secret|token|api_?key|credential|(^|_)(otp|pin)(_|$))';

// A weak digest is a comment to weigh, not a defect, until it protects something: it names and
// fingerprints data (an ETag, a cache key, an HMAC's digest) as well as ever. Over a password or
// a token it is one (`py.weak-secret-hash`).
export const weakHashRule: Rule = {
  id: 'py.weak-hash',
  languages: ['python'],
  type: 'security',
  severity: 'info',
  message:
    'MD5 and SHA-1 no longer resist collisions: fine to name or fingerprint data, not where someone gains from a forged match (signatures, integrity against an attacker, stored secrets). Prefer hashlib.sha256, or pass usedforsecurity=False to say it is a checksum.',
  rule: { ...WEAK_HASH_CALL, not: NOT_FOR_SECURITY },
  cwe: 'CWE-328',
  cvss: 5.3,
};

export const weakSecretHashRule: Rule = {
  id: 'py.weak-secret-hash',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'MD5 or SHA-1 over a password or token: a fast, broken hash lets a leaked table be reversed by brute force in hours. Hash passwords with bcrypt, scrypt, argon2 or hashlib.pbkdf2_hmac, and tokens with SHA-256 or an HMAC.',
  rule: {
    all: [
      WEAK_HASH_CALL,
      {
        any: [
          { has: { field: 'arguments', has: { stopBy: 'end', kind: 'identifier', regex: HASHED_SECRET } } },
          { inside: { stopBy: 'end', kind: 'assignment', has: { field: 'left', regex: HASHED_SECRET } } },
          {
            inside: {
              stopBy: 'end',
              kind: 'function_definition',
              any: [
                { has: { field: 'name', regex: HASHED_SECRET } },
                { has: { field: 'parameters', has: { stopBy: 'end', kind: 'identifier', regex: HASHED_SECRET } } },
              ],
            },
          },
        ],
      },
    ],
    not: NOT_FOR_SECURITY,
  },
  cwe: 'CWE-328',
  cvss: 7.5,
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

export const weakCipherRule: Rule = {
  id: 'py.weak-cipher',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    "DES, 3DES, RC4 and Blowfish fall to brute force or biased keystreams, and ECB mode encrypts equal blocks to equal blocks: the data shows through. Use AES-GCM (cryptography's AESGCM) with a random nonce.",
  rule: {
    any: [
      // PyCryptodome: `DES.new(key, ...)`, `AES.new(key, AES.MODE_ECB)`.
      { kind: 'call', has: { field: 'function', regex: '^(DES|DES3|ARC2|ARC4|Blowfish|CAST)\\.new$' } },
      { kind: 'attribute', regex: '^(AES|DES|DES3|ARC2|Blowfish|CAST)\\.MODE_ECB$' },
      // cryptography: `algorithms.TripleDES(key)`, `modes.ECB()`.
      { kind: 'call', has: { field: 'function', regex: '(^|\\.)(TripleDES|Blowfish|ARC4|CAST5|IDEA|SEED)$' } },
      { kind: 'call', has: { field: 'function', regex: '(^|\\.)modes\\.ECB$' } },
    ],
  },
  cwe: 'CWE-327',
  cvss: 7.5,
};

/** Bytes written in the code: `b"0123456789abcdef"`, `b"\\x00" * 16`, `bytes(16)` (zeros), `"...".encode()`. */
const WRITTEN_BYTES = {
  any: [
    { kind: 'string', regex: '^[bB]' },
    { kind: 'binary_operator', regex: '^[bB][\'"]' },
    { kind: 'call', regex: '^(bytes|bytearray)\\(\\s*[0-9]' },
    { kind: 'call', regex: '^[\'"][^\'"]*[\'"]\\.encode\\(' },
  ],
};

/** An IV or nonce fixed in the code: written bytes, or a name the module or function binds to them. */
const FIXED_IV = {
  any: [
    WRITTEN_BYTES,
    {
      kind: 'identifier',
      pattern: '$IV',
      inside: {
        any: [{ kind: 'module' }, { kind: 'function_definition' }],
        stopBy: 'end',
        has: {
          kind: 'expression_statement',
          stopBy: { any: [{ kind: 'function_definition' }, { kind: 'class_definition' }] },
          has: {
            kind: 'assignment',
            all: [{ has: { field: 'left', pattern: '$IV' } }, { has: { field: 'right', ...WRITTEN_BYTES } }],
          },
        },
      },
    },
  ],
};

export const staticIvRule: Rule = {
  id: 'py.static-iv',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'The IV or nonce is fixed in the code: the same plaintext encrypts to the same ciphertext, and with GCM a reused nonce lets an attacker forge messages and recover the key stream. Draw a fresh one with os.urandom (or secrets.token_bytes) for each message and send it with the ciphertext.',
  rule: {
    kind: 'call',
    any: [
      // PyCryptodome: `AES.new(key, AES.MODE_CBC, IV)` or `iv=`/`nonce=`.
      {
        has: { field: 'function', regex: '^(AES|DES3|Blowfish|CAST|ARC2)\\.new$' },
        all: [
          {
            has: {
              field: 'arguments',
              any: [
                { has: { nthChild: 3, ...FIXED_IV } },
                { has: { kind: 'keyword_argument', regex: '^(iv|nonce)\\s*=', has: { field: 'value', ...FIXED_IV } } },
              ],
            },
          },
        ],
      },
      // cryptography: `modes.CBC(IV)`, `modes.GCM(nonce)`, `modes.CTR(nonce)`.
      {
        has: { field: 'function', regex: '(^|\\.)(CBC|GCM|CTR|CFB|OFB)$' },
        all: [{ has: { field: 'arguments', has: { nthChild: 1, ...FIXED_IV } } }],
      },
    ],
  },
  cwe: 'CWE-329',
  cvss: 5.9,
};
