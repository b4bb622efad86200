import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type Guard, principalOf } from '../auth/guard.js';
import { readAlongFor } from '../auth/read-along.js';
import { API_SECURITY, dataEnvelope, errorResponses, listEnvelope } from '../common/api-schemas.js';
import type { Clock } from '../common/clock.js';
import { envelope, listBody } from '../common/envelope.js';
import { AppError, conflict } from '../common/errors.js';
import { SEVERITIES } from '../common/severity.js';
import type { Database } from '../db/schema.js';
import { FINDING_TYPES } from '../engine/finding-types.js';
import {
  abandonIdempotentRequestWhenPossible,
  beginIdempotentRequest,
  finishIdempotentRequest,
  IDEMPOTENCY_LOCK_MS,
  isStoredStatus,
  parseIdempotencyKey,
  requestHash,
} from '../limits/idempotency.js';
import { listReviews } from './repository/list-reviews.js';
import { listReviewComments, reviewCommentKinds } from './repository/review-comments.js';
import { REVIEW_READ_ALONG } from './repository/review-read-along.js';
import { presentComment, presentReview } from './review-presenter.js';
import { findReviewForRead } from './review-read.js';
import {
  commentSchema,
  createdReviewSchema,
  createReviewBody,
  listReviewsQuery,
  reviewSchema,
  reviewStatusSchema,
  statisticsSchema,
} from './review-schemas.js';
import type { ReviewService } from './review-service.js';

export interface ReviewRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  guard: Guard;
  service: ReviewService;
}

const idParams = z.object({ id: z.string().max(100) });
const tags = ['reviews'];
const security = API_SECURITY;

/** Spec 4.2 and decisions §4: the review resource. */
export function registerReviewRoutes(app: FastifyInstance, deps: ReviewRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = deps.guard({ scope: 'review:read' });
  // The routes of one review take it in the statement that authenticates the request.
  const readOne = deps.guard({ scope: 'review:read', readAlong: REVIEW_READ_ALONG });
  const write = deps.guard({ scope: 'review:write' });
  const readReview = (request: FastifyRequest & { params: { id: string } }) =>
    findReviewForRead(
      deps.db,
      principalOf(request),
      request.params.id,
      readAlongFor(request, REVIEW_READ_ALONG, request.params.id),
    );

  r.post(
    '/v1/reviews',
    {
      onRequest: write,
      schema: {
        tags,
        security,
        summary: 'Create a review',
        description:
          'Starts reviewing a pull request (or leaves it pending with auto_review false). Accepts an ' +
          'Idempotency-Key header: a repeat within 24 hours answers the stored response with Idempotent-Replayed: true.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: createReviewBody,
        response: {
          201: dataEnvelope(createdReviewSchema),
          ...errorResponses(400, 401, 403, 404, 409, 422, 429, 502),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const scope = { userId: principal.userId, mode: principal.mode };
      const hash = requestHash(request.body, 'POST /v1/reviews');
      const begunAt = deps.clock.now();
      if (key !== undefined) {
        const begun = await beginIdempotentRequest(deps.db, {
          ...scope,
          key,
          requestHash: hash,
          now: begunAt,
        });
        if (begun.kind === 'replay') {
          const body = begun.body as { meta?: { request_id?: string } };
          // The replay is the original response, request id included (X-Request-Id = meta.request_id).
          if (typeof body.meta?.request_id === 'string') reply.header('x-request-id', body.meta.request_id);
          return reply
            .header('idempotent-replayed', 'true')
            .status(begun.status as 201)
            .send(begun.body as never);
        }
      }
      try {
        let body: unknown;
        await deps.service.create(principal, request.body, async (trx, review) => {
          body = envelope(
            {
              id: review.id,
              status: review.status as 'pending' | 'in_progress',
              pull_request: { url: review.pr_url, number: review.pr_number },
              created_at: review.created_at.toISOString(),
            },
            request.id,
            deps.clock.now(),
          );
          if (key !== undefined)
            await finishIdempotentRequest(trx, { ...scope, key, requestHash: hash, status: 201, body });
        });
        return reply.status(201).send(body as never);
      } catch (error) {
        if (key !== undefined) {
          const status = error instanceof AppError ? error.status : 500;
          if (isStoredStatus(status) && error instanceof AppError) {
            // A definite answer (the pull request does not exist) is the request's outcome: stored.
            const body = {
              error: {
                type: error.type,
                message: error.message,
                code: error.code,
                status,
                ...(error.details ? { details: error.details } : {}),
              },
              meta: { request_id: request.id, timestamp: deps.clock.now().toISOString() },
            };
            await finishIdempotentRequest(deps.db, { ...scope, key, requestHash: hash, status, body });
          } else {
            // A database outage may refuse the release too: it is then retried in the background,
            // so a client retrying after the outage does not meet its key still in flight.
            await abandonIdempotentRequestWhenPossible(
              deps.db,
              { ...scope, key, requestHash: hash, lockedUntil: new Date(begunAt.getTime() + IDEMPOTENCY_LOCK_MS) },
              () => deps.clock.now(),
            );
          }
        }
        throw error;
      }
    },
  );

  r.get(
    '/v1/reviews',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary: 'List reviews',
        querystring: listReviewsQuery,
        response: { 200: listEnvelope(reviewSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const page = await listReviews(deps.db, principalOf(request), request.query);
      return listBody(
        page.reviews.map(presentReview),
        { has_more: page.hasMore, next_cursor: page.nextCursor, prev_cursor: page.prevCursor },
        request.id,
        deps.clock.now(),
      );
    },
  );

  r.get(
    '/v1/reviews/:id',
    {
      onRequest: readOne,
      schema: {
        tags,
        security,
        summary: 'Get a review',
        params: idParams,
        response: { 200: dataEnvelope(reviewSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const review = await readReview(request);
      return envelope(presentReview(review), request.id, deps.clock.now());
    },
  );

  for (const action of ['start', 'cancel', 'retry'] as const) {
    r.post(
      `/v1/reviews/:id/${action}`,
      {
        onRequest: write,
        schema: {
          tags,
          security,
          summary: {
            start: 'Start a pending review',
            cancel: 'Cancel a pending or in-progress review',
            retry: 'Retry a failed review',
          }[action],
          params: idParams,
          response: { 200: dataEnvelope(reviewStatusSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const review = await deps.service[action](principalOf(request), request.params.id);
        return envelope({ id: review.id, status: review.status }, request.id, deps.clock.now());
      },
    );
  }

  r.get(
    '/v1/reviews/:id/comments',
    {
      onRequest: readOne,
      schema: {
        tags,
        security,
        summary: "List a review's comments",
        description: 'Ordered by file, then line. Empty until the review completes.',
        params: idParams,
        response: { 200: dataEnvelope(z.array(commentSchema)), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const review = await readReview(request);
      const rows = await listReviewComments(deps.db, review.id);
      return envelope(rows.map(presentComment), request.id, deps.clock.now());
    },
  );

  r.get(
    '/v1/reviews/:id/stats',
    {
      onRequest: readOne,
      schema: {
        tags,
        security,
        summary: "Get a review's statistics",
        description: 'Available once the review has completed; 409 before.',
        params: idParams,
        response: { 200: dataEnvelope(statisticsSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const review = await readReview(request);
      if (review.status !== 'completed' || review.analysis === null) {
        throw conflict(`Review ${review.id} has no statistics until it completes (it is ${review.status})`);
      }
      const rows = await reviewCommentKinds(deps.db, review.id);
      const tally = <K extends string>(keys: readonly K[], pick: (r: (typeof rows)[number]) => string) =>
        Object.fromEntries(keys.map((k) => [k, rows.filter((r) => pick(r) === k).length])) as Record<K, number>;
      return envelope(
        {
          ...review.analysis,
          issues_by_type: tally(FINDING_TYPES, (r) => r.type),
          issues_by_severity: tally(SEVERITIES, (r) => r.severity),
        },
        request.id,
        deps.clock.now(),
      );
    },
  );
}
