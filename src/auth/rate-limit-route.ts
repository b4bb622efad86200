import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { API_SECURITY, dataEnvelope, errorResponses } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { envelope } from '../common/envelope.js';
import { type Database, PLANS } from '../db/schema.js';
import { rateLimitHeaders, readRequestRate } from '../limits/request-rate.js';
import { type Guard, principalOf } from './guard.js';

export interface RateLimitRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
}

export const rateLimitSchema = z.object({
  plan: z.enum(PLANS).describe("The user's plan (spec 8.1)"),
  limit: z.number().int().describe('Requests allowed per UTC hour'),
  used: z.number().int().describe('Requests counted in the current hour (this one not among them)'),
  remaining: z.number().int().describe('limit - used, at least 0'),
  reset: z.number().int().describe('When the hour ends, UTC epoch seconds (as X-RateLimit-Reset)'),
});

/**
 * Beyond the contract (docs/api.md): `GET /v1/rate-limit`, the calling user's request rate, any
 * scope. Like GitHub's rate_limit endpoint it is not counted itself, so a client may ask even
 * when the budget is spent; its X-RateLimit-* headers say the same as its body.
 */
export function registerRateLimitRoute(app: FastifyInstance, deps: RateLimitRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/v1/rate-limit',
    {
      onRequest: deps.guard({ uncounted: true }),
      schema: {
        tags: ['rate limits'],
        summary: 'Your request rate this hour (not counted itself)',
        security: API_SECURITY,
        response: { 200: dataEnvelope(rateLimitSchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const usage = await readRequestRate(deps.db, { userId: principal.userId, plan: principal.plan, now });
      reply.headers(rateLimitHeaders(usage));
      return envelope(usage, request.id, now);
    },
  );
}
