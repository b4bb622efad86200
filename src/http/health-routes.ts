import type { FastifyInstance } from 'fastify';
import { databaseUnavailable } from './error-handler.js';

/** Liveness answers while the process runs; readiness only while the database answers. */
export function registerHealthRoutes(app: FastifyInstance, ping: () => Promise<boolean>) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    if (!(await ping())) throw databaseUnavailable('Database is not answering');
    return { status: 'ready' };
  });
}
