import type { FastifyInstance } from 'fastify';
import { buildGitHubApp } from '../app/build-github-app.js';
import { countUsers } from '../auth/accounts.js';
import { systemClock } from '../common/clock.js';
import { SecretBox } from '../common/secret-box.js';
import { readGitHubAppCredentials } from '../config/github-app-key.js';
import { githubAppAuthOrNull } from '../github/app-auth.js';
import { buildApp } from '../http/build-app.js';
import type { BackgroundLoop } from '../jobs/background-loop.js';
import { makeGitHubReader } from '../reviews/github-reader.js';
import { buildWorkerRole } from './build-worker-role.js';
import { resolveSecrets } from './embedded-secrets.js';
import { openRuntime, type Runtime } from './runtime.js';
import { UsageError } from './usage-error.js';

export type Role = 'api' | 'worker' | 'all';

export function parseRole(value: string | undefined): Role {
  const role = value ?? 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all') {
    throw new UsageError(`--role must be api, worker or all (got "${role}")`);
  }
  return role;
}

/**
 * `redline serve`: the HTTP server and the workers in one process, or one role of the two.
 * Resolves once a SIGTERM or SIGINT has drained in-flight requests, stopped the background loops and
 * closed the database. Signals are caught from the first moment: one that arrives while the
 * server is still starting stops it as soon as it has started; a second one gives up at once.
 */
export async function serve(env: Record<string, string | undefined>, role: Role): Promise<number> {
  let pending: string | undefined;
  let onSignal: ((signal: string) => void) | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (onSignal !== undefined) return onSignal(signal);
    if (pending !== undefined) process.exit(1);
    pending = signal;
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  const detach = () => {
    process.off('SIGTERM', handler);
    process.off('SIGINT', handler);
  };

  let runtime: Runtime;
  try {
    runtime = await openRuntime(env, { logTo: 'stdout' });
  } catch (error) {
    detach();
    throw error;
  }
  const { config, database, logger } = runtime;
  let loops: BackgroundLoop[] = [];
  let app: FastifyInstance | undefined;
  try {
    const secrets = await resolveSecrets(config);
    // The app's private key is read once, here; API and workers share one token cache.
    const credentials = readGitHubAppCredentials(config.github);
    const githubApp = githubAppAuthOrNull(credentials, {
      apiUrl: config.github.apiUrl,
      fetch: globalThis.fetch,
      clock: systemClock,
    });
    const reader = makeGitHubReader({
      db: database.db,
      box: new SecretBox(secrets.encryptionKey),
      apiUrl: config.github.apiUrl,
      fetch: globalThis.fetch,
      app: githubApp ?? undefined,
    });
    const probot = await buildGitHubApp({
      config,
      db: database.db,
      clock: systemClock,
      logger,
      credentials,
      appOctokit: reader.appOctokit,
    });
    // One reader (its Octokit clients and token caches) for the API and the workers.
    loops =
      role === 'api'
        ? []
        : buildWorkerRole({ config, database, secrets, logger, githubApp, probot, githubReader: reader });
    const onQueued = () => {
      for (const loop of loops) loop.wake?.();
    };
    app =
      role === 'worker'
        ? undefined
        : await buildApp({ config, database, secrets, logger, githubApp, onQueued, probot, githubReader: reader });
    if (app !== undefined) {
      await app.listen({ port: config.port, host: config.host });
      logger.info({ url: config.publicUrl, database: database.kind, role }, 'Redline is serving');
    }
    if (role !== 'api') {
      for (const loop of loops) await loop.start();
    }
    if (database.kind === 'embedded' && (await countUsers(database.db)) === 0) {
      logger.info(
        'No users yet. To create a first API token without GitHub, stop the server and run: ' +
          'npx redline token create --user admin --scopes review:read,review:write,org:read,org:write,team:read,team:write',
      );
    }
  } catch (error) {
    // A failed start (port taken, bad secrets file) must not leave the data directory locked.
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    detach();
    throw error;
  }

  const stop = async (signal: string): Promise<number> => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    let code = 0;
    try {
      await app?.close();
      for (const loop of loops) await loop.stop();
      await database.close();
      logger.info('stopped');
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      code = 1;
    }
    detach();
    return code;
  };

  return new Promise<number>((resolve) => {
    let stopping = false;
    onSignal = (signal) => {
      if (stopping) process.exit(1);
      stopping = true;
      void stop(signal).then(resolve);
    };
    if (pending !== undefined) onSignal(pending);
  });
}
