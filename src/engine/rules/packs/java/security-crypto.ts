import type { Rule } from '../../rule-schema.js';
import { classWithField, declaredFrom, literalArgument, NON_SECURITY_DIGEST, WEAK_DIGEST } from './fragments.js';

const SECRET_NAME = '(?i)(token|password|passwd|secret|nonce|salt|otp|apikey|sessionid|csrf)$';

/** A variable holding a one-time code, PIN or secret. */
const CODE_NAME = '(?i)(otp|code|pin|token|password|passwd|secret|nonce|salt|apikey|sessionid|csrf)$';

/** An X509TrustManager method checkServerTrusted with an empty body: it accepts every certificate. */
const emptyCheckServerTrusted = {
  kind: 'method_declaration',
  all: [
    { has: { field: 'name', regex: '^checkServerTrusted$' } },
    {
      has: {
        field: 'body',
        kind: 'block',
        not: {
          has: {
            any: [
              { kind: 'expression_statement' },
              { kind: 'throw_statement' },
              { kind: 'if_statement' },
              { kind: 'local_variable_declaration' },
              { kind: 'return_statement' },
              { kind: 'try_statement' },
              { kind: 'line_comment' },
              { kind: 'block_comment' },
            ],
          },
        },
      },
    },
  ],
};

export const insecureRandomCodeRule: Rule = {
  id: 'java.insecure-random-code',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'java.util.Random / ThreadLocalRandom is predictable (its state can be recovered from a few outputs) and must not make one-time codes, tokens or passwords: use java.security.SecureRandom.',
  rule: {
    any: [
      { kind: 'object_creation_expression', has: { field: 'type', regex: '^(java\\.util\\.)?Random$' } },
      { kind: 'method_invocation', regex: '^ThreadLocalRandom\\.current\\(\\)$' },
      { kind: 'method_invocation', regex: '^(Math\\.random|RandomStringUtils\\.random\\w*)\\(' },
    ],
    inside: {
      stopBy: { any: [{ kind: 'method_declaration' }, { kind: 'class_body' }] },
      kind: 'variable_declarator',
      has: {
        field: 'name',
        regex: '(?i)(otp|code|pin|token|password|passwd|secret|nonce|salt|apikey|sessionid|csrf)$',
      },
    },
  },
  cwe: 'CWE-338',
};

/**
 * Transformations that are broken or leak the plaintext's patterns: DES (a 56-bit key), 3DES, RC2,
 * RC4 and Blowfish (64-bit blocks or a biased stream), password-based schemes built on them, and
 * ECB mode, written out or implied by a bare block cipher name (`"AES"` is `AES/ECB/PKCS5Padding`).
 * `RSA/ECB/...` is the JDK's name for plain RSA with no block mode, not ECB.
 */
const WEAK_TRANSFORMATION =
  '(?i)^"\\s*((des|desede|tripledes|3des|rc2|rc4|arcfour|arc4|blowfish)(/|"$)|pbewith\\w*(des|rc2|rc4)|(aes|des\\w*|blowfish)"$|(aes\\w*|des\\w*|tripledes|blowfish|rc2|rc5|rc6|camellia|aria|seed|sm4|twofish|serpent|idea|cast5|cast6)/ecb/)';

/** Key and key-factory algorithms of the same ciphers. */
const WEAK_KEY_ALGORITHM =
  '(?i)^"\\s*(des|desede|tripledes|3des|rc2|rc4|arcfour|arc4|blowfish|pbewith\\w*(des|rc2|rc4)\\w*)"$';

/** `Cipher.getInstance("DES/ECB/PKCS5Padding")`: a weak transformation written out. */
const WEAK_CIPHER_CALL = {
  kind: 'method_invocation',
  all: [
    { has: { field: 'object', regex: '^(javax\\.crypto\\.)?Cipher$' } },
    { has: { field: 'name', regex: '^getInstance$' } },
    literalArgument(WEAK_TRANSFORMATION),
  ],
};

export const weakCipherRule: Rule = {
  id: 'java.weak-cipher',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'DES, 3DES, RC2, RC4 and Blowfish are broken or too weak, and ECB mode (also what a bare "AES" means) shows which blocks of the plaintext repeat: use AES/GCM/NoPadding with a random IV.',
  rule: {
    kind: 'method_invocation',
    any: [
      WEAK_CIPHER_CALL,
      {
        all: [
          { has: { field: 'object', regex: '^(javax\\.crypto\\.)?(KeyGenerator|SecretKeyFactory)$' } },
          { has: { field: 'name', regex: '^getInstance$' } },
          literalArgument(WEAK_KEY_ALGORITHM),
          // The key of a weak cipher made in the same method: one problem, said at the cipher.
          {
            not: { inside: { stopBy: 'end', kind: 'method_declaration', has: { stopBy: 'end', ...WEAK_CIPHER_CALL } } },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-327',
  cvss: 7.4,
};

// A weak digest is a comment to weigh, not a defect, until it protects something: it names and
// fingerprints data as well as ever. Over a password or a token it is one (`java.weak-secret-hash`).
export const weakHashRule: Rule = {
  id: 'java.weak-hash',
  languages: ['java'],
  type: 'security',
  severity: 'info',
  message:
    'MD5 and SHA-1 no longer resist collisions: fine to name or fingerprint data, not where someone gains from a forged match (signatures, integrity against an attacker, stored secrets). Prefer SHA-256.',
  rule: {
    ...WEAK_DIGEST,
    // A checksum of file contents for a cache key or an ETag trusts no one with it.
    not: {
      inside: { stopBy: 'end', kind: 'method_declaration', has: { field: 'name', regex: NON_SECURITY_DIGEST } },
    },
  },
  cwe: 'CWE-328',
  cvss: 5.3,
};

/** `java.util.Random`, written short or in full. */
const RANDOM_TYPE = '^(java\\.util\\.)?Random$';

/** The calls that draw a value from a generator. */
const DRAW = '^(next(Int|Long|Double|Float|Bytes|Boolean|Gaussian)|ints|longs|doubles)$';

/**
 * A class whose instances issue secrets: `ResetTokens`, `SessionIds`, `ResetCodeService`,
 * `OtpSender`. Not a tokenizer, nor a rate limiter's token bucket.
 */
const SECRET_ISSUER_CLASS = {
  kind: 'class_declaration',
  all: [
    {
      has: {
        field: 'name',
        regex:
          '(?i)(session|token|secret|nonce|csrf|passw|api_?keys?|otp|(reset|verification|verify|login|one_?time|invite|activation|confirmation)_?codes?)',
      },
    },
    { not: { has: { field: 'name', regex: '(?i)(tokeni[sz]|bucket|lexer)' } } },
  ],
};

/** A method of a secret-issuing class, other than one that draws for timing or sampling. */
const ISSUER_METHOD = {
  kind: 'method_declaration',
  not: { has: { field: 'name', regex: '(?i)(jitter|backoff|delay|retry|shuffle|sample|pick|choose|weight|colou?r)' } },
  inside: { kind: 'class_body', inside: SECRET_ISSUER_CLASS },
};

/** An index into a list or an array of values is a random pick, not a secret. */
const NOT_A_PICK = {
  not: {
    any: [
      {
        inside: {
          kind: 'argument_list',
          inside: { kind: 'method_invocation', has: { field: 'name', regex: '^get$' } },
        },
      },
      { inside: { kind: 'array_access', field: 'index' } },
    ],
  },
};

/**
 * Where a drawn value becomes a secret: in a method named like one (resetToken), a variable
 * named like a code (`String code = ...`), or a method of a class that issues secrets.
 */
const SECRET_DRAW_CONTEXT = {
  inside: {
    stopBy: 'end',
    any: [
      { kind: 'method_declaration', has: { field: 'name', regex: SECRET_NAME } },
      { kind: 'variable_declarator', has: { field: 'name', regex: CODE_NAME } },
      ISSUER_METHOD,
    ],
  },
};

/** `$R` is a field of the enclosing class made with `new Random()`. */
const RANDOM_FIELD_NAMED_R = {
  inside: classWithField('$R', { kind: 'object_creation_expression', has: { field: 'type', regex: RANDOM_TYPE } }),
};

export const insecureRandomRule: Rule = {
  id: 'java.insecure-random',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'java.util.Random and Math.random are predictable: a token, password or key made with them can be guessed. Use java.security.SecureRandom.',
  rule: {
    any: [
      {
        any: [
          { kind: 'object_creation_expression', has: { field: 'type', regex: RANDOM_TYPE } },
          { kind: 'method_invocation', regex: '^Math\\.random\\(' },
        ],
        inside: {
          stopBy: 'end',
          any: [
            { kind: 'method_declaration', has: { field: 'name', regex: SECRET_NAME } },
            { kind: 'variable_declarator', has: { field: 'name', regex: SECRET_NAME } },
            { kind: 'assignment_expression', has: { field: 'left', regex: SECRET_NAME } },
            ISSUER_METHOD,
          ],
        },
      },
      // A draw from the class's Random field where it makes a secret: the line that makes it.
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: DRAW } },
          { has: { field: 'object', any: [{ kind: 'identifier', pattern: '$R' }, { pattern: 'this.$R' }] } },
          RANDOM_FIELD_NAMED_R,
          SECRET_DRAW_CONTEXT,
          NOT_A_PICK,
        ],
      },
      // `ThreadLocalRandom.current().nextLong()` in a token method or a secret-issuing class (in
      // a variable named like a code, `java.insecure-random-code` says it).
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: DRAW } },
          { has: { field: 'object', regex: '^(java\\.util\\.concurrent\\.)?ThreadLocalRandom\\.current\\(\\)$' } },
          {
            inside: {
              stopBy: 'end',
              any: [{ kind: 'method_declaration', has: { field: 'name', regex: SECRET_NAME } }, ISSUER_METHOD],
            },
          },
          { not: { inside: { stopBy: 'end', kind: 'variable_declarator', has: { field: 'name', regex: CODE_NAME } } } },
          NOT_A_PICK,
        ],
      },
    ],
  },
  cwe: 'CWE-338',
  cvss: 7.5,
};

/** A draw from the Random field `$R` where it makes a secret. */
const SECRET_DRAW_OF_R = {
  kind: 'method_invocation',
  all: [
    { has: { field: 'object', any: [{ kind: 'identifier', pattern: '$R' }, { pattern: 'this.$R' }] } },
    { has: { field: 'name', regex: DRAW } },
    SECRET_DRAW_CONTEXT,
    NOT_A_PICK,
  ],
};

/**
 * The field itself, for a change that makes the generator predictable under draws it leaves as
 * they are (`SecureRandom` replaced by `Random`). When the change writes a draw too,
 * `java.insecure-random` comments there, where the secret is made, and this rule says nothing.
 */
export const insecureRandomFieldRule: Rule = {
  id: 'java.insecure-random-field',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'This java.util.Random field makes tokens, codes or passwords in this class: its output is predictable (its state can be recovered from a few values), so they can be guessed. Use java.security.SecureRandom.',
  rule: {
    kind: 'object_creation_expression',
    has: { field: 'type', regex: RANDOM_TYPE },
    inside: {
      kind: 'variable_declarator',
      all: [
        { has: { field: 'name', pattern: '$R' } },
        {
          inside: {
            kind: 'field_declaration',
            inside: { kind: 'class_body', has: { stopBy: 'end', ...SECRET_DRAW_OF_R } },
          },
        },
      ],
    },
  },
  deferTo: 'java.insecure-random',
  cwe: 'CWE-338',
  cvss: 7.5,
};

export const trustAllCertificatesRule: Rule = {
  id: 'java.trust-all-certificates',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'An X509TrustManager whose checkServerTrusted does nothing accepts every certificate: anyone on the network path can impersonate the server. Use the default TrustManager, or load the private CA into a KeyStore.',
  rule: {
    any: [
      {
        ...emptyCheckServerTrusted,
        // Reported where the manager is installed, when that is in the same method (below).
        not: {
          any: [
            {
              inside: {
                stopBy: 'end',
                kind: 'argument_list',
                inside: { kind: 'method_invocation', has: { field: 'name', regex: '^init$' } },
              },
            },
            {
              inside: {
                stopBy: 'end',
                kind: 'variable_declarator',
                has: { field: 'name', pattern: '$TM' },
                inside: {
                  stopBy: 'end',
                  kind: 'method_declaration',
                  has: {
                    stopBy: 'end',
                    kind: 'method_invocation',
                    all: [
                      { has: { field: 'name', regex: '^init$' } },
                      { has: { field: 'arguments', has: { nthChild: 2, pattern: '$TM' } } },
                    ],
                  },
                },
              },
            },
          ],
        },
      },
      // `ssl.init(null, trustAll, null)` with a trust-all manager declared in the method or written inline.
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^init$' } },
          {
            has: {
              field: 'arguments',
              has: {
                nthChild: 2,
                any: [
                  { has: { stopBy: 'end', ...emptyCheckServerTrusted } },
                  declaredFrom('$TM', { has: { stopBy: 'end', ...emptyCheckServerTrusted } }),
                ],
              },
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-295',
  cvss: 7.4,
};

export const hostnameVerificationDisabledRule: Rule = {
  id: 'java.hostname-verification-disabled',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'A HostnameVerifier that always returns true accepts a certificate for any host: a valid certificate for another domain can impersonate the server. Remove it and keep the default verifier.',
  rule: {
    any: [
      {
        kind: 'method_declaration',
        all: [
          { has: { field: 'name', regex: '^verify$' } },
          { has: { field: 'parameters', regex: 'SSLSession' } },
          { has: { field: 'body', regex: '^\\{\\s*return\\s+true\\s*;\\s*\\}$' } },
        ],
      },
      {
        kind: 'lambda_expression',
        regex: '->\\s*true$',
        inside: {
          kind: 'argument_list',
          inside: {
            kind: 'method_invocation',
            has: { field: 'name', regex: '^(setHostnameVerifier|setDefaultHostnameVerifier|hostnameVerifier)$' },
          },
        },
      },
      { kind: 'object_creation_expression', has: { field: 'type', regex: '^NoopHostnameVerifier$' } },
      {
        kind: 'field_access',
        regex: '^(NoopHostnameVerifier\\.INSTANCE|SSLConnectionSocketFactory\\.ALLOW_ALL_HOSTNAME_VERIFIER)$',
      },
    ],
  },
  cwe: 'CWE-297',
  cvss: 7.4,
};

export const trustAllStrategyRule: Rule = {
  id: 'java.trust-all-strategy',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'TrustAllStrategy (or a trust strategy that returns true) accepts any certificate, so anyone on the network can impersonate the server: load the right CA into the trust store instead.',
  rule: {
    any: [
      { kind: 'field_access', regex: '^TrustAllStrategy\\.INSTANCE$' },
      { kind: 'object_creation_expression', has: { field: 'type', regex: '^TrustAllStrategy$' } },
      {
        kind: 'lambda_expression',
        regex: '->\\s*true$',
        inside: {
          kind: 'argument_list',
          inside: { kind: 'method_invocation', has: { field: 'name', regex: '^loadTrustMaterial$' } },
        },
      },
    ],
  },
  cwe: 'CWE-295',
};
