import { expressionBuilder } from 'kysely';
import type { ReadAlong } from '../../auth/read-along.js';
import type { Database, ReviewRow } from '../../db/schema.js';
import { PRESENTED_REVIEW_COLUMNS } from '../review-presenter.js';
import { visibleTo } from './visible-to.js';

// What the read routes use: the presented columns and the statistics (the rest of a review's
// row, its options and GitHub bookkeeping, would only be parsed and dropped).
const READ_COLUMNS = [...PRESENTED_REVIEW_COLUMNS, 'analysis'] as const;
export type ReviewForRead = Pick<ReviewRow, (typeof READ_COLUMNS)[number]>;

const eb = expressionBuilder<Database>();

/**
 * The review the read routes show, read in the statement that authenticates the request: the
 * review with the path's id, if the request's credential may see it (visibleTo, the one rule that
 * findVisibleReview also applies, here on the credential's user and mode in that statement).
 */
export const REVIEW_READ_ALONG: ReadAlong<ReviewForRead> = {
  param: 'id',
  read: ({ key, userId, mode }) =>
    eb.selectFrom('reviews').select(READ_COLUMNS).where('id', '=', key).where(visibleTo({ userId, mode })),
  columns: READ_COLUMNS,
};
