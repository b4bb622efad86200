import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { reducedErrorResponses } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { forbidden, unauthorized } from '../common/errors.js';
import type { Database } from '../db/schema.js';
import { countSignIn, signInRateError } from '../limits/ip-rate.js';
import { findUserById } from './accounts.js';
import {
  CSRF_HEADER,
  clearedSessionCookie,
  consumeSignInLink,
  createSession,
  csrfTokenFor,
  csrfTokenMatches,
  deleteSession,
  findSession,
  readCookie,
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  sessionCookie,
} from './dashboard-sessions.js';

export interface SessionRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  /** Sign-in requests one client address may make per 10 minutes (shared with GitHub sign-in). */
  signInRateLimit: number;
}

export const sessionSchema = z.object({
  user: z.object({ id: z.string(), username: z.string(), plan: z.string() }),
  csrf_token: z.string().describe(`Send it in ${CSRF_HEADER} on every state-changing request made with the cookie.`),
  expires_at: z.string().describe('ISO 8601 UTC; the session ends then, or at sign-out.'),
});

type SessionAnswer = z.infer<typeof sessionSchema>;

/**
 * The dashboard's browser session (docs/dashboard.md): opened with a one-time sign-in code
 * (`redline dashboard-link`) or by GitHub sign-in started with `dashboard=true`, read back by the
 * page on load, and ended on the server by sign-out. The session itself is an HttpOnly cookie.
 */
export function registerSessionRoutes(app: FastifyInstance, deps: SessionRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const answer = async (secret: string, userId: string, expiresAt: Date): Promise<SessionAnswer> => {
    const user = await findUserById(deps.db, userId);
    if (user === undefined) throw unauthorized('Not signed in');
    return {
      user: { id: user.id, username: user.username, plan: user.plan },
      csrf_token: csrfTokenFor(secret),
      expires_at: expiresAt.toISOString(),
    };
  };

  r.post(
    '/api/auth/session',
    {
      onRequest: async (request: FastifyRequest) => {
        const now = deps.clock.now();
        const verdict = await countSignIn(deps.db, request.ip, deps.signInRateLimit, now);
        if (!verdict.allowed) throw signInRateError(verdict, now);
      },
      schema: {
        tags: ['auth'],
        summary: 'Open a dashboard session with a one-time sign-in code',
        description:
          'Takes the code of a link printed by `redline dashboard-link` (single use, ten minutes); sets the HttpOnly session cookie and answers the session.',
        body: z.object({ sign_in_code: z.string().min(1).max(200) }),
        response: { 201: sessionSchema, ...reducedErrorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const now = deps.clock.now();
      const consumed = await consumeSignInLink(deps.db, request.body.sign_in_code, now);
      if (!consumed.ok) {
        throw unauthorized(
          consumed.reason === 'expired'
            ? 'Sign-in link has expired; print a new one with `redline dashboard-link`'
            : 'Sign-in link is unknown or already used',
        );
      }
      const { session, secret } = await createSession(deps.db, consumed.userId, now);
      reply.header('set-cookie', sessionCookie(secret, SESSION_LIFETIME_MS / 1000, deps.publicUrl));
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(await answer(secret, session.userId, session.expiresAt));
    },
  );

  r.get(
    '/api/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'The current dashboard session',
        description: 'Answers the signed-in user and the CSRF token of the session cookie; 401 without one.',
        response: { 200: sessionSchema, ...reducedErrorResponses(401) },
      },
    },
    async (request, reply) => {
      const secret = readCookie(request.headers.cookie, SESSION_COOKIE);
      if (secret === undefined) throw unauthorized('Not signed in');
      const session = await findSession(deps.db, secret, deps.clock.now());
      if (session === undefined) throw unauthorized('Session has ended; sign in again');
      reply.header('cache-control', 'no-store');
      return answer(secret, session.userId, session.expiresAt);
    },
  );

  r.delete(
    '/api/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out of the dashboard',
        description: `Ends the session on the server and clears the cookie. Needs the session's ${CSRF_HEADER}.`,
        response: { 204: z.null().describe('No content'), ...reducedErrorResponses(401, 403) },
      },
    },
    async (request, reply: FastifyReply) => {
      const secret = readCookie(request.headers.cookie, SESSION_COOKIE);
      if (secret === undefined) throw unauthorized('Not signed in');
      const sent = request.headers[CSRF_HEADER];
      if (!csrfTokenMatches(secret, Array.isArray(sent) ? sent[0] : sent)) {
        throw forbidden(`Signing out must send the session's CSRF token in ${CSRF_HEADER}`);
      }
      const ended = await deleteSession(deps.db, secret);
      reply.header('set-cookie', clearedSessionCookie(deps.publicUrl));
      if (!ended) throw unauthorized('Session has ended; sign in again');
      return reply.status(204).send(null);
    },
  );
}
