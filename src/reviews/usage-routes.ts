import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { type Guard, principalOf } from '../auth/guard.js';
import { API_SECURITY, dataEnvelope, errorResponses } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { envelope } from '../common/envelope.js';
import type { Database } from '../db/schema.js';
import { reviewUsage } from './repository/review-usage.js';
import { usageQuery, usageSchema } from './usage-schemas.js';

export interface UsageRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
}

/** GET /v1/usage: reviews per day and the score distribution, for a chart (the dashboard's Usage page). */
export function registerUsageRoutes(app: FastifyInstance, deps: UsageRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/v1/usage',
    {
      onRequest: deps.guard({ scope: 'review:read' }),
      schema: {
        tags: ['reviews'],
        security: API_SECURITY,
        summary: 'Review usage over the last days',
        description:
          "The reviews the caller may read (as GET /v1/reviews: your own and your organizations', in the " +
          "credential's mode), created over the last `days` UTC days: created, completed and failed per day, " +
          "the completed reviews' scores in ten buckets, and the totals.",
        querystring: usageQuery,
        response: { 200: dataEnvelope(usageSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const now = deps.clock.now();
      const usage = await reviewUsage(deps.db, principalOf(request), request.query, now);
      return envelope(usage, request.id, now);
    },
  );
}
