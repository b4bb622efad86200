import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Clock } from '../common/clock.js';
import { meta } from '../common/envelope.js';
import { AppError, badRequest, notFound } from '../common/errors.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';

/** The sign-in and token endpoints answer the reduced error shape of spec 7.1. */
export function usesReducedErrors(url: string): boolean {
  return url === '/api/auth' || url.startsWith('/api/auth/') || url.startsWith('/api/auth?');
}

const HEADER_FIELDS: Record<string, string> = {
  'x-svc-version': 'X-Svc-Version',
  'idempotency-key': 'Idempotency-Key',
};

/** Seconds a client is told to wait when the database is away: a restart or failover takes about this. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The answer while the database is stopped, restarting or out of connections: retry, not a bug. */
export function databaseUnavailable(
  message = 'The database is not answering; retry after a few seconds',
  cause?: unknown,
): AppError {
  return new AppError('service_unavailable', 503, message, {
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** Converts whatever was thrown into an AppError; unknown errors become a bare 500. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return databaseUnavailable(undefined, error);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const context = (error as { validationContext?: string }).validationContext ?? 'body';
    // `events/2` names the field `events`: clients fix fields, not array slots.
    const segments = (first?.instancePath ?? '').split('/').filter(Boolean);
    const firstIndex = segments.findIndex((s) => /^\d+$/.test(s));
    let path = (firstIndex === -1 ? segments : segments.slice(0, firstIndex)).join('.');
    // A key the schema does not know (strict bodies) is named, so a misspelt field is not ignored.
    const unknownKeys = (first?.params as { keys?: unknown } | undefined)?.keys;
    if (first?.keyword === 'unrecognized_keys' && Array.isArray(unknownKeys) && unknownKeys.length > 0) {
      const key = String(unknownKeys[0]);
      path = path === '' ? key : `${path}.${key}`;
      return new AppError('validation_error', 400, `Unknown field ${path}`, {
        details: { field: path, issue: 'is not a field of this request' },
      });
    }
    if (path === '' && context === 'body') return badRequest('Request body must be a JSON object');
    const field = context === 'headers' ? (HEADER_FIELDS[path.toLowerCase()] ?? path) : path || context;
    const issue = first?.message ?? 'is invalid';
    return new AppError('validation_error', 400, `Invalid ${field}: ${issue}`, { details: { field, issue } });
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('invalid_request', 413, 'Request body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return badRequest('Request body must be JSON (Content-Type: application/json)');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('Content-Length does not match the body');
  }
  if (error instanceof SyntaxError || fastifyError.code?.startsWith('FST_ERR_CTP')) {
    return badRequest('Request body is not valid JSON');
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new AppError('invalid_request', status, fastifyError.message ?? 'Invalid request');
  }
  return new AppError('internal_error', 500, 'Internal server error', { cause: error });
}

export function errorBody(error: AppError, url: string, requestId: string, now: Date) {
  if (usesReducedErrors(url)) {
    return { error: { code: error.code, message: error.message, status: error.status } };
  }
  return {
    error: {
      type: error.type,
      message: error.message,
      code: error.code,
      status: error.status,
      ...(error.details ? { details: error.details } : {}),
    },
    meta: meta(requestId, now),
  };
}

/** The 404 of a URL that no route answers. */
export function routeNotFound(request: FastifyRequest): AppError {
  return notFound(`Route ${request.method} ${request.url.split('?')[0]}`);
}

/** A server-side failure goes to the log; a client's mistake does not. */
export function logFailure(thrown: unknown, error: AppError, request: FastifyRequest): void {
  if (error.code === 'service_unavailable') {
    // Expected while the database restarts: one line, not a stack per request.
    request.log.warn(
      { err: thrown instanceof Error ? thrown.message : String(thrown) },
      'request failed: database unavailable',
    );
  } else if (error.status >= 500) {
    // The client sees a generic message; the cause stays in our logs.
    request.log.error({ err: thrown }, 'request failed');
  }
}

export function makeErrorHandler(clock: Clock) {
  return (thrown: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // fastify reads the body before it knows nothing will answer: an unknown route stays a 404
    // even when its body is too large or not JSON.
    const bodyError = (thrown as Partial<FastifyError>).code?.startsWith('FST_ERR_CTP') === true;
    const error = request.is404 && bodyError ? routeNotFound(request) : toAppError(thrown);
    logFailure(thrown, error, request);
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return reply.status(error.status).send(errorBody(error, request.url, request.id, clock.now()));
  };
}
