import { z } from 'zod';
import { ConfigError } from './config-error.js';

export { ConfigError };

/**
 * The environment as the service understands it (decisions §9). `loadConfig` is pure: it reads
 * the object it is given, reports every problem at once, each naming its variable, and never
 * touches the disk; the embedded-mode secrets are filled in later by the process entry.
 */

const DEFAULT_RETRY_DELAYS_MS = [0, 60_000, 300_000, 1_800_000, 7_200_000];

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(blankToUndefined, z.string().optional());

/** One message per bad URL, whatever is wrong with it. */
const httpUrl = z
  .string()
  .refine((u) => {
    try {
      const { protocol } = new URL(u);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http:// or https:// URL')
  .transform((u) => u.replace(/\/+$/, ''));

/** A whole number from the environment, with a message that says so (not "received NaN"). */
const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ message }).int(message).min(min, message).max(max, message);
};

const booleanFlag = z.preprocess(
  blankToUndefined,
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
);

/** 32 bytes, given as 64 hex characters or as base64 / base64url. */
const encryptionKey = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((text, ctx) => {
      // Buffer.from(…, 'base64') skips characters it does not know, so check the alphabet first.
      const hex = /^[0-9a-fA-F]{64}$/.test(text);
      const base64 = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text);
      const bytes = hex ? Buffer.from(text, 'hex') : base64 ? Buffer.from(text, 'base64') : Buffer.alloc(0);
      if (bytes.length !== 32) {
        ctx.addIssue({ code: 'custom', message: 'must be 32 bytes, as 64 hex characters or base64' });
        return z.NEVER;
      }
      return bytes;
    })
    .optional(),
);

const schema = z.object({
  PORT: z.preprocess(blankToUndefined, wholeNumber(0, 65535).default(3000)),
  HOST: z.preprocess(blankToUndefined, z.string().min(1).default('0.0.0.0')),
  PUBLIC_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  // A database that hangs instead of refusing (a partition, a stopped VM) must not hang requests.
  DATABASE_CONNECT_TIMEOUT_MS: z.preprocess(blankToUndefined, wholeNumber(100, 600_000).default(5_000)),
  DATABASE_QUERY_TIMEOUT_MS: z.preprocess(blankToUndefined, wholeNumber(100, 3_600_000).default(30_000)),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  GITHUB_SERVER_URL: z.preprocess(blankToUndefined, httpUrl.default('https://github.com')),
  GITHUB_API_URL: z.preprocess(blankToUndefined, httpUrl.default('https://api.github.com')),
  APP_ID: z.preprocess(blankToUndefined, wholeNumber(1, Number.MAX_SAFE_INTEGER).optional()),
  PRIVATE_KEY: optionalString.refine(
    (k) => k === undefined || k.includes('-----BEGIN'),
    'must be a PEM private key (-----BEGIN ...)',
  ),
  PRIVATE_KEY_PATH: optionalString,
  WEBHOOK_SECRET: optionalString,
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  JWT_SECRET: optionalString.refine((s) => s === undefined || s.length >= 32, 'must be at least 32 characters'),
  ENCRYPTION_KEY: encryptionKey,
  WEBHOOK_ALLOW_PRIVATE: booleanFlag,
  WEBHOOK_RETRY_DELAYS_MS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+(,\d+)*$/, 'must be a comma-separated list of milliseconds, e.g. 0,100,200,300,400')
      .transform((s) => s.split(',').map(Number))
      .refine((d) => d.length === 5, 'must list exactly 5 delays, one per attempt')
      .optional(),
  ),
  WEBHOOK_CONCURRENCY: z.preprocess(blankToUndefined, wholeNumber(1, 64).default(8)),
  LLM_BASE_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  JOB_LEASE_MS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: 'must be a whole number of milliseconds from 1000 to 3600000' })
      .int('must be a whole number of milliseconds from 1000 to 3600000')
      .min(1000, 'must be a whole number of milliseconds from 1000 to 3600000')
      .max(3_600_000, 'must be a whole number of milliseconds from 1000 to 3600000')
      .default(60_000),
  ),
  // The HTTP server's limits on slow clients (decisions §22). Whole milliseconds.
  HTTP_HEADERS_TIMEOUT_MS: z.preprocess(blankToUndefined, wholeNumber(100, 600_000).default(10_000)),
  HTTP_REQUEST_TIMEOUT_MS: z.preprocess(blankToUndefined, wholeNumber(100, 3_600_000).default(30_000)),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.preprocess(blankToUndefined, wholeNumber(100, 3_600_000).default(72_000)),
  HTTP_IDLE_TIMEOUT_MS: z.preprocess(blankToUndefined, wholeNumber(100, 3_600_000).default(180_000)),
  SIGN_IN_RATE_LIMIT: z.preprocess(blankToUndefined, wholeNumber(1, 1_000_000).default(60)),
  TRUST_PROXY_HOPS: z.preprocess(blankToUndefined, wholeNumber(0, 10).default(0)),
});

/**
 * Variables that only make sense together. Checked on presence in the raw environment, not on
 * the parsed values, so they are reported together with any malformed value (zod skips an
 * object's refinements once a field has failed).
 */
function crossCheck(env: Record<string, string | undefined>): string[] {
  const has = (name: string) => blankToUndefined(env[name]) !== undefined;
  const problems: string[] = [];
  const require = (name: string, why: string) => {
    if (!has(name)) problems.push(`${name} is required ${why}`);
  };
  if (has('DATABASE_URL')) {
    // Several instances share one PostgreSQL: they must agree on these, so nothing is generated.
    require('JWT_SECRET', 'when DATABASE_URL is set');
    require('ENCRYPTION_KEY', 'when DATABASE_URL is set');
  }
  if (has('PRIVATE_KEY') && has('PRIVATE_KEY_PATH')) {
    problems.push('PRIVATE_KEY_PATH cannot be set together with PRIVATE_KEY');
  }
  const app = {
    APP_ID: has('APP_ID'),
    PRIVATE_KEY: has('PRIVATE_KEY') || has('PRIVATE_KEY_PATH'),
    WEBHOOK_SECRET: has('WEBHOOK_SECRET'),
  };
  if (Object.values(app).some(Boolean)) {
    for (const [name, present] of Object.entries(app)) {
      if (present) continue;
      const what = name === 'PRIVATE_KEY' ? 'PRIVATE_KEY (or PRIVATE_KEY_PATH)' : name;
      problems.push(`${what} is required when the GitHub App is configured (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET)`);
    }
  }
  if (has('GITHUB_CLIENT_ID') !== has('GITHUB_CLIENT_SECRET')) {
    const missing = has('GITHUB_CLIENT_ID') ? 'GITHUB_CLIENT_SECRET' : 'GITHUB_CLIENT_ID';
    problems.push(`${missing} is required with the other OAuth variable`);
  }
  if (has('LLM_BASE_URL')) require('LLM_MODEL', 'when LLM_BASE_URL is set');
  if (has('LLM_MODEL')) require('LLM_BASE_URL', 'when LLM_MODEL is set');
  return problems;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  /** PostgreSQL only: how long to wait for a connection, and for a query's answer, before a 503. */
  databaseTimeouts: { connectMs: number; queryMs: number };
  dataDir: string;
  github: {
    serverUrl: string;
    apiUrl: string;
    appId: number | undefined;
    privateKey: string | undefined;
    privateKeyPath: string | undefined;
    webhookSecret: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
  };
  /** Undefined only in embedded mode before the data directory supplies one. */
  jwtSecret: string | undefined;
  encryptionKey: Buffer | undefined;
  webhooks: { allowPrivate: boolean; retryDelaysMs: number[]; concurrency: number };
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  logLevel: string;
  /** How long a worker owns a job without a heartbeat; a dead worker's job is taken over after it. */
  jobLeaseMs: number;
  http: HttpLimits;
}

/** How long the server waits on a client, and how much sign-in one address may start. */
export interface HttpLimits {
  /** From a connection's first byte (or a keep-alive request's) to the end of its headers. */
  headersTimeoutMs: number;
  /** From the first byte to the end of the body; a slow upload is cut off with 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic either way this long is closed (must outlast the slowest handler). */
  idleTimeoutMs: number;
  /** Unauthenticated sign-in requests (`/api/auth/scm…`) per client address per 10 minutes. */
  signInRateLimit: number;
  /** Reverse proxies in front of the server whose X-Forwarded-For is believed (0: none). */
  trustProxyHops: number;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${String(i.path[0] ?? 'environment')} ${i.message}`)),
    ...crossCheck(env),
  ];
  if (parsed.success && parsed.data.HTTP_HEADERS_TIMEOUT_MS > parsed.data.HTTP_REQUEST_TIMEOUT_MS) {
    // Node refuses a server whose headers may take longer than the whole request.
    problems.push('HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS');
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    databaseUrl: e.DATABASE_URL,
    databaseTimeouts: { connectMs: e.DATABASE_CONNECT_TIMEOUT_MS, queryMs: e.DATABASE_QUERY_TIMEOUT_MS },
    dataDir: e.DATA_DIR,
    github: {
      serverUrl: e.GITHUB_SERVER_URL,
      apiUrl: e.GITHUB_API_URL,
      appId: e.APP_ID,
      privateKey: e.PRIVATE_KEY,
      privateKeyPath: e.PRIVATE_KEY_PATH,
      webhookSecret: e.WEBHOOK_SECRET,
      clientId: e.GITHUB_CLIENT_ID,
      clientSecret: e.GITHUB_CLIENT_SECRET,
    },
    jwtSecret: e.JWT_SECRET,
    encryptionKey: e.ENCRYPTION_KEY,
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      retryDelaysMs: e.WEBHOOK_RETRY_DELAYS_MS ?? DEFAULT_RETRY_DELAYS_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
    },
    llm:
      e.LLM_BASE_URL !== undefined && e.LLM_MODEL !== undefined
        ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL }
        : undefined,
    logLevel: e.LOG_LEVEL,
    jobLeaseMs: e.JOB_LEASE_MS,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      signInRateLimit: e.SIGN_IN_RATE_LIMIT,
      trustProxyHops: e.TRUST_PROXY_HOPS,
    },
  };
}
