import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import { makeGuard } from '../auth/guard.js';
import { jwtKeys } from '../auth/jwt.js';
import { registerOAuthRoutes } from '../auth/oauth-routes.js';
import { registerRateLimitRoute } from '../auth/rate-limit-route.js';
import { registerSessionRoutes } from '../auth/session-routes.js';
import { registerTokenRoutes } from '../auth/token-routes.js';
import { type Clock, systemClock } from '../common/clock.js';
import { AppError, badRequest, validationError } from '../common/errors.js';
import { newId } from '../common/ids.js';
import { SecretBox } from '../common/secret-box.js';
import type { Config } from '../config/config.js';
import { readGitHubAppCredentials } from '../config/github-app-key.js';
import type { DatabaseHandle } from '../db/database.js';
import { type GitHubAppAuth, githubAppAuthOrNull } from '../github/app-auth.js';
import { registerOrganizationRoutes } from '../orgs/organization-routes.js';
import { registerTeamRoutes } from '../orgs/team-routes.js';
import { type GitHubReader, makeGitHubReader } from '../reviews/github-reader.js';
import { registerReviewRoutes } from '../reviews/review-routes.js';
import { ReviewService } from '../reviews/review-service.js';
import { registerUsageRoutes } from '../reviews/usage-routes.js';
import { registerWebhookRoutes } from '../webhooks/webhook-routes.js';
import { apiVersionHook, CURRENT_VERSION } from './api-version.js';
import { makeClientErrorHandler } from './client-error.js';
import { registerDashboardRoutes } from './dashboard-routes.js';
import { logFailure, makeErrorHandler, routeNotFound, toAppError } from './error-handler.js';
import { registerGitHubWebhookRoute } from './github-webhook-route.js';
import { registerHealthRoutes } from './health-routes.js';
import { registerMetrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { NUL_ISSUE, nulPathIn, rejectNulCharacters } from './reject-nul.js';
import { RequestLog } from './request-log.js';
import { responseSerializerCompiler } from './response-serializer.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const MAX_HEADER_BYTES = 16 * 1024;

export interface AppSecrets {
  jwtSecret: string;
  encryptionKey: Buffer;
}

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  secrets: AppSecrets;
  clock?: Clock;
  /** Outgoing HTTP (GitHub); tests hand in a fetch aimed at their fakes. */
  fetch?: typeof fetch;
  logger?: Logger;
  /**
   * The GitHub App's installation tokens, made once per process (serve shares one between the
   * API and the workers); when absent, made here from the configuration (null: no app).
   */
  githubApp?: GitHubAppAuth | null;
  /** GitHub as the API reads it; made here from the configuration when absent (serve shares one). */
  githubReader?: GitHubReader;
  /** Work was queued by a request (a webhook ping, a redelivery): serve wakes its idle workers. */
  onQueued?: () => void;
  /** The GitHub App (buildGitHubApp): its webhook route is mounted when present. */
  probot?: Probot | undefined;
  /** The built dashboard (index.html and assets/); default build/dashboard of this checkout. */
  dashboardDir?: string;
}

/** Builds the whole HTTP surface without listening, so tests drive it with `inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const { config } = deps;
  const limits = config.http;
  const handleError = makeErrorHandler(clock);
  const app = Fastify({
    // The router fails some URLs before any hook runs (bad percent-encoding, an over-long id);
    // they still get a request id, the version and the spec 7.1 error shape.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      reply.header('x-svc-version', CURRENT_VERSION);
      const answer =
        error.code === 'FST_ERR_BAD_URL'
          ? badRequest('The URL path is not valid percent-encoded UTF-8')
          : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? new AppError('resource_not_found', 404, 'Resource not found: no id is longer than 100 characters')
            : error;
      return handleError(answer, request, reply);
    },
    clientErrorHandler: makeClientErrorHandler(clock),
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients are cut off (see HttpLimits): headers and the whole request each have a
    // deadline (node answers 408 and closes), idle keep-alive and silent sockets are closed.
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks the two deadlines above on this period (30 s by default, which would let a
      // slowloris client hold a socket up to 30 s past them).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
      // Node's default, stated: larger headers are refused with 431 before any of our code runs.
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    // Path parameters are ids (at most 100 characters by their schemas); longer ones never match.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 100 },
    // The client address (sign-in rate limit) is the one the nearest trusted proxy saw.
    trustProxy: limits.trustProxyHops === 0 ? false : (_address: string, hop: number) => hop < limits.trustProxyHops,
    genReqId: () => newId('req'),
    requestIdHeader: false,
    return503OnClosing: true,
    // One line per request instead of fastify's two (request-log.ts).
    logController: new RequestLog(),
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
  }) as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorateRequest('principal', undefined);
  app.decorateRequest('readAlong', undefined);

  // Decisions §3: a body that is not JSON, or not a JSON object, is an invalid request. Only
  // application/json is parsed (fastify's text/plain parser would hand a bare string to routes
  // without a body schema); any other media type answers 400 through the error handler.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // An unknown route answers 404 whatever its body (decisions §3), so it is not looked at.
    if (text === '' || request.is404) return done(null, undefined);
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      if (error) return done(badRequest('Request body is not valid JSON'), undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(badRequest('Request body must be a JSON object'), undefined);
      }
      // A NUL can only come in as the \u0000 escape; the walk is skipped for every other body.
      const nulField = text.includes('\\u0000') ? nulPathIn(value) : undefined;
      if (nulField !== undefined) return done(validationError(nulField || 'body', NUL_ISSUE), undefined);
      done(null, value);
    });
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onRequest', apiVersionHook);
  app.addHook('preValidation', rejectNulCharacters);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request) => {
    throw routeNotFound(request);
  });

  await registerOpenApi(app, config.publicUrl);
  registerMetrics(app);
  registerHealthRoutes(app, () => deps.database.ping());
  registerDashboardRoutes(app, deps.dashboardDir);

  const db = deps.database.db;
  const box = new SecretBox(deps.secrets.encryptionKey);
  const keys = jwtKeys(deps.secrets.jwtSecret, config.publicUrl);
  // Decisions §6: every authenticated request is counted (in the statement that authenticates
  // it) and every authenticated answer carries the budget, errors included.
  const statementWaitMs = deps.database.connectWaitMs;
  const guard = makeGuard({ db, clock, jwtKeys: keys, rateLimit: true, statementWaitMs });

  registerOAuthRoutes(app, {
    db,
    clock,
    box,
    jwtKeys: keys,
    fetch: deps.fetch ?? globalThis.fetch,
    publicUrl: config.publicUrl,
    github: config.github,
    signInRateLimit: limits.signInRateLimit,
    describeFailure: (thrown, request) => {
      const error = toAppError(thrown);
      logFailure(thrown, error, request);
      return error;
    },
  });
  registerSessionRoutes(app, {
    db,
    clock,
    publicUrl: config.publicUrl,
    signInRateLimit: limits.signInRateLimit,
  });
  registerTokenRoutes(app, { db, clock, guard });
  registerRateLimitRoute(app, { db, clock, guard });
  registerOrganizationRoutes(app, { db, clock, guard });
  registerTeamRoutes(app, { db, clock, guard });

  const fetchImpl = deps.fetch ?? globalThis.fetch;
  const githubApp =
    deps.githubApp !== undefined
      ? deps.githubApp
      : githubAppAuthOrNull(readGitHubAppCredentials(config.github), {
          apiUrl: config.github.apiUrl,
          fetch: fetchImpl,
          clock,
        });
  const github =
    deps.githubReader ??
    makeGitHubReader({
      db,
      box,
      apiUrl: config.github.apiUrl,
      fetch: fetchImpl,
      app: githubApp ?? undefined,
    });
  const reviews = new ReviewService({
    db,
    clock,
    publicUrl: config.publicUrl,
    githubServerUrl: config.github.serverUrl,
    readPullRequest: github.readPullRequest,
  });
  registerReviewRoutes(app, { db, clock, guard, service: reviews });
  registerUsageRoutes(app, { db, clock, guard });
  if (deps.probot !== undefined) {
    registerGitHubWebhookRoute(app, { db, clock, probot: deps.probot, onQueued: deps.onQueued });
  }
  registerWebhookRoutes(app, {
    db,
    clock,
    guard,
    box,
    allowPrivate: config.webhooks.allowPrivate,
    ...(deps.onQueued ? { onQueued: deps.onQueued } : {}),
  });

  return app;
}
