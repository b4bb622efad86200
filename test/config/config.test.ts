import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';

// Decisions §9: configuration is the environment, validated at start; a bad value stops the
// process with a message naming the variable. Key material is made here, at run time.
const jwtSecret = () => randomBytes(32).toString('base64url');
const keyBytes = () => randomBytes(32);

/** The ConfigError that loadConfig throws for this environment (fails the test if none). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`expected a ConfigError for ${Object.keys(env).join(', ')}`);
}

/** The variables the problems name, in order (each problem starts with one). */
const named = (problems: string[]) => problems.map((p) => p.split(' ')[0]);

describe('loadConfig defaults', () => {
  it('fills in every documented default from an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      databaseTimeouts: { connectMs: 5000, queryMs: 30000 },
      dataDir: './data',
      github: {
        serverUrl: 'https://github.com',
        apiUrl: 'https://api.github.com',
        appId: undefined,
        privateKey: undefined,
        privateKeyPath: undefined,
        webhookSecret: undefined,
        clientId: undefined,
        clientSecret: undefined,
      },
      jwtSecret: undefined,
      encryptionKey: undefined,
      webhooks: { allowPrivate: false, retryDelaysMs: [0, 60_000, 300_000, 1_800_000, 7_200_000], concurrency: 8 },
      llm: undefined,
      logLevel: 'info',
      jobLeaseMs: 60_000,
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 72_000,
        idleTimeoutMs: 180_000,
        signInRateLimit: 60,
        trustProxyHops: 0,
      },
    });
  });

  it('derives PUBLIC_URL from PORT and treats blank values as unset', () => {
    const config = loadConfig({ PORT: '8080', HOST: '', DATA_DIR: '  ', PUBLIC_URL: '' });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe('./data');
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('takes explicit values, trimming a trailing slash off URLs', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://redline.example.com/',
      GITHUB_SERVER_URL: 'https://ghe.example.com/',
      GITHUB_API_URL: 'https://ghe.example.com/api/v3',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '0,10,20,30,40',
      WEBHOOK_CONCURRENCY: '3',
      LOG_LEVEL: 'silent',
    });
    expect(config.publicUrl).toBe('https://redline.example.com');
    expect(config.github.serverUrl).toBe('https://ghe.example.com');
    expect(config.github.apiUrl).toBe('https://ghe.example.com/api/v3');
    expect(config.webhooks).toEqual({ allowPrivate: true, retryDelaysMs: [0, 10, 20, 30, 40], concurrency: 3 });
    expect(config.logLevel).toBe('silent');
  });
});

describe('loadConfig problems', () => {
  it('reports every bad variable at once, each by name', () => {
    const problems = problemsOf({
      PORT: 'abc',
      PUBLIC_URL: 'notaurl',
      WEBHOOK_ALLOW_PRIVATE: 'maybe',
      WEBHOOK_RETRY_DELAYS_MS: '1,2',
      WEBHOOK_CONCURRENCY: '0',
      ENCRYPTION_KEY: 'short',
      JWT_SECRET: 'short',
    });
    expect(named(problems).sort()).toEqual(
      [
        'ENCRYPTION_KEY',
        'JWT_SECRET',
        'PORT',
        'PUBLIC_URL',
        'WEBHOOK_ALLOW_PRIVATE',
        'WEBHOOK_RETRY_DELAYS_MS',
        'WEBHOOK_CONCURRENCY',
      ].sort(),
    );
    expect(problems).toContain('WEBHOOK_CONCURRENCY must be a whole number from 1 to 64');
    expect(problems).toContain('PORT must be a whole number from 0 to 65535');
    expect(problems).toContain('PUBLIC_URL must be an absolute http:// or https:// URL');
    expect(problems).toContain('WEBHOOK_ALLOW_PRIVATE must be true or false');
    expect(problems).toContain('WEBHOOK_RETRY_DELAYS_MS must list exactly 5 delays, one per attempt');
    expect(problems).toContain('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
    expect(problems).toContain('JWT_SECRET must be at least 32 characters');
  });

  it('takes the database time-outs and names each bad one', () => {
    expect(
      loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '750', DATABASE_QUERY_TIMEOUT_MS: '12000' }).databaseTimeouts,
    ).toEqual({ connectMs: 750, queryMs: 12000 });
    expect(problemsOf({ DATABASE_CONNECT_TIMEOUT_MS: '50', DATABASE_QUERY_TIMEOUT_MS: '2s' })).toEqual([
      'DATABASE_CONNECT_TIMEOUT_MS must be a whole number from 100 to 600000',
      'DATABASE_QUERY_TIMEOUT_MS must be a whole number from 100 to 3600000',
    ]);
  });

  it('takes the HTTP limits and names each bad one', () => {
    const config = loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '600',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000',
      HTTP_IDLE_TIMEOUT_MS: '1000',
      SIGN_IN_RATE_LIMIT: '5',
      TRUST_PROXY_HOPS: '1',
    });
    expect(config.http).toEqual({
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      keepAliveTimeoutMs: 5000,
      idleTimeoutMs: 1000,
      signInRateLimit: 5,
      trustProxyHops: 1,
    });
    const problems = problemsOf({
      HTTP_HEADERS_TIMEOUT_MS: '0',
      HTTP_REQUEST_TIMEOUT_MS: 'soon',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1.5',
      HTTP_IDLE_TIMEOUT_MS: '-1',
      SIGN_IN_RATE_LIMIT: '0',
      TRUST_PROXY_HOPS: '11',
    });
    expect(problems).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS must be a whole number from 100 to 600000',
      'HTTP_REQUEST_TIMEOUT_MS must be a whole number from 100 to 3600000',
      'HTTP_KEEP_ALIVE_TIMEOUT_MS must be a whole number from 100 to 3600000',
      'HTTP_IDLE_TIMEOUT_MS must be a whole number from 100 to 3600000',
      'SIGN_IN_RATE_LIMIT must be a whole number from 1 to 1000000',
      'TRUST_PROXY_HOPS must be a whole number from 0 to 10',
    ]);
  });

  it('refuses a headers time-out longer than the request time-out (node would not start)', () => {
    expect(problemsOf({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS',
    ]);
  });

  it('lists the problems in the error message, one a line', () => {
    try {
      loadConfig({ PORT: '70000' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe('Invalid configuration:\n  - PORT must be a whole number from 0 to 65535');
    }
  });

  it('requires JWT_SECRET and ENCRYPTION_KEY with DATABASE_URL, naming both', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://db.internal/redline' });
    expect(problems).toEqual([
      'JWT_SECRET is required when DATABASE_URL is set',
      'ENCRYPTION_KEY is required when DATABASE_URL is set',
    ]);
  });

  it('reports a missing pair together with a malformed value elsewhere', () => {
    // Cross-variable rules must not be dropped because another field failed to parse.
    const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'postgres://db.internal/redline' });
    expect(named(problems)).toEqual(['PORT', 'JWT_SECRET', 'ENCRYPTION_KEY']);
  });

  it('accepts DATABASE_URL with both secrets', () => {
    const key = keyBytes();
    const secret = jwtSecret();
    const config = loadConfig({
      DATABASE_URL: 'postgresql://db.internal/redline',
      JWT_SECRET: secret,
      ENCRYPTION_KEY: key.toString('hex'),
    });
    expect(config.databaseUrl).toBe('postgresql://db.internal/redline');
    expect(config.jwtSecret).toBe(secret);
    expect(config.encryptionKey?.equals(key)).toBe(true);
  });

  it('rejects a DATABASE_URL that is not postgres', () => {
    expect(
      problemsOf({ DATABASE_URL: 'mysql://db/x', JWT_SECRET: jwtSecret(), ENCRYPTION_KEY: keyBytes().toString('hex') }),
    ).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL']);
  });
});

describe('ENCRYPTION_KEY', () => {
  it('takes 64 hex characters', () => {
    const key = keyBytes();
    expect(loadConfig({ ENCRYPTION_KEY: key.toString('hex') }).encryptionKey?.equals(key)).toBe(true);
  });

  it('takes base64 and base64url of 32 bytes', () => {
    const key = keyBytes();
    expect(loadConfig({ ENCRYPTION_KEY: key.toString('base64') }).encryptionKey?.equals(key)).toBe(true);
    expect(loadConfig({ ENCRYPTION_KEY: key.toString('base64url') }).encryptionKey?.equals(key)).toBe(true);
  });

  it('refuses the wrong length and characters outside the base64 alphabet', () => {
    const message = 'ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64';
    expect(problemsOf({ ENCRYPTION_KEY: randomBytes(16).toString('hex') })).toEqual([message]);
    expect(problemsOf({ ENCRYPTION_KEY: randomBytes(48).toString('base64') })).toEqual([message]);
    // Node's base64 decoder skips unknown characters; "!" must not quietly shorten the key.
    expect(problemsOf({ ENCRYPTION_KEY: `!!!!${keyBytes().toString('base64')}` })).toEqual([message]);
  });
});

describe('groups of variables', () => {
  it('names the missing parts of a partial GitHub App', () => {
    const problems = problemsOf({ APP_ID: '12345' });
    expect(named(problems)).toEqual(['PRIVATE_KEY', 'WEBHOOK_SECRET']);
    expect(problems[0]).toContain('PRIVATE_KEY_PATH');
  });

  it('accepts a complete GitHub App with PRIVATE_KEY_PATH and refuses both key forms', () => {
    const config = loadConfig({ APP_ID: '12345', PRIVATE_KEY_PATH: '/run/key.pem', WEBHOOK_SECRET: jwtSecret() });
    expect(config.github.appId).toBe(12345);
    expect(config.github.privateKeyPath).toBe('/run/key.pem');
    const both = problemsOf({
      APP_ID: '1',
      PRIVATE_KEY: '-----BEGIN EXAMPLE-----',
      PRIVATE_KEY_PATH: '/k.pem',
      WEBHOOK_SECRET: jwtSecret(),
    });
    expect(both).toEqual(['PRIVATE_KEY_PATH cannot be set together with PRIVATE_KEY']);
  });

  it('refuses an APP_ID that is not a positive whole number and a PRIVATE_KEY that is not PEM', () => {
    const problems = problemsOf({ APP_ID: 'x1', PRIVATE_KEY: 'not-a-pem', WEBHOOK_SECRET: jwtSecret() });
    expect(named(problems)).toEqual(['APP_ID', 'PRIVATE_KEY']);
  });

  it('names the missing half of the OAuth pair', () => {
    expect(problemsOf({ GITHUB_CLIENT_ID: 'Iv1.abc' })).toEqual([
      'GITHUB_CLIENT_SECRET is required with the other OAuth variable',
    ]);
  });

  it('requires LLM_MODEL with LLM_BASE_URL, and the other way round', () => {
    expect(problemsOf({ LLM_BASE_URL: 'http://llm.local/v1' })).toEqual([
      'LLM_MODEL is required when LLM_BASE_URL is set',
    ]);
    expect(problemsOf({ LLM_MODEL: 'small' })).toEqual(['LLM_BASE_URL is required when LLM_MODEL is set']);
    const config = loadConfig({ LLM_BASE_URL: 'http://llm.local/v1/', LLM_MODEL: 'small' });
    expect(config.llm).toEqual({ baseUrl: 'http://llm.local/v1', apiKey: undefined, model: 'small' });
  });
});

describe('a bad configuration stops the process', () => {
  it('serve exits 1 naming the variable, before opening anything', async () => {
    const out: string[] = [];
    const err: string[] = [];
    // DATA_DIR points nowhere writable: reaching the database would fail differently.
    const code = await main(
      ['serve'],
      { PORT: 'abc', DATA_DIR: '/nonexistent/redline' },
      {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      },
    );
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual(['Invalid configuration:\n  - PORT must be a whole number from 0 to 65535']);
  });
});
