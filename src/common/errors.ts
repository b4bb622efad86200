/**
 * The one error vocabulary of the service. Every failure that reaches a client is an AppError;
 * adapters convert third-party errors into one of these, and each surface has one handler that
 * renders them (HTTP: spec 7.1 bodies; CLI: a message and an exit code).
 */
export type ErrorCode =
  | 'unauthorized'
  | 'invalid_api_key'
  | 'insufficient_permissions'
  | 'rate_limit_exceeded'
  | 'invalid_request'
  | 'validation_error'
  | 'invalid_pr_url'
  | 'resource_not_found'
  | 'conflict'
  | 'upstream_error'
  | 'service_unavailable'
  | 'internal_error';

/** `error.type` of spec 7.1: the family a code belongs to. */
const TYPE_OF: Record<ErrorCode, string> = {
  unauthorized: 'authentication_error',
  invalid_api_key: 'authentication_error',
  insufficient_permissions: 'permission_error',
  rate_limit_exceeded: 'rate_limit_error',
  invalid_request: 'invalid_request_error',
  validation_error: 'validation_error',
  invalid_pr_url: 'validation_error',
  resource_not_found: 'not_found_error',
  conflict: 'conflict_error',
  upstream_error: 'api_error',
  service_unavailable: 'api_error',
  internal_error: 'api_error',
};

export interface ErrorDetails {
  field: string;
  issue: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    status: number,
    message: string,
    options: { details?: ErrorDetails; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get type(): string {
    return TYPE_OF[this.code];
  }
}

export const badRequest = (message: string, details?: ErrorDetails) =>
  new AppError('invalid_request', 400, message, details ? { details } : {});

export const validationError = (field: string, issue: string) =>
  new AppError('validation_error', 400, `Invalid ${field}: ${issue}`, { details: { field, issue } });

/** Valid input that cannot be acted on as asked (decisions §3: 422). */
export const unprocessable = (field: string, issue: string) =>
  new AppError('validation_error', 422, `Cannot use ${field}: ${issue}`, { details: { field, issue } });

export const notFound = (what: string, details?: ErrorDetails) =>
  new AppError('resource_not_found', 404, `${what} not found`, details ? { details } : {});

export const conflict = (message: string, status = 409) => new AppError('conflict', status, message);

export const unauthorized = (message: string) => new AppError('unauthorized', 401, message);

export const invalidApiKey = (message: string) => new AppError('invalid_api_key', 401, message);

export const forbidden = (message: string) => new AppError('insufficient_permissions', 403, message);

export const upstreamError = (message: string, cause?: unknown) =>
  new AppError('upstream_error', 502, message, { cause });
