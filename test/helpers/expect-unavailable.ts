import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** The answer to a request the database could not serve (decisions §23: database away = 503), exactly. */
export function expectDatabaseUnavailable(res: LightMyRequestResponse, now: Date): void {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toEqual({
    error: {
      type: 'api_error',
      code: 'service_unavailable',
      status: 503,
      message: 'The database is not answering; retry after a few seconds',
    },
    meta: { request_id: res.headers['x-request-id'], timestamp: now.toISOString() },
  });
}
