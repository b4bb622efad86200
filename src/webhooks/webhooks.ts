import type { Kysely } from 'kysely';
import { conflict, notFound } from '../common/errors.js';
import { newId } from '../common/ids.js';
import type { SecretBox } from '../common/secret-box.js';
import { newestFirstPage } from '../db/newest-first-page.js';
import type { Database, Mode, WebhookRow } from '../db/schema.js';

/** Decisions §17: enough for real integrations, few enough to stay cheap to fan out. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 25;

/** Whose webhooks: the user, in the mode of the credential (test keys see test webhooks only). */
export interface WebhookOwner {
  userId: string;
  mode: Mode;
}

export interface WebhookInput {
  url: string;
  events: string[];
  secret?: string | undefined;
}

export interface WebhookPage {
  webhooks: WebhookRow[];
  hasMore: boolean;
}

export async function createWebhook(
  db: Kysely<Database>,
  box: SecretBox,
  owner: WebhookOwner,
  input: WebhookInput,
  now: Date,
): Promise<WebhookRow> {
  return db.transaction().execute(async (trx) => {
    // The user row is the lock that keeps two parallel creates from passing the count together.
    await trx.selectFrom('users').select('id').where('id', '=', owner.userId).forUpdate().executeTakeFirst();
    const { count } = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', owner.userId)
      .where('mode', '=', owner.mode)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw conflict(`An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks per mode; delete one first`);
    }
    return trx
      .insertInto('webhooks')
      .values({
        id: newId('whk'),
        user_id: owner.userId,
        mode: owner.mode,
        url: input.url,
        events: input.events,
        secret_sealed: input.secret === undefined ? null : box.seal(input.secret),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** Another account's webhook, or one of the other mode, answers 404 as if it did not exist. */
export async function getWebhook(db: Kysely<Database>, owner: WebhookOwner, id: string): Promise<WebhookRow> {
  const row = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', owner.userId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
  if (row === undefined) throw notFound('Webhook');
  return row;
}

/** Newest first; `after` is the id of the last webhook of the previous page. */
export async function listWebhooks(
  db: Kysely<Database>,
  owner: WebhookOwner,
  options: { after?: string | undefined; limit: number },
): Promise<WebhookPage> {
  const page = await newestFirstPage(
    db,
    'webhooks',
    { user_id: owner.userId, mode: owner.mode },
    { ...options, notInList: 'is not a webhook id of this list' },
  );
  return { webhooks: page.rows, hasMore: page.hasMore };
}

export interface WebhookChanges {
  url?: string | undefined;
  events?: string[] | undefined;
  /** null removes the secret. */
  secret?: string | null | undefined;
  enabled?: boolean | undefined;
}

/**
 * Decisions §5: `enabled: true` re-enables a disabled webhook and resets its failure count;
 * `enabled: false` pauses it (pending retries are then given up, see the delivery worker).
 */
export async function updateWebhook(
  db: Kysely<Database>,
  box: SecretBox,
  owner: WebhookOwner,
  id: string,
  changes: WebhookChanges,
  now: Date,
): Promise<WebhookRow> {
  const current = await getWebhook(db, owner, id);
  const set: Record<string, unknown> = { updated_at: now };
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.events !== undefined) set.events = changes.events;
  if (changes.secret !== undefined) set.secret_sealed = changes.secret === null ? null : box.seal(changes.secret);
  if (changes.enabled === true && !current.enabled) {
    Object.assign(set, { enabled: true, failure_count: 0, disabled_at: null });
  } else if (changes.enabled === false && current.enabled) {
    Object.assign(set, { enabled: false, disabled_at: now });
  }
  const row = await db.updateTable('webhooks').set(set).where('id', '=', current.id).returningAll().executeTakeFirst();
  if (row === undefined) throw notFound('Webhook');
  return row;
}

/** Its deliveries and their log go with it (cascade); queued attempts then find nothing to send. */
export async function deleteWebhook(db: Kysely<Database>, owner: WebhookOwner, id: string): Promise<void> {
  const result = await db
    .deleteFrom('webhooks')
    .where('id', '=', id)
    .where('user_id', '=', owner.userId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('Webhook');
}
