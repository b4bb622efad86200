/** Spec 2.9: every success body is `{ data, meta }`; lists add `pagination`. */
export interface Meta {
  request_id: string;
  timestamp: string;
}

export interface Pagination {
  has_more: boolean;
  next_cursor: string | null;
  /** Set where a list can walk back: the first item's id, to pass as `before`. */
  prev_cursor?: string | null;
}

export function meta(requestId: string, now: Date): Meta {
  return { request_id: requestId, timestamp: now.toISOString() };
}

export function envelope<T>(data: T, requestId: string, now: Date): { data: T; meta: Meta } {
  return { data, meta: meta(requestId, now) };
}

export function listBody<T>(
  data: T[],
  pagination: Pagination,
  requestId: string,
  now: Date,
): { data: T[]; pagination: Pagination; meta: Meta } {
  return { data, pagination, meta: meta(requestId, now) };
}
