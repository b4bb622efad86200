import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from '../common/errors.js';

/**
 * PostgreSQL text cannot hold U+0000: a NUL reaching a query fails the statement, which would
 * answer 500 to a client's typo or probe. Every client string is checked here, before it can
 * reach a handler: query values (400 naming the field), path ids (404: no id contains one) and,
 * through `nulPathIn`, JSON bodies.
 */
export const NUL_ISSUE = 'must not contain the NUL character (U+0000)';

/** The dotted path of the first key or string holding a NUL (array slots name their array), if any. */
export function nulPathIn(value: unknown): string | undefined {
  // Iterative: a body may nest as deep as its parser allowed, deeper than the call stack.
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push([element, path]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path === '' ? key : `${path}.${key}`;
        if (key.includes('\u0000')) return path === '' ? 'body' : path;
        pending.push([child, childPath]);
      }
    }
  }
  return undefined;
}

/** preValidation hook: runs after the guards, so anonymous callers still get their 401 first. */
export async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  const field = nulPathIn(request.query);
  if (field !== undefined) throw validationError(field || 'query', NUL_ISSUE);
  if (nulPathIn(request.params) !== undefined) {
    throw new AppError('resource_not_found', 404, 'Resource not found: no id contains the NUL character');
  }
}
