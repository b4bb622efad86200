import type { Kysely, Transaction } from 'kysely';
import type { Principal } from '../../auth/principal.js';
import { notFound } from '../../common/errors.js';
import type { Database, ReviewRow } from '../../db/schema.js';
import { visibleTo } from './visible-to.js';

/** The review, locked for update when in a transaction; 404 when the principal cannot see it. */
export async function findVisibleReview(
  db: Kysely<Database> | Transaction<Database>,
  principal: Pick<Principal, 'userId' | 'mode'>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ReviewRow> {
  let query = db.selectFrom('reviews').selectAll().where('id', '=', id).where(visibleTo(principal));
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined) throw notFound('Review');
  return row;
}
