import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Principal } from '../../auth/principal.js';
import { validationError } from '../../common/errors.js';
import type { Database, ReviewRow } from '../../db/schema.js';
import type { ListReviewsQuery } from '../review-schemas.js';
import { visibleTo } from './visible-to.js';

export interface ReviewPage {
  reviews: ReviewRow[];
  hasMore: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * The sort key of each order. Nullable columns sort as a floor value so keyset comparisons stay
 * total (a review without a score sorts below 0; one not completed, before every completion).
 */
const KEYS = {
  created_at: sql`reviews.created_at`,
  score: sql`coalesce(reviews.score, -1)`,
  completed_at: sql`coalesce(reviews.completed_at, timestamptz '1970-01-01T00:00:00Z')`,
} as const;

type Direction = 'asc' | 'desc';

/**
 * Decisions §4: keyset pagination over (sort key, id), so pages are stable under inserts and
 * exact whatever the timestamp precision. `after` walks on in the current order, `before` walks
 * back; `has_more` says whether items follow the page, `next_cursor` is the last item's id when
 * they do, and `prev_cursor` the first item's id when items precede the page.
 */
export async function listReviews(
  db: Kysely<Database>,
  principal: Principal,
  query: ListReviewsQuery,
): Promise<ReviewPage> {
  if (query.after !== undefined && query.before !== undefined) {
    throw validationError('before', 'cannot be combined with after');
  }
  const descending = query.sort.startsWith('-');
  const key = KEYS[query.sort.replace(/^-/, '') as keyof typeof KEYS];
  const order: Direction = descending ? 'desc' : 'asc';
  const flip = (d: Direction): Direction => (d === 'asc' ? 'desc' : 'asc');

  const filtered = () => {
    let q = db.selectFrom('reviews').where(visibleTo(principal));
    if (query.status !== undefined) q = q.where('reviews.status', '=', query.status);
    if (query.team_id !== undefined) q = q.where('reviews.team_id', '=', query.team_id);
    if (query.repository !== undefined) {
      q = q.where((eb) => eb(eb.fn('lower', ['reviews.repository']), '=', (query.repository as string).toLowerCase()));
    }
    if (query.created_after !== undefined) q = q.where('reviews.created_at', '>', query.created_after);
    if (query.created_before !== undefined) q = q.where('reviews.created_at', '<', query.created_before);
    return q;
  };

  /** Rows strictly past `pivot` when walking in `direction`. */
  const past = (pivot: { key: unknown; id: string }, direction: Direction): Expression<SqlBool> => {
    const op = direction === 'asc' ? sql.raw('>') : sql.raw('<');
    return sql<SqlBool>`(${key} ${op} ${pivot.key} or (${key} = ${pivot.key} and reviews.id ${op} ${pivot.id}))`;
  };

  const pivotOf = async (id: string, field: 'after' | 'before') => {
    const row = await db
      .selectFrom('reviews')
      .select([key.as('key'), 'reviews.id'])
      .where('reviews.id', '=', id)
      .where(visibleTo(principal))
      .executeTakeFirst();
    if (row === undefined) throw validationError(field, 'is not a review id of this list');
    return { key: row.key, id: row.id };
  };

  const exists = async (pivot: { key: unknown; id: string }, direction: Direction) =>
    (await filtered().select('reviews.id').where(past(pivot, direction)).limit(1).executeTakeFirst()) !== undefined;

  const page = async (direction: Direction, pivot: { key: unknown; id: string } | undefined) => {
    let q = filtered().selectAll('reviews');
    if (pivot !== undefined) q = q.where(past(pivot, direction));
    return q
      .orderBy(key, direction)
      .orderBy('reviews.id', direction)
      .limit(query.limit + 1)
      .execute();
  };

  const pivotFor = (row: ReviewRow) => ({ key: keyValue(row, query.sort), id: row.id });

  if (query.before !== undefined) {
    const rows = await page(flip(order), await pivotOf(query.before, 'before'));
    const earlier = rows.length > query.limit;
    const reviews = rows.slice(0, query.limit).reverse();
    const first = reviews[0];
    const last = reviews.at(-1);
    const hasMore = last !== undefined && (await exists(pivotFor(last), order));
    return {
      reviews,
      hasMore,
      nextCursor: hasMore && last ? last.id : null,
      prevCursor: earlier && first ? first.id : null,
    };
  }

  const pivot = query.after !== undefined ? await pivotOf(query.after, 'after') : undefined;
  const rows = await page(order, pivot);
  const hasMore = rows.length > query.limit;
  const reviews = rows.slice(0, query.limit);
  const first = reviews[0];
  const last = reviews.at(-1);
  const earlier = pivot !== undefined && first !== undefined && (await exists(pivotFor(first), flip(order)));
  return {
    reviews,
    hasMore,
    nextCursor: hasMore && last ? last.id : null,
    prevCursor: earlier && first ? first.id : null,
  };
}

/** The sort key of a row as SQL compares it (mirrors KEYS). */
function keyValue(row: ReviewRow, sort: ListReviewsQuery['sort']): unknown {
  switch (sort.replace(/^-/, '')) {
    case 'score':
      return row.score ?? -1;
    case 'completed_at':
      return row.completed_at ?? new Date('1970-01-01T00:00:00Z');
    default:
      return row.created_at;
  }
}
