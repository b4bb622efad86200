import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError, notFound } from '../common/errors.js';

/** Where `npm run build` writes the dashboard (scripts/build-dashboard.mjs), from src/ or build/. */
export const DEFAULT_DASHBOARD_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../build/dashboard',
);

/**
 * The dashboard's pages may load only this server's own scripts and styles and talk only to this
 * server: no inline script, no remote anything, not framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function secured(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}

/**
 * Serves the built dashboard under /app: index.html never cached (it names the current assets),
 * the content-hashed assets cached for a year. Read into memory once: a few small files. When
 * the folder is missing (not built), /app says how to build it.
 */
export function registerDashboardRoutes(app: FastifyInstance, dir: string = DEFAULT_DASHBOARD_DIR): void {
  let index: string | undefined;
  const assets = new Map<string, { body: Buffer; type: string }>();
  try {
    index = readFileSync(path.join(dir, 'index.html'), 'utf8');
    for (const name of readdirSync(path.join(dir, 'assets'))) {
      const type = TYPES[path.extname(name)];
      if (type !== undefined) assets.set(name, { body: readFileSync(path.join(dir, 'assets', name)), type });
    }
  } catch {
    index = undefined;
  }

  const page = async (_request: unknown, reply: FastifyReply) => {
    if (index === undefined) {
      throw new AppError('service_unavailable', 503, 'The dashboard is not built: run `npm run build`');
    }
    return secured(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
  };
  // ignoreTrailingSlash makes /app and /app/ one route.
  app.get('/app', { schema: { hide: true } }, page);
  app.get<{ Params: { name: string } }>('/app/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (asset === undefined) throw notFound('Asset');
    return secured(reply)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(asset.type)
      .send(asset.body);
  });
  // The address people will type.
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/app/', 302));
}
