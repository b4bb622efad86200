import { z } from 'zod';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookRow } from '../db/schema.js';
import { WEBHOOK_EVENT_NAMES } from './event-names.js';
import type { DeliveryWithAttempts } from './webhook-deliveries.js';

export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 256;

/** Decisions §5's record; the secret itself is never returned. */
export const webhookSchema = z.object({
  id: z.string().describe('Prefix whk_.'),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  has_secret: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  disabled_at: z.string().nullable(),
  failure_count: z.number().int().describe('Failed attempts in a row; reset by a success or by re-enabling.'),
});

export const attemptSchema = z.object({
  attempt: z.number().int().describe('1 to 5.'),
  status_code: z.number().int().nullable().describe('Null when no response came (refused, timed out).'),
  latency_ms: z.number().int(),
  error: z.string().nullable().describe('Why the attempt failed; null on success.'),
  response_body: z.string().nullable().describe('At most 64 KiB of the answer.'),
  created_at: z.string(),
});

export const deliverySchema = z.object({
  id: z.string().describe('Prefix dlv_; sent as X-Svc-Delivery and webhook-id on every attempt.'),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  next_attempt_at: z.string().nullable(),
  redelivery_of: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  attempts: z.array(attemptSchema),
});

const eventNames = z
  .array(z.enum(WEBHOOK_EVENT_NAMES, { message: `must be one of ${WEBHOOK_EVENT_NAMES.join(', ')}` }))
  .min(1, 'must name at least one event')
  .max(WEBHOOK_EVENT_NAMES.length)
  .refine((names) => new Set(names).size === names.length, 'must not repeat an event');

const secret = z
  .string()
  .min(MIN_SECRET_LENGTH, `must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`)
  .max(MAX_SECRET_LENGTH, `must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`);

/** The URL is checked further by parseWebhookUrl (https, no credentials, no private literal). */
const url = z.string().min(1, 'must not be empty');

export const createWebhookBody = z.strictObject({ url, events: eventNames, secret: secret.optional() });

export const updateWebhookBody = z
  .strictObject({
    url: url.optional(),
    events: eventNames.optional(),
    secret: secret.nullable().optional().describe('null removes the secret.'),
    enabled: z.boolean().optional().describe('true re-enables a disabled webhook and resets failure_count.'),
  })
  .refine((b) => Object.keys(b).length > 0, 'must change at least one of url, events, secret, enabled');

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function presentWebhook(row: WebhookRow): z.infer<typeof webhookSchema> {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    has_secret: row.secret_sealed !== null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    disabled_at: iso(row.disabled_at),
    failure_count: row.failure_count,
  };
}

function presentAttempt(row: WebhookAttemptRow): z.infer<typeof attemptSchema> {
  return {
    attempt: row.attempt,
    status_code: row.status_code,
    latency_ms: row.latency_ms,
    error: row.error,
    response_body: row.response_body,
    created_at: row.created_at.toISOString(),
  };
}

export function presentDelivery({ delivery, attempts }: DeliveryWithAttempts): z.infer<typeof deliverySchema> {
  const row: WebhookDeliveryRow = delivery;
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    next_attempt_at: iso(row.next_attempt_at),
    redelivery_of: row.redelivery_of,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    attempts: attempts.map(presentAttempt),
  };
}
