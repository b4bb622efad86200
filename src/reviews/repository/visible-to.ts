import type { Expression, ExpressionBuilder } from 'kysely';
import type { Database, Mode } from '../../db/schema.js';

/**
 * Whose eyes a review is read with: a principal's values, or references to columns of an
 * enclosing statement (the authenticating statement's row, for the read along), so that one rule
 * serves both.
 */
export interface Viewer {
  userId: string | Expression<string>;
  mode: Mode | Expression<Mode>;
}

/**
 * Decisions §1/§2: a user sees a review they created, or one of an organization they belong to,
 * and only in the credential's mode. Everything else is answered as if it did not exist.
 */
export function visibleTo(viewer: Viewer) {
  return (eb: ExpressionBuilder<Database, 'reviews'>) =>
    eb.and([
      eb('reviews.mode', '=', viewer.mode),
      eb.or([
        eb('reviews.user_id', '=', viewer.userId),
        eb(
          'reviews.organization_id',
          'in',
          eb
            .selectFrom('memberships')
            .select('memberships.organization_id')
            .where('memberships.user_id', '=', viewer.userId),
        ),
      ]),
    ]);
}
