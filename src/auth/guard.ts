import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, forbidden } from '../common/errors.js';
import { rateLimitError, rateLimitHeaders } from '../limits/request-rate.js';
import { type AuthenticateDeps, authenticate, type CredentialLookups, type Surface } from './authenticate.js';
import { authenticateCounted, countingLookups } from './authenticate-counted.js';
import type { Principal } from './principal.js';
import { readAlongKey, type SomeReadAlong } from './read-along.js';
import type { Scope } from './scopes.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | undefined;
  }
}

export interface GuardOptions {
  /** Decisions §2: a missing scope answers 403 naming it. */
  scope?: Scope;
  surface?: Surface;
  /**
   * A read to run in the authenticating statement (read-along.ts); its answer is left on the
   * request. Only where requests are counted: without, the route reads for itself.
   */
  readAlong?: SomeReadAlong;
}

export type GuardHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
export type Guard = (options?: GuardOptions) => GuardHook;

export interface GuardDeps extends AuthenticateDeps {
  /**
   * Decisions §6: count every authenticated request against the user's hourly budget in the
   * statement that authenticates it, shared by concurrent requests (countingLookups), put the
   * X-RateLimit-* headers on the answer and refuse past the budget with 429.
   */
  rateLimit?: boolean;
  /** How long a request waits for the shared statement to start (DatabaseHandle.connectWaitMs). */
  statementWaitMs?: number | undefined;
}

/**
 * Hook factory: checks the credential and scope, then leaves the principal on the request. Use
 * it as `onRequest`, so a caller without a credential learns nothing about body validation.
 */
export function makeGuard(deps: GuardDeps): Guard {
  // One set per guard and read along: concurrent requests share its batched statements.
  const lookups = new Map<SomeReadAlong | undefined, CredentialLookups>();
  const countingWith = (along: SomeReadAlong | undefined) => {
    let found = lookups.get(along);
    if (found === undefined) {
      found = countingLookups(deps.db, deps.statementWaitMs, along);
      lookups.set(along, found);
    }
    return found;
  };
  return (options = {}) => {
    const along = options.readAlong;
    const counting = deps.rateLimit ? countingWith(along) : undefined;
    return async (request, reply) => {
      const surface = options.surface ?? 'api';
      let principal: Principal;
      if (counting !== undefined) {
        const alongKey = along === undefined ? undefined : readAlongKey(along, request);
        const counted = await authenticateCounted(deps, counting, request.headers, surface, alongKey);
        principal = counted.principal;
        request.principal = principal;
        if (along !== undefined && alongKey !== undefined) {
          request.readAlong = { along, key: alongKey, row: counted.along };
        }
        reply.headers(rateLimitHeaders(counted.verdict));
        if (!counted.verdict.allowed) throw rateLimitError(counted.verdict, deps.clock.now());
      } else {
        principal = await authenticate(deps, request.headers, surface);
        request.principal = principal;
      }
      if (options.scope !== undefined && !principal.scopes.has(options.scope)) {
        throw forbidden(`This credential lacks the required scope: ${options.scope}`);
      }
    };
  };
}

/** The principal a guard left on the request; a route without a guard calling this is a bug. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === undefined) throw new AppError('internal_error', 500, 'Route is missing its guard');
  return request.principal;
}
