import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildGitHubApp } from '../../src/app/build-github-app.js';
import { createLocalUser } from '../../src/auth/accounts.js';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { jwtKeys, signUserJwt } from '../../src/auth/jwt.js';
import { SCOPES, type Scope } from '../../src/auth/scopes.js';
import { buildJobHandlers } from '../../src/cli/build-job-handlers.js';
import { SecretBox } from '../../src/common/secret-box.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { readGitHubAppCredentials } from '../../src/config/github-app-key.js';
import type { Mode, UserRow } from '../../src/db/schema.js';
import { githubAppAuthOrNull } from '../../src/github/app-auth.js';
import type { GitHubRetryOptions } from '../../src/github/octokit.js';
import { type AppSecrets, buildApp } from '../../src/http/build-app.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import type { QueueName } from '../../src/jobs/queues.js';
import { makeGitHubReader } from '../../src/reviews/github-reader.js';
import { dispatchEvents } from '../../src/webhooks/dispatch-events.js';
import type { SendOptions } from '../../src/webhooks/send-webhook.js';
import { type TestClock, testClock } from './test-clock.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  secrets: AppSecrets;
  clock: TestClock;
  /** A local user and a JWT for them. */
  createUser(username?: string): Promise<{ user: UserRow; jwt: string }>;
  /**
   * Runs every due background job (reviews, membership refreshes, the outbox fan-out and webhook
   * deliveries) to the end, as a worker process would; returns how many jobs ran.
   */
  runJobs(options?: { only?: QueueName[] }): Promise<number>;
  createToken(userId: string, options?: { scopes?: Scope[]; mode?: Mode; expiresInSeconds?: number }): Promise<string>;
  close(): Promise<void>;
}

/** Production's retry counts, with waits of a millisecond or so: request counts stay as in production. */
export const TEST_OCTOKIT_OPTIONS: GitHubRetryOptions = {
  retryAfterBaseMs: 1,
  rateLimitSecondMs: 1,
  writeSpacingMs: 0,
};

/** Secrets are made at run time: nothing committed looks like a credential. */
export function testSecrets(): AppSecrets {
  return { jwtSecret: randomBytes(32).toString('base64url'), encryptionKey: randomBytes(32) };
}

/** The app over a database of this file's own, with a clock the test controls. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    fetch?: typeof fetch;
    database?: TestDatabase;
    /** How webhook attempts are sent (e.g. trust for a local HTTPS receiver); default: the config's guard. */
    webhookSend?: Partial<SendOptions>;
    /** The built dashboard to serve under /app (scripts/build-dashboard.mjs); default build/dashboard. */
    dashboardDir?: string;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  // Every injected request comes from one address: tests that sign in many users would meet the
  // per-address sign-in limit, so it is out of the way unless a test sets its own.
  const config = loadConfig({ PUBLIC_URL: 'http://redline.test', SIGN_IN_RATE_LIMIT: '1000000', ...options.env });
  const secrets = testSecrets();
  const clock = testClock();
  // One token cache for the API and every runJobs(), as in a serving process.
  const githubApp = githubAppAuthOrNull(readGitHubAppCredentials(config.github), {
    apiUrl: config.github.apiUrl,
    fetch: options.fetch ?? globalThis.fetch,
    clock,
    octokitOptions: TEST_OCTOKIT_OPTIONS,
  });
  const credentials = readGitHubAppCredentials(config.github);
  const reader = makeGitHubReader({
    db: database.db,
    box: new SecretBox(secrets.encryptionKey),
    apiUrl: config.github.apiUrl,
    fetch: options.fetch ?? globalThis.fetch,
    app: githubApp ?? undefined,
    octokitOptions: TEST_OCTOKIT_OPTIONS,
  });
  // The GitHub App, when the environment configures one (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET).
  const probot = await buildGitHubApp({
    config,
    db: database.db,
    clock,
    logger: pino({ level: 'silent' }),
    credentials,
    appOctokit: reader.appOctokit,
  });
  const app = await buildApp({
    config,
    database,
    secrets,
    clock,
    githubApp,
    probot,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
  });
  await app.ready();
  const keys = jwtKeys(secrets.jwtSecret, config.publicUrl);
  let counter = 0;
  return {
    app,
    database,
    config,
    secrets,
    clock,
    async createUser(username) {
      counter += 1;
      const user = await createLocalUser(database.db, username ?? `user-${counter}-${randomBytes(3).toString('hex')}`);
      return { user, jwt: await signUserJwt(keys, user.id, clock.now()) };
    },
    async runJobs(run = {}) {
      const handlers = buildJobHandlers({
        config,
        db: database.db,
        clock,
        box: new SecretBox(secrets.encryptionKey),
        fetch: options.fetch ?? globalThis.fetch,
        githubReader: reader,
        probot,
        llmTimeoutMs: 2000,
        webhookSend: options.webhookSend,
      });
      // `only`: run just these queues (a test that needs one step done before the next).
      const only = run.only;
      const runner = new JobRunner({
        db: database.db,
        clock,
        workerId: 'test-worker',
        handlers: only
          ? Object.fromEntries(Object.entries(handlers).filter(([q]) => (only as string[]).includes(q)))
          : handlers,
        backoff: () => 0,
      });
      let ran = 0;
      for (;;) {
        if (only) return ran + (await runner.drain());
        const fanout = await dispatchEvents(database.db, clock.now(), {
          firstDelayMs: config.webhooks.retryDelaysMs[0] ?? 0,
        });
        const jobs = await runner.drain();
        ran += jobs;
        if (fanout.events === 0 && jobs === 0) return ran;
      }
    },
    async createToken(userId, tokenOptions = {}) {
      const { token } = await createApiToken(database.db, {
        userId,
        name: 'test',
        scopes: tokenOptions.scopes ?? [...SCOPES],
        mode: tokenOptions.mode ?? 'live',
        expiresInSeconds: tokenOptions.expiresInSeconds ?? 3600,
        now: clock.now(),
      });
      return token;
    },
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}
