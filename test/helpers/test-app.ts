import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createLocalUser } from '../../src/auth/accounts.js';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { jwtKeys, signUserJwt } from '../../src/auth/jwt.js';
import { MEMBERSHIPS_QUEUE, makeMembershipRefresher } from '../../src/auth/membership-refresh.js';
import { SCOPES, type Scope } from '../../src/auth/scopes.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { readGitHubAppCredentials } from '../../src/config/github-app-key.js';
import type { Mode, UserRow } from '../../src/db/schema.js';
import { githubAppAuthOrNull } from '../../src/github/app-auth.js';
import type { GitHubRetryOptions } from '../../src/github/octokit.js';
import { type AppSecrets, buildApp } from '../../src/http/build-app.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { makeGitHubReader } from '../../src/reviews/github-reader.js';
import { makeReviewProcessor } from '../../src/reviews/review-processor.js';
import { REVIEW_QUEUE } from '../../src/reviews/review-service.js';
import { SecretBox } from '../../src/shared/secret-box.js';
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
  /** Runs every due background job (reviews, membership refreshes) to the end, as a worker process would. */
  runJobs(): Promise<number>;
  createToken(userId: string, options?: { scopes?: Scope[]; mode?: Mode; expiresInSeconds?: number }): Promise<string>;
  close(): Promise<void>;
}

/** Production's retry counts, with waits of a millisecond or so: request counts stay as in production. */
export const TEST_OCTOKIT_OPTIONS: GitHubRetryOptions = { retryAfterBaseMs: 1, rateLimitSecondMs: 1 };

/** Secrets are made at run time: nothing committed looks like a credential. */
export function testSecrets(): AppSecrets {
  return { jwtSecret: randomBytes(32).toString('base64url'), encryptionKey: randomBytes(32) };
}

/** The app over a database of this file's own, with a clock the test controls. */
export async function createTestApp(
  options: { env?: Record<string, string>; fetch?: typeof fetch; database?: TestDatabase } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({ PUBLIC_URL: 'http://redline.test', ...options.env });
  const secrets = testSecrets();
  const clock = testClock();
  // One token cache for the API and every runJobs(), as in a serving process.
  const githubApp = githubAppAuthOrNull(readGitHubAppCredentials(config.github), {
    apiUrl: config.github.apiUrl,
    fetch: options.fetch ?? globalThis.fetch,
    clock,
    octokitOptions: TEST_OCTOKIT_OPTIONS,
  });
  const app = await buildApp({
    config,
    database,
    secrets,
    clock,
    githubApp,
    ...(options.fetch ? { fetch: options.fetch } : {}),
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
    async runJobs() {
      const box = new SecretBox(secrets.encryptionKey);
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const github = makeGitHubReader({
        db: database.db,
        box,
        apiUrl: config.github.apiUrl,
        fetch: fetchImpl,
        app: githubApp ?? undefined,
        octokitOptions: TEST_OCTOKIT_OPTIONS,
      });
      const worker = new JobWorker({
        db: database.db,
        clock,
        workerId: 'test-worker',
        handlers: {
          [REVIEW_QUEUE]: makeReviewProcessor({
            db: database.db,
            clock,
            publicUrl: config.publicUrl,
            readChangedFiles: github.readChangedFiles,
            llm: config.llm ? { ...config.llm, timeoutMs: 2000, fetch: fetchImpl } : undefined,
          }),
          [MEMBERSHIPS_QUEUE]: makeMembershipRefresher({
            db: database.db,
            clock,
            box,
            apiUrl: config.github.apiUrl,
            fetch: fetchImpl,
          }),
        },
        backoff: () => 0,
      });
      return worker.drain();
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
