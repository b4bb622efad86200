import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type Guard, principalOf } from '../auth/guard.js';
import { API_SECURITY, dataEnvelope, errorResponses, listEnvelope } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { envelope, listBody } from '../common/envelope.js';
import { notFound } from '../common/errors.js';
import type { Database, OrganizationRow } from '../db/schema.js';
import { findUserOrganization, listUserOrganizations } from './organizations.js';

export interface OrganizationRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
}

export const organizationSchema = z.object({
  id: z.string(),
  login: z.string(),
  name: z.string().nullable(),
  plan: z.enum(['free', 'pro', 'enterprise']),
  created_at: z.string(),
});

const present = (row: OrganizationRow) => ({
  id: row.id,
  login: row.login,
  name: row.name,
  plan: row.plan,
  created_at: row.created_at.toISOString(),
});

/** Decisions §1: `GET /v1/organizations` and `/v1/organizations/:id`, for organizations the user belongs to. */
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
}
