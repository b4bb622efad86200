import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, forbidden } from '../shared/errors.js';
import { type AuthenticateDeps, authenticate, type Surface } from './authenticate.js';
import type { Principal } from './principal.js';
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
}

export type GuardHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
export type Guard = (options?: GuardOptions) => GuardHook;

/**
 * Hook factory: checks the credential and scope, then leaves the principal on the request. Use
 * it as `onRequest`, so a caller without a credential learns nothing about body validation.
 * `afterAuthenticate` runs for every authenticated request (the request-rate limit).
 */
export function makeGuard(deps: AuthenticateDeps, afterAuthenticate?: GuardHook): Guard {
  return (options = {}) =>
    async (request, reply) => {
      const principal = await authenticate(deps, request.headers, options.surface ?? 'api');
      request.principal = principal;
      await afterAuthenticate?.(request, reply);
      if (options.scope !== undefined && !principal.scopes.has(options.scope)) {
        throw forbidden(`This credential lacks the required scope: ${options.scope}`);
      }
    };
}

/** The principal a guard left on the request; a route without a guard calling this is a bug. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === undefined) throw new AppError('internal_error', 500, 'Route is missing its guard');
  return request.principal;
}
