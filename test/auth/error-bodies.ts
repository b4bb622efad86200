import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Clock } from '../../src/common/clock.js';

/**
 * Exact error bodies of spec 7.1, shared by the credential tests. The expected `type` of each code
 * is written out here (not imported from src) so a change in the wire vocabulary fails a test.
 */
const TYPE_OF_CODE: Record<string, string> = {
  unauthorized: 'authentication_error',
  invalid_api_key: 'authentication_error',
  insufficient_permissions: 'permission_error',
  invalid_request: 'invalid_request_error',
  validation_error: 'validation_error',
  resource_not_found: 'not_found_error',
  internal_error: 'api_error',
};

export interface ExpectedError {
  status: number;
  code: string;
  message: string;
  details?: { field: string; issue: string };
}

/** The full /v1 shape, with `meta.request_id` equal to the X-Request-Id header and the clock's time. */
export function expectApiError(res: LightMyRequestResponse, clock: Clock, expected: ExpectedError): void {
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(/^req_[0-9A-Za-z]+$/);
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status: expected.status,
    body: {
      error: {
        type: TYPE_OF_CODE[expected.code],
        message: expected.message,
        code: expected.code,
        status: expected.status,
        ...(expected.details ? { details: expected.details } : {}),
      },
      meta: { request_id: requestId, timestamp: clock.now().toISOString() },
    },
  });
}

/** The reduced shape of the sign-in and token endpoints: `{ error: { code, message, status } }` only. */
export function expectReducedError(res: LightMyRequestResponse, expected: Omit<ExpectedError, 'details'>): void {
  expect(res.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]+$/);
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status: expected.status,
    body: { error: { code: expected.code, message: expected.message, status: expected.status } },
  });
}

/** Headers carrying a credential the usual way. */
export const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
