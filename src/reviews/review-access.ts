import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { Principal } from '../auth/principal.js';
import type { Database, ReviewRow } from '../db/schema.js';
import { notFound } from '../shared/errors.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Decisions §1/§2: a user sees a review they created, or one of an organization they belong to,
 * and only in the credential's mode. Everything else is answered as if it did not exist.
 */
export function visibleTo(principal: Pick<Principal, 'userId' | 'mode'>) {
  return (eb: ExpressionBuilder<Database, 'reviews'>) =>
    eb.and([
      eb('reviews.mode', '=', principal.mode),
      eb.or([
        eb('reviews.user_id', '=', principal.userId),
        eb(
          'reviews.organization_id',
          'in',
          eb
            .selectFrom('memberships')
            .select('memberships.organization_id')
            .where('memberships.user_id', '=', principal.userId),
        ),
      ]),
    ]);
}

/** The review, locked for update when in a transaction; 404 when the principal cannot see it. */
export async function findVisibleReview(
  db: Executor,
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
