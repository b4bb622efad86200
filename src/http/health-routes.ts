import type { FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors.js';

/** Liveness answers while the process runs; readiness only while the database answers. */
export function registerHealthRoutes(app: FastifyInstance, ping: () => Promise<boolean>) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    if (!(await ping())) throw new AppError('service_unavailable', 503, 'Database is not answering');
    return { status: 'ready' };
  });
}
