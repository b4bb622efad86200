/**
 * Codes the client itself gives when there is no API answer to carry: the request timed out,
 * the caller aborted it, the network failed, or the answer was not a Redline body.
 */
export type ClientErrorCode = 'timeout' | 'aborted' | 'network_error' | 'unexpected_response';

export interface RedlineApiErrorInit {
  code: string;
  message: string;
  /** HTTP status; undefined when no answer came. */
  status?: number | undefined;
  type?: string | undefined;
  requestId?: string | undefined;
  details?: { field: string; issue: string } | undefined;
  /** How long the API asked to wait before trying again (Retry-After / X-RateLimit-Reset). */
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

/**
 * A failed call. `code` is the API's error code (spec 7.3) when the API answered, else one of
 * ClientErrorCode; `message` is the API's message as sent, so callers can show it unchanged.
 */
export class RedlineApiError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly requestId: string | undefined;
  readonly details: { field: string; issue: string } | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: RedlineApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'RedlineApiError';
    this.code = init.code;
    this.status = init.status;
    this.type = init.type;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** One line for logs and CI output: the message, then code, status and request id. */
  describe(): string {
    const facts = [this.code, this.status === undefined ? undefined : `HTTP ${this.status}`, this.requestId]
      .filter((f) => f !== undefined)
      .join(', ');
    const field = this.details ? ` [${this.details.field}: ${this.details.issue}]` : '';
    return `${this.message}${field} (${facts})`;
  }
}
