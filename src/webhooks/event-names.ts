/** Decisions §5: every name spec 6.3 lists is accepted by a subscription. */
export const WEBHOOK_EVENT_NAMES = [
  'review.created',
  'review.started',
  'review.in_progress',
  'review.completed',
  'review.failed',
  'review.cancelled',
  'security.alert',
  'pr.approved',
  'pr.changes_requested',
  'config.updated',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/** The dashboard's test event (decisions §5); sent only by `POST /webhooks/:id/test`, never subscribed to. */
export const PING_EVENT = 'ping';
