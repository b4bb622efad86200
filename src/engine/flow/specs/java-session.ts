import type { FlowSpec } from '../flow-spec.js';

const on = (types: string[], methods: string[]): string[] => types.flatMap((t) => methods.map((m) => `${t}.${m}`));

const NEXT = [
  'nextInt',
  'nextLong',
  'nextDouble',
  'nextFloat',
  'nextBoolean',
  'nextGaussian',
  'ints',
  'longs',
  'doubles',
];

/** Secrets are stored where they are named after what they hold: `setPassword`, `setResetToken`, `setApiKey`. */
const SECRET_SETTER = '^set(?:[A-Z]\\w*)?(?:Password|Passwd|Token|Secret|ApiKey|Nonce|SessionId|Otp)$';

/**
 * Weak randomness (CWE 330) and cookies sent without Secure (CWE 614) in the Servlet API, Spring
 * and the JDK: the scoped part of `JAVA_SPEC` (see flow-spec.ts `ScopedSpec`).
 */
export const JAVA_SESSION_SPEC: Pick<FlowSpec, 'scoped'> = {
  scoped: {
    sources: [
      {
        // java.util.Random and its non-cryptographic kin: the state is recovered from a few outputs.
        calls: [
          ...on(['Random', 'ThreadLocalRandom', 'SplittableRandom'], NEXT),
          'Math.random',
          'StrictMath.random',
          ...on(
            ['RandomStringUtils'],
            ['random', 'randomAlphabetic', 'randomAlphanumeric', 'randomAscii', 'randomNumeric', 'randomPrint'],
          ),
          ...on(['RandomUtils'], ['nextInt', 'nextLong', 'nextDouble', 'nextFloat', 'nextBytes']),
        ],
        feeds: [330, 614],
        description: 'a predictable random generator',
      },
      {
        calls: on(['Random', 'ThreadLocalRandom', 'SplittableRandom'], ['nextBytes']),
        fills: 0,
        feeds: [330, 614],
        description: 'a predictable random generator',
      },
      // Unpredictable, so a fine secret: a secret all the same, which a cookie must not send in clear.
      {
        calls: [...on(['SecureRandom'], [...NEXT]), 'UUID.randomUUID', 'HttpSession.getId'],
        feeds: [614],
        description: 'a session identifier or secure random value',
      },
      { calls: ['SecureRandom.nextBytes'], fills: 0, feeds: [614], description: 'a secure random value' },
    ],
    sinks: [
      { calls: ['new Cookie', 'new NewCookie', 'ResponseCookie.from'], args: [1], cwe: 330, kind: 'cookie value' },
      { calls: ['Cookie.setValue'], args: [0], cwe: 330, kind: 'cookie value' },
      { calls: on(['HttpSession'], ['setAttribute', 'putValue']), args: [1], cwe: 330, kind: 'session attribute' },
      { calls: on(['HttpServletResponse'], ['setHeader', 'addHeader']), args: [1], cwe: 330, kind: 'response header' },
      { calls: [], callPattern: SECRET_SETTER, args: [0], cwe: 330, kind: 'password or token' },
      {
        calls: ['HttpServletResponse.addCookie'],
        args: [0],
        flag: { arg: 0, prop: 'secure' },
        cwe: 614,
        kind: 'cookie',
      },
    ],
    assignSinks: [],
    propSetters: { 'Cookie.setSecure': 'secure', 'Cookie.setHttpOnly': 'httpOnly' },
    returns: {
      'SecureRandom.getInstance': 'SecureRandom',
      'SecureRandom.getInstanceStrong': 'SecureRandom',
      'ThreadLocalRandom.current': 'ThreadLocalRandom',
      'HttpServletRequest.getSession': 'HttpSession',
    },
  },
};
