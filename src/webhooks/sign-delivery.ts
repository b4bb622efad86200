import { createHmac } from 'node:crypto';

export const WEBHOOK_USER_AGENT = 'Svc-Webhook/1.0';

export interface DeliveryToSign {
  deliveryId: string;
  eventType: string;
  body: string;
  /** The webhook's secret in clear; without one, nothing is signed. */
  secret: string | undefined;
  /** When this attempt is made: each attempt is signed anew, so a receiver's replay window holds. */
  sentAt: Date;
}

/**
 * The headers of one attempt: spec 6.2, plus Standard Webhooks' `webhook-id`/`-timestamp`/
 * `-signature` (decisions §5). Both signatures use the secret's UTF-8 bytes as the HMAC key; a
 * Standard Webhooks library takes it as `new Webhook(Buffer.from(secret), { format: 'raw' })`.
 */
export function deliveryHeaders(delivery: DeliveryToSign): Record<string, string> {
  const timestamp = String(Math.floor(delivery.sentAt.getTime() / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-svc-event': delivery.eventType,
    'x-svc-delivery': delivery.deliveryId,
    'webhook-id': delivery.deliveryId,
    'webhook-timestamp': timestamp,
  };
  if (delivery.secret !== undefined) {
    const hmac = () => createHmac('sha256', Buffer.from(delivery.secret ?? '', 'utf8'));
    headers['x-svc-signature'] = `sha256=${hmac().update(delivery.body, 'utf8').digest('hex')}`;
    const signed = `${delivery.deliveryId}.${timestamp}.${delivery.body}`;
    headers['webhook-signature'] = `v1,${hmac().update(signed, 'utf8').digest('base64')}`;
  }
  return headers;
}
