import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type Guard, principalOf } from '../auth/guard.js';
import { API_SECURITY, dataEnvelope, errorResponses, listEnvelope } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { envelope, listBody } from '../common/envelope.js';
import type { Database, TeamRow } from '../db/schema.js';
import { createTeam, deleteTeam, getTeam, listTeams, renameTeam } from './teams.js';

export interface TeamRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
}

export const teamSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  created_at: z.string(),
});

const teamName = z.string().trim().min(1, 'must be 1 to 100 characters').max(100, 'must be 1 to 100 characters');
const idParams = z.object({ id: z.string().max(100) });

const present = (row: TeamRow) => ({
  id: row.id,
  organization_id: row.organization_id,
  name: row.name,
  created_at: row.created_at.toISOString(),
});

/** Decisions §1: teams of an organization; reading needs team:read, managing team:write and admin. */
export function registerTeamRoutes(app: FastifyInstance, deps: TeamRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = deps.guard({ scope: 'team:read' });
  const write = deps.guard({ scope: 'team:write' });
  const tags = ['teams'];
  const security = API_SECURITY;

  r.get(
    '/v1/teams',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary: 'List teams of your organizations',
        querystring: z.object({
          organization_id: z.string().max(100).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(25),
          after: z.string().max(100).optional(),
        }),
        response: { 200: listEnvelope(teamSchema), ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request) => {
      const { organization_id, limit, after } = request.query;
      const page = await listTeams(deps.db, principalOf(request).userId, {
        organizationId: organization_id,
        after,
        limit,
      });
      const last = page.teams.at(-1);
      return listBody(
        page.teams.map(present),
        { has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null },
        request.id,
        deps.clock.now(),
      );
    },
  );

  r.post(
    '/v1/teams',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Create a team (organization admins)',
        body: z.strictObject({ organization_id: z.string().max(100), name: teamName }),
        response: { 201: dataEnvelope(teamSchema), ...errorResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const team = await createTeam(deps.db, principalOf(request).userId, {
        organizationId: request.body.organization_id,
        name: request.body.name,
      });
      return reply.status(201).send(envelope(present(team), request.id, deps.clock.now()));
    },
  );

  r.get(
    '/v1/teams/:id',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary: 'Get a team',
        params: idParams,
        response: { 200: dataEnvelope(teamSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      envelope(
        present(await getTeam(deps.db, principalOf(request).userId, request.params.id)),
        request.id,
        deps.clock.now(),
      ),
  );

  r.patch(
    '/v1/teams/:id',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Rename a team (organization admins)',
        params: idParams,
        body: z.strictObject({ name: teamName }),
        response: { 200: dataEnvelope(teamSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const team = await renameTeam(deps.db, principalOf(request).userId, request.params.id, request.body.name);
      return envelope(present(team), request.id, deps.clock.now());
    },
  );

  r.delete(
    '/v1/teams/:id',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Delete a team (organization admins)',
        params: idParams,
        response: { 204: z.null().describe('No content'), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await deleteTeam(deps.db, principalOf(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
