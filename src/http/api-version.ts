import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../common/errors.js';

/** Decisions §3: supported `X-Svc-Version` dates, oldest first; the last is used when none is sent. */
export const SUPPORTED_VERSIONS = ['2026-11-01'] as const;
export const CURRENT_VERSION = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1] as string;

export function resolveApiVersion(header: string | string[] | undefined): string {
  if (header === undefined) return CURRENT_VERSION;
  const value = Array.isArray(header) ? header[0] : header;
  const field = 'X-Svc-Version';
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    throw badRequest('X-Svc-Version must be a date in YYYY-MM-DD form', { field, issue: 'malformed date' });
  }
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(value)) {
    throw badRequest(`X-Svc-Version ${value} is not supported; supported: ${SUPPORTED_VERSIONS.join(', ')}`, {
      field,
      issue: 'unsupported version',
    });
  }
  return value;
}

/** onRequest hook: echoes the version on every response, errors included. */
export async function apiVersionHook(request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-svc-version', CURRENT_VERSION);
  const version = resolveApiVersion(request.headers['x-svc-version']);
  reply.header('x-svc-version', version);
}
