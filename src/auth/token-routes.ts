import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { JWT_SECURITY, reducedErrorResponses } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { notFound } from '../common/errors.js';
import type { ApiTokenRow, Database } from '../db/schema.js';
import { createApiToken, DEFAULT_TOKEN_LIFETIME_SECONDS, listApiTokens, revokeApiToken } from './api-tokens.js';
import { type Guard, principalOf } from './guard.js';
import { SCOPES } from './scopes.js';

export interface TokenRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
}

const createBody = z.strictObject({
  name: z.string().trim().min(1, 'must be 1 to 100 characters').max(100, 'must be 1 to 100 characters'),
  scopes: z
    .array(z.enum(SCOPES, { message: `must each be one of ${SCOPES.join(', ')}` }))
    .min(1, 'must name at least one scope'),
  expires_in: z
    .number({ message: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(60, 'must be at least 60 seconds')
    .max(31_536_000, 'must be at most 31536000 seconds (365 days)')
    .optional()
    .describe('Lifetime in seconds; default 7776000 (90 days).'),
  mode: z.enum(['live', 'test']).optional().describe('live (default) gives svc_live_ keys, test gives svc_test_ keys.'),
});

const tokenRecord = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  mode: z.enum(['live', 'test']),
  created_at: z.string(),
  expires_at: z.string(),
});

const listedToken = tokenRecord.extend({ last_used: z.string().nullable() });

const record = (row: ApiTokenRow) => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  mode: row.mode,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
});

/** Spec 4.1 token endpoints. Decisions §2: all three need the sign-in JWT, never an API token. */
export function registerTokenRoutes(app: FastifyInstance, deps: TokenRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest, not preHandler: the credential is checked before the body is parsed or validated,
  // so a caller without a JWT learns nothing about what a valid body looks like.
  const jwtOnly = deps.guard({ surface: 'token_management' });
  const security = JWT_SECURITY;

  r.post(
    '/api/auth/tokens',
    {
      onRequest: jwtOnly,
      schema: {
        tags: ['auth'],
        summary: 'Create an API token',
        description: 'The whole token is in this answer only; it is stored as a hash.',
        security,
        body: createBody,
        response: { 201: tokenRecord.extend({ token: z.string() }), ...reducedErrorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { row, token } = await createApiToken(deps.db, {
        userId: principal.userId,
        name: request.body.name,
        scopes: request.body.scopes,
        mode: request.body.mode ?? 'live',
        expiresInSeconds: request.body.expires_in ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
        now: deps.clock.now(),
      });
      return reply.status(201).send({ token, ...record(row) });
    },
  );

  r.get(
    '/api/auth/tokens',
    {
      onRequest: jwtOnly,
      schema: {
        tags: ['auth'],
        summary: 'List your API tokens',
        security,
        response: { 200: z.object({ tokens: z.array(listedToken) }), ...reducedErrorResponses(401) },
      },
    },
    async (request) => {
      const rows = await listApiTokens(deps.db, principalOf(request).userId);
      return { tokens: rows.map((row) => ({ ...record(row), last_used: row.last_used_at?.toISOString() ?? null })) };
    },
  );

  r.delete(
    '/api/auth/tokens/:token_id',
    {
      onRequest: jwtOnly,
      schema: {
        tags: ['auth'],
        summary: 'Revoke an API token',
        security,
        params: z.object({ token_id: z.string().max(100) }),
        response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...reducedErrorResponses(401, 404) },
      },
    },
    async (request) => {
      const { token_id } = request.params;
      const revoked = await revokeApiToken(deps.db, principalOf(request).userId, token_id, deps.clock.now());
      if (!revoked) throw notFound('Token');
      return { success: true, message: `Token ${token_id} revoked` };
    },
  );
}
