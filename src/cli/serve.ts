import { countUsers } from '../auth/accounts.js';
import { buildApp } from '../http/build-app.js';
import { resolveSecrets } from './embedded-secrets.js';
import { openRuntime } from './runtime.js';
import { UsageError } from './usage-error.js';

export type Role = 'api' | 'worker' | 'all';

/** A background loop (review processing, webhook delivery) that serve starts and stops. */
export interface Worker {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function parseRole(value: string | undefined): Role {
  const role = value ?? 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all') {
    throw new UsageError(`--role must be api, worker or all (got "${role}")`);
  }
  return role;
}

/**
 * `redline serve`: the HTTP server and the workers in one process, or one role of the two.
 * Resolves once a SIGTERM or SIGINT has drained in-flight requests, stopped the workers and
 * closed the database.
 */
export async function serve(env: Record<string, string | undefined>, role: Role): Promise<number> {
  const { config, database, logger } = await openRuntime(env);
  const secrets = await resolveSecrets(config);
  const workers: Worker[] = [];
  const app = role === 'worker' ? undefined : await buildApp({ config, database, secrets, logger });

  if (app !== undefined) {
    await app.listen({ port: config.port, host: config.host });
    logger.info({ url: config.publicUrl, database: database.kind, role }, 'Redline is serving');
  }
  if (role !== 'api') {
    for (const worker of workers) await worker.start();
  }
  if (database.kind === 'embedded' && (await countUsers(database.db)) === 0) {
    logger.info(
      'No users yet. To create a first API token without GitHub, stop the server and run: ' +
        'npx redline token create --user admin --scopes review:read,review:write,org:read,org:write,team:read,team:write',
    );
  }

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down: finishing in-flight requests');
      let code = 0;
      try {
        await app?.close();
        for (const worker of workers) await worker.stop();
        await database.close();
        logger.info('stopped');
      } catch (error) {
        logger.error({ err: error }, 'shutdown failed');
        code = 1;
      }
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      resolve(code);
    };
    const onTerm = () => void stop('SIGTERM');
    const onInt = () => void stop('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  });
}
