import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type Guard, principalOf } from '../auth/guard.js';
import type { Principal } from '../auth/principal.js';
import { API_SECURITY, dataEnvelope, errorResponses, listEnvelope } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { envelope, listBody } from '../common/envelope.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Database } from '../db/schema.js';
import { listDeliveries, redeliver, sendPing } from './webhook-deliveries.js';
import {
  createWebhookBody,
  deliverySchema,
  presentDelivery,
  presentWebhook,
  updateWebhookBody,
  webhookSchema,
} from './webhook-schemas.js';
import { parseWebhookUrl } from './webhook-url.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
  type WebhookOwner,
} from './webhooks.js';

export interface WebhookRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
  box: SecretBox;
  allowPrivate: boolean;
  /** Called after a delivery was queued (ping, redeliver): a worker in this process starts at once. */
  onQueued?: () => void;
}

const idParams = z.object({ id: z.string().max(100) });
const deliveryParams = z.object({ id: z.string().max(100), delivery_id: z.string().max(100) });
const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  after: z.string().max(100).optional(),
});
const tags = ['webhooks'];
const security = API_SECURITY;

const ownerOf = (p: Principal): WebhookOwner => ({ userId: p.userId, mode: p.mode });

/** Spec 4.3 and decisions §5: subscriptions, their deliveries log, redelivery and the test ping. */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = deps.guard({ scope: 'org:read' });
  const write = deps.guard({ scope: 'org:write' });
  const now = () => deps.clock.now();

  r.post(
    '/v1/webhooks',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Subscribe to events',
        description:
          'A webhook made with a test key is a test subscription: it receives test-mode events only; live ones only live events.',
        body: createWebhookBody,
        response: { 201: dataEnvelope(webhookSchema), ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const row = await createWebhook(
        deps.db,
        deps.box,
        ownerOf(principalOf(request)),
        { url: parseWebhookUrl(body.url, deps.allowPrivate), events: body.events, secret: body.secret },
        now(),
      );
      return reply.status(201).send(envelope(presentWebhook(row), request.id, now()));
    },
  );

  r.get(
    '/v1/webhooks',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary: 'List your webhooks (newest first)',
        querystring: pageQuery,
        response: { 200: listEnvelope(webhookSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const page = await listWebhooks(deps.db, ownerOf(principalOf(request)), request.query);
      const last = page.webhooks.at(-1);
      return listBody(
        page.webhooks.map(presentWebhook),
        { has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null },
        request.id,
        now(),
      );
    },
  );

  r.get(
    '/v1/webhooks/:id',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary: 'Get a webhook',
        params: idParams,
        response: { 200: dataEnvelope(webhookSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const row = await getWebhook(deps.db, ownerOf(principalOf(request)), request.params.id);
      return envelope(presentWebhook(row), request.id, now());
    },
  );

  r.patch(
    '/v1/webhooks/:id',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Change a webhook; enabled: true re-enables a disabled one',
        params: idParams,
        body: updateWebhookBody,
        response: { 200: dataEnvelope(webhookSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { body } = request;
      const row = await updateWebhook(
        deps.db,
        deps.box,
        ownerOf(principalOf(request)),
        request.params.id,
        {
          url: body.url === undefined ? undefined : parseWebhookUrl(body.url, deps.allowPrivate),
          events: body.events,
          secret: body.secret,
          enabled: body.enabled,
        },
        now(),
      );
      return envelope(presentWebhook(row), request.id, now());
    },
  );

  r.delete(
    '/v1/webhooks/:id',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Delete a webhook and its deliveries log',
        params: idParams,
        response: { 204: z.null().describe('No content'), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await deleteWebhook(deps.db, ownerOf(principalOf(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/v1/webhooks/:id/deliveries',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary: "A webhook's deliveries (newest first) with every attempt",
        params: idParams,
        querystring: pageQuery,
        response: { 200: listEnvelope(deliverySchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const webhook = await getWebhook(deps.db, ownerOf(principalOf(request)), request.params.id);
      const page = await listDeliveries(deps.db, webhook, request.query);
      const last = page.deliveries.at(-1);
      return listBody(
        page.deliveries.map(presentDelivery),
        { has_more: page.hasMore, next_cursor: page.hasMore && last ? last.delivery.id : null },
        request.id,
        now(),
      );
    },
  );

  r.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Send a finished delivery again, as a new delivery of the same event',
        params: deliveryParams,
        response: { 202: dataEnvelope(deliverySchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const webhook = await getWebhook(deps.db, ownerOf(principalOf(request)), request.params.id);
      const delivery = await redeliver(deps.db, webhook, request.params.delivery_id, now());
      deps.onQueued?.();
      return reply.status(202).send(envelope(presentDelivery(delivery), request.id, now()));
    },
  );

  r.post(
    '/v1/webhooks/:id/test',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Send a ping test event to this webhook',
        description: 'One attempt, even to a disabled webhook; it never counts toward disabling.',
        params: idParams,
        response: { 202: dataEnvelope(deliverySchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const webhook = await getWebhook(deps.db, ownerOf(principalOf(request)), request.params.id);
      const delivery = await sendPing(deps.db, webhook, now());
      deps.onQueued?.();
      return reply.status(202).send(envelope(presentDelivery(delivery), request.id, now()));
    },
  );
}
