import type { FlowSpec } from '../flow-spec.js';

const each = (module: string, names: string[]): string[] => names.map((n) => `${module}.${n}`);

/** The random module's draws, as functions (`random.randint`) and as methods of a `random.Random`. */
const DRAWS = [
  'random',
  'randint',
  'randrange',
  'randbytes',
  'getrandbits',
  'choice',
  'choices',
  'sample',
  'uniform',
  'triangular',
  'gauss',
  'normalvariate',
  'lognormvariate',
  'expovariate',
  'betavariate',
  'gammavariate',
  'paretovariate',
  'weibullvariate',
  'vonmisesvariate',
  'binomialvariate',
];

/** Secrets are stored where they are named after what they hold: `set_password`, `set_reset_token`. */
const SECRET_SETTER = '^set_(?:\\w+_)?(?:password|passwd|token|secret|api_key|nonce|session_id|otp)$';

/** Where a cookie's Secure flag is: `set_cookie(key, value, max_age, expires, path, domain, secure)`. */
const SECURE = { arg: 6, kwarg: 'secure' };

/**
 * Weak randomness (CWE 330) and cookies sent without Secure (CWE 614) in Flask, Django, Starlette
 * and the standard library: the scoped part of `PYTHON_SPEC` (see flow-spec.ts `ScopedSpec`).
 * `numpy.random.*` matches the random module's names (`random.randint` is its last two segments).
 */
export const PYTHON_SESSION_SPEC: Pick<FlowSpec, 'scoped'> = {
  scoped: {
    sources: [
      // The Mersenne Twister: 624 outputs give its state, and every later one.
      {
        calls: [...each('random', DRAWS), ...each('Random', DRAWS)],
        feeds: [330, 614],
        description: 'the random module (predictable)',
      },
      // Unpredictable, so a fine secret: a secret all the same, which a cookie must not send in clear.
      {
        calls: [
          ...each('secrets', ['token_bytes', 'token_hex', 'token_urlsafe', 'choice', 'randbelow', 'randbits']),
          ...each('SystemRandom', DRAWS),
          'os.urandom',
          'uuid.uuid4',
        ],
        feeds: [614],
        description: 'a secure random value',
      },
    ],
    sinks: [
      { calls: ['*.set_cookie', '*.set_signed_cookie'], args: [1], kwargs: ['value'], cwe: 330, kind: 'cookie value' },
      {
        calls: ['session.update', 'session.setdefault', '*.session.update', '*.session.setdefault'],
        cwe: 330,
        kind: 'session',
      },
      { calls: [], callPattern: SECRET_SETTER, args: [0], cwe: 330, kind: 'password or token' },
      {
        calls: ['*.set_cookie', '*.set_signed_cookie'],
        args: [1],
        kwargs: ['value'],
        flag: SECURE,
        cwe: 614,
        kind: 'cookie',
      },
    ],
    assignSinks: [
      // A store named like a session (`session`, `request.session`, `user_session`) keeps what it is given.
      { objects: ['session', '*.session'], objectPattern: 'session$', cwe: 330, kind: 'session' },
      { objects: ['*.headers'], cwe: 330, kind: 'response header' },
    ],
    propSetters: {},
    returns: {
      'random.Random': 'Random',
      'random.SystemRandom': 'SystemRandom',
      'secrets.SystemRandom': 'SystemRandom',
    },
  },
};
