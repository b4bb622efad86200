import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type Guard, principalOf } from '../auth/guard.js';
import { API_SECURITY, dataEnvelope, errorResponses, listEnvelope } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { envelope, listBody } from '../common/envelope.js';
import { notFound } from '../common/errors.js';
import { type Database, PLANS } from '../db/schema.js';
import { countReviewQuota, type QuotaWindowUsage } from '../limits/review-quota.js';
import { findUserOrganization, listUserOrganizations, type MemberOrganization } from './organizations.js';

export interface OrganizationRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
}

export const organizationSchema = z.object({
  id: z.string(),
  login: z.string(),
  name: z.string().nullable(),
  plan: z.enum(PLANS),
  created_at: z.string(),
  role: z
    .enum(['admin', 'member'])
    .describe("Beyond the contract: the caller's role in the organization; only admins may manage its teams"),
});

const quotaWindowSchema = z.object({
  limit: z.number().int().nullable().describe('Reviews the plan allows in the window; null: unlimited'),
  used: z.number().int().describe('Live reviews created in the window'),
  remaining: z.number().int().nullable().describe('limit - used, at least 0; null: unlimited'),
});

export const organizationUsageSchema = z.object({
  organization_id: z.string(),
  plan: z.enum(PLANS),
  review_quota: z.object({
    hour: quotaWindowSchema.describe('The rolling hour that ends now'),
    day: quotaWindowSchema.describe('The rolling day that ends now'),
  }),
});

const presentWindow = (w: QuotaWindowUsage) => ({
  limit: w.limit,
  used: w.used,
  remaining: w.limit === null ? null : Math.max(0, w.limit - w.used),
});

const present = (row: MemberOrganization) => ({
  id: row.id,
  login: row.login,
  name: row.name,
  plan: row.plan,
  created_at: row.created_at.toISOString(),
  role: row.role,
});

/**
 * Decisions §1: `GET /v1/organizations` and `/v1/organizations/:id`, for organizations the user
 * belongs to, each with the caller's `role` in it; and `/v1/organizations/:id/usage`. The role and
 * the usage are beyond the contract (docs/api.md).
 */
export function registerOrganizationRoutes(app: FastifyInstance, deps: OrganizationRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const security = API_SECURITY;

  r.get(
    '/v1/organizations',
    {
      onRequest: deps.guard({ scope: 'org:read' }),
      schema: {
        tags: ['organizations'],
        summary: 'List your organizations',
        security,
        response: { 200: listEnvelope(organizationSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const rows = await listUserOrganizations(deps.db, principalOf(request).userId);
      return listBody(rows.map(present), { has_more: false, next_cursor: null }, request.id, deps.clock.now());
    },
  );

  r.get(
    '/v1/organizations/:id',
    {
      onRequest: deps.guard({ scope: 'org:read' }),
      schema: {
        tags: ['organizations'],
        summary: 'Get an organization',
        security,
        params: z.object({ id: z.string().max(100) }),
        response: { 200: dataEnvelope(organizationSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const row = await findUserOrganization(deps.db, principalOf(request).userId, request.params.id);
      if (row === undefined) throw notFound('Organization');
      return envelope(present(row), request.id, deps.clock.now());
    },
  );

  r.get(
    '/v1/organizations/:id/usage',
    {
      onRequest: deps.guard({ scope: 'org:read' }),
      schema: {
        tags: ['organizations'],
        summary: "An organization's plan and review quota used (live reviews, rolling hour and day)",
        security,
        params: z.object({ id: z.string().max(100) }),
        response: { 200: dataEnvelope(organizationUsageSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const row = await findUserOrganization(deps.db, principalOf(request).userId, request.params.id);
      if (row === undefined) throw notFound('Organization');
      const now = deps.clock.now();
      // Counted as the quota check counts (limits/review-quota.ts), the whole day even when unlimited.
      const usage = await countReviewQuota(deps.db, { organizationId: row.id, plan: row.plan, now });
      const data = {
        organization_id: row.id,
        plan: usage.plan,
        review_quota: { hour: presentWindow(usage.hour), day: presentWindow(usage.day) },
      };
      return envelope(data, request.id, now);
    },
  );
}
