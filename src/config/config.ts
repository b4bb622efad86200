import { z } from 'zod';

/**
 * The environment as the service understands it (decisions §9). `loadConfig` is pure: it reads
 * the object it is given, reports every problem at once, each naming its variable, and never
 * touches the disk; the embedded-mode secrets are filled in later by the process entry.
 */

const DEFAULT_RETRY_DELAYS_MS = [0, 60_000, 300_000, 1_800_000, 7_200_000];

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(blankToUndefined, z.string().optional());

const httpUrl = z
  .string()
  .url('must be an absolute URL')
  .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
  .transform((u) => u.replace(/\/+$/, ''));

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
      const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
      if (bytes.length !== 32) {
        ctx.addIssue({ code: 'custom', message: 'must be 32 bytes, as 64 hex characters or base64' });
        return z.NEVER;
      }
      return bytes;
    })
    .optional(),
);

const schema = z
  .object({
    PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    HOST: z.preprocess(blankToUndefined, z.string().min(1).default('0.0.0.0')),
    PUBLIC_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
    DATABASE_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
    GITHUB_SERVER_URL: z.preprocess(blankToUndefined, httpUrl.default('https://github.com')),
    GITHUB_API_URL: z.preprocess(blankToUndefined, httpUrl.default('https://api.github.com')),
    APP_ID: z.preprocess(blankToUndefined, z.coerce.number().int().positive().optional()),
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
    LLM_BASE_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
    LLM_API_KEY: optionalString,
    LLM_MODEL: optionalString,
    LOG_LEVEL: z.preprocess(
      blankToUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
  })
  .superRefine((env, ctx) => {
    const require = (name: keyof typeof env, why: string) => {
      if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: `is required ${why}` });
    };
    if (env.DATABASE_URL !== undefined) {
      // Several instances share one PostgreSQL: they must agree on these, so nothing is generated.
      require('JWT_SECRET', 'when DATABASE_URL is set');
      require('ENCRYPTION_KEY', 'when DATABASE_URL is set');
    }
    if (env.PRIVATE_KEY !== undefined && env.PRIVATE_KEY_PATH !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['PRIVATE_KEY_PATH'], message: 'cannot be set together with PRIVATE_KEY' });
    }
    const appParts = [env.APP_ID, env.PRIVATE_KEY ?? env.PRIVATE_KEY_PATH, env.WEBHOOK_SECRET];
    if (appParts.some((p) => p !== undefined) && appParts.some((p) => p === undefined)) {
      for (const name of ['APP_ID', 'PRIVATE_KEY', 'WEBHOOK_SECRET'] as const) {
        const value = name === 'PRIVATE_KEY' ? (env.PRIVATE_KEY ?? env.PRIVATE_KEY_PATH) : env[name];
        if (value === undefined) {
          ctx.addIssue({ code: 'custom', path: [name], message: 'is required when the GitHub App is configured' });
        }
      }
    }
    if ((env.GITHUB_CLIENT_ID === undefined) !== (env.GITHUB_CLIENT_SECRET === undefined)) {
      const missing = env.GITHUB_CLIENT_ID === undefined ? 'GITHUB_CLIENT_ID' : 'GITHUB_CLIENT_SECRET';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required with the other OAuth variable' });
    }
    if (env.LLM_BASE_URL !== undefined) require('LLM_MODEL', 'when LLM_BASE_URL is set');
    if (env.LLM_MODEL !== undefined) require('LLM_BASE_URL', 'when LLM_MODEL is set');
  });

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
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
  webhooks: { allowPrivate: boolean; retryDelaysMs: number[] };
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  logLevel: string;
}

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0] ?? 'environment')} ${i.message}`));
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    databaseUrl: e.DATABASE_URL,
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
    },
    llm:
      e.LLM_BASE_URL !== undefined && e.LLM_MODEL !== undefined
        ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL }
        : undefined,
    logLevel: e.LOG_LEVEL,
  };
}
