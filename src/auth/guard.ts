import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest, forbidden, invalidApiKey, unauthorized, validationError } from '../common/errors.js';
import type { Mode } from '../db/schema.js';
import { rateLimitError, rateLimitHeaders } from '../limits/request-rate.js';
import { type AuthenticateDeps, authenticate, type CredentialLookups, type Surface } from './authenticate.js';
import { authenticateCounted, countingLookups } from './authenticate-counted.js';
import { CSRF_HEADER, csrfTokenMatches, findSession, readCookie, SESSION_COOKIE } from './dashboard-sessions.js';
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
  /**
   * Authenticate without counting the request against the user's hourly budget: only for
   * `GET /v1/rate-limit`, which reads that budget (as GitHub's rate_limit does, reading it spends
   * none of it, and it answers even when the budget is spent). The route puts the headers on.
   */
  uncounted?: boolean;
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
    const counting = deps.rateLimit && options.uncounted !== true ? countingWith(along) : undefined;
    return async (request, reply) => {
      const surface = options.surface ?? 'api';
      const sessionUserId = await sessionUserOf(deps, request, surface);
      let principal: Principal;
      if (counting !== undefined) {
        const alongKey = along === undefined ? undefined : readAlongKey(along, request);
        const counted = await authenticateCounted(deps, counting, request.headers, surface, alongKey, sessionUserId);
        principal = counted.principal;
        request.principal = principal;
        if (along !== undefined && alongKey !== undefined) {
          request.readAlong = { along, key: alongKey, row: counted.along };
        }
        reply.headers(rateLimitHeaders(counted.verdict));
        if (!counted.verdict.allowed) throw rateLimitError(counted.verdict, deps.clock.now());
      } else {
        principal = await authenticate(deps, request.headers, surface, sessionUserId);
        request.principal = principal;
      }
      const mode = modeAsked(request);
      if (mode !== undefined && mode !== principal.mode) {
        if (principal.via === 'api_token') {
          throw badRequest(
            `X-Svc-Mode is ${mode}, but this key acts in ${principal.mode} mode (a key's mode is fixed)`,
            {
              field: 'X-Svc-Mode',
              issue: `must be ${principal.mode} or absent for this key`,
            },
          );
        }
        // The signed-in user looking at their test-mode objects (the dashboard's switch). The
        // read along ran in live mode: the route reads for itself.
        principal = { ...principal, mode };
        request.principal = principal;
        request.readAlong = undefined;
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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The user of the dashboard session the request's cookie opens, when it sends no key or JWT
 * (a header credential always wins and the cookie is then not looked at). A cookie that opens
 * nothing is refused like a bad key; a state-changing request must also carry the session's
 * CSRF token, so another site's form cannot ride on the cookie.
 */
async function sessionUserOf(deps: GuardDeps, request: FastifyRequest, surface: Surface): Promise<string | undefined> {
  const headers = request.headers;
  if (headers.authorization !== undefined || headers['x-api-key'] !== undefined) return undefined;
  const secret = readCookie(headers.cookie, SESSION_COOKIE);
  if (secret === undefined) return undefined;
  const session = await findSession(deps.db, secret, deps.clock.now());
  const fail = surface === 'api' ? invalidApiKey : unauthorized;
  if (session === undefined) throw fail('Session has ended; sign in again');
  if (!SAFE_METHODS.has(request.method)) {
    const sent = headers[CSRF_HEADER];
    if (!csrfTokenMatches(secret, Array.isArray(sent) ? sent[0] : sent)) {
      throw forbidden(`A request made with the session cookie must send its CSRF token in ${CSRF_HEADER}`);
    }
  }
  return session.userId;
}

/**
 * The mode the request asks for in X-Svc-Mode (decisions §2 as amended for the dashboard): a JWT
 * or a session acts in live mode unless it asks for test; a key may only repeat its own mode.
 */
function modeAsked(request: FastifyRequest): Mode | undefined {
  const value = request.headers['x-svc-mode'];
  if (value === undefined) return undefined;
  if (value === 'live' || value === 'test') return value;
  throw validationError('X-Svc-Mode', 'must be live or test');
}
