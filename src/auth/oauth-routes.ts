import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { reducedErrorResponses } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { AppError, unauthorized, validationError } from '../common/errors.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Database } from '../db/schema.js';
import { exchangeOAuthCode } from '../github/oauth-client.js';
import { readSignedInUser } from '../github/read-signed-in-user.js';
import { countSignIn, signInRateError } from '../limits/ip-rate.js';
import { upsertGitHubUser } from './accounts.js';
import { createSession, SESSION_LIFETIME_MS, sessionCookie } from './dashboard-sessions.js';
import { cameFromDashboard, dashboardSignInCookie, signInFailureLocation } from './dashboard-sign-in-failure.js';
import { type JwtKeys, signUserJwt } from './jwt.js';
import { consumeOAuthState, issueOAuthState } from './oauth-states.js';

export interface OAuthRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  jwtKeys: JwtKeys;
  fetch: typeof fetch;
  publicUrl: string;
  github: { serverUrl: string; apiUrl: string; clientId: string | undefined; clientSecret: string | undefined };
  /** Sign-in requests one client address may make per 10 minutes (both routes share it). */
  signInRateLimit: number;
  /**
   * What the app's error handler would answer for `thrown` (and logs it as it would): a failed
   * sign-in the dashboard started is sent back to it with that error instead of as JSON.
   */
  describeFailure: (thrown: unknown, request: FastifyRequest) => AppError;
}

/**
 * OAuth scopes asked of GitHub: who the user is (read:user, user:email), which organizations they
 * belong to (read:org), and `repo`, because an OAuth app can only check that a user can read a
 * private repository with it (decisions §2 uses the token for exactly that check).
 */
export const OAUTH_SCOPES = 'read:user user:email read:org repo';

const userSchema = z.object({
  id: z.string(),
  scm_id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  avatar_url: z.string().nullable(),
});

export function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const redirectUri = `${deps.publicUrl}/api/auth/scm/callback`;
  /** Callbacks whose state row was read: whether the dashboard started them. */
  const dashboardFlows = new WeakMap<FastifyRequest, boolean>();

  // Both routes are open to anyone and the first writes a row per call: each client address gets
  // a budget, counted in onRequest so nothing else runs (not even query validation) past it.
  const limitByAddress = async (request: FastifyRequest) => {
    const now = deps.clock.now();
    const verdict = await countSignIn(deps.db, request.ip, deps.signInRateLimit, now);
    if (!verdict.allowed) throw signInRateError(verdict, now);
  };

  const oauthClient = () => {
    const { clientId, clientSecret } = deps.github;
    if (clientId === undefined || clientSecret === undefined) {
      throw new AppError(
        'service_unavailable',
        503,
        'GitHub sign-in is not configured on this server (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET)',
      );
    }
    return { clientId, clientSecret };
  };

  r.get(
    '/api/auth/scm',
    {
      onRequest: limitByAddress,
      schema: {
        tags: ['auth'],
        summary: 'Start GitHub sign-in',
        description:
          'Answers the GitHub authorization URL to send the user to (state and PKCE included). With `dashboard=true` the callback opens a dashboard session (cookie) and redirects to /app/ instead of answering a JWT.',
        querystring: z.object({ dashboard: z.enum(['true', 'false']).optional() }),
        response: { 200: z.object({ redirect_url: z.string() }), ...reducedErrorResponses(429, 503) },
      },
    },
    async (request, reply) => {
      const { clientId } = oauthClient();
      const forDashboard = request.query.dashboard === 'true';
      const { state, codeChallenge } = await issueOAuthState(deps.db, deps.box, deps.clock.now(), forDashboard);
      if (forDashboard) reply.header('set-cookie', dashboardSignInCookie(deps.publicUrl));
      const url = new URL(`${deps.github.serverUrl}/login/oauth/authorize`);
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: OAUTH_SCOPES,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return { redirect_url: url.toString() };
    },
  );

  r.get(
    '/api/auth/scm/callback',
    {
      onRequest: limitByAddress,
      schema: {
        tags: ['auth'],
        summary: 'Complete GitHub sign-in',
        description:
          "GitHub redirects here with `code` and `state`; answers a one-hour JWT and the user, or, when the dashboard started the sign-in, sets the session cookie and redirects (303) to /app/. A dashboard sign-in that fails redirects (303) to the dashboard's sign-in page with the error's code and message in the URL fragment (`/app/#sign-in-error=<code>&message=<message>`) instead of answering the error.",
        querystring: z.object({
          code: z.string().max(512).optional(),
          state: z.string().max(512).optional(),
          error: z.string().max(512).optional(),
          error_description: z.string().max(2048).optional(),
        }),
        response: {
          200: z.object({ token: z.string(), user: userSchema }),
          ...reducedErrorResponses(400, 401, 429, 502, 503),
        },
      },
      errorHandler: (thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        // The state's row says who started the flow; without one (missing, unknown, reused, or
        // failed before it was read), the dashboard's start cookie does.
        const toDashboard = dashboardFlows.get(request) ?? cameFromDashboard(request.headers.cookie);
        // Anyone else gets the app's JSON answer, exactly as before (decisions §2).
        if (!toDashboard) throw thrown;
        const failure = deps.describeFailure(thrown, request);
        reply.header('cache-control', 'no-store');
        reply.redirect(signInFailureLocation(deps.publicUrl, failure), 303);
      },
    },
    async (request, reply) => {
      const { clientId, clientSecret } = oauthClient();
      const { code, state, error } = request.query;
      if (state === undefined || state === '') throw unauthorized('Sign-in state is missing');
      const consumed = await consumeOAuthState(deps.db, deps.box, state, deps.clock.now());
      if (consumed.ok || consumed.reason === 'expired') dashboardFlows.set(request, consumed.forDashboard);
      if (!consumed.ok) {
        throw unauthorized(
          consumed.reason === 'expired'
            ? 'Sign-in state has expired; start again'
            : 'Sign-in state is unknown or already used',
        );
      }
      if (error !== undefined) {
        throw unauthorized(
          `GitHub sign-in was not granted (${error}${request.query.error_description ? `: ${request.query.error_description}` : ''})`,
        );
      }
      if (code === undefined || code === '') throw validationError('code', 'is required');

      const accessToken = await exchangeOAuthCode({
        serverUrl: deps.github.serverUrl,
        clientId,
        clientSecret,
        code,
        redirectUri,
        codeVerifier: consumed.codeVerifier,
        fetch: deps.fetch,
      });
      const signedIn = await readSignedInUser(deps.github.apiUrl, accessToken, deps.fetch);
      const now = deps.clock.now();
      const user = await upsertGitHubUser(deps.db, {
        account: signedIn.account,
        sealedToken: deps.box.seal(accessToken),
        memberships: signedIn.memberships,
        now,
      });
      if (consumed.forDashboard) {
        // Started by the dashboard: the browser comes back signed in, with no token to hold.
        const { secret } = await createSession(deps.db, user.id, now);
        reply.header('set-cookie', sessionCookie(secret, SESSION_LIFETIME_MS / 1000, deps.publicUrl));
        reply.header('cache-control', 'no-store');
        return reply.redirect(`${deps.publicUrl}/app/`, 303);
      }
      return {
        token: await signUserJwt(deps.jwtKeys, user.id, now),
        user: {
          id: user.id,
          scm_id: signedIn.account.id,
          username: user.username,
          email: user.email,
          avatar_url: user.avatar_url,
        },
      };
    },
  );
}
