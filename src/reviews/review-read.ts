import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { Principal } from '../auth/principal.js';
import type { ReadAlong } from '../auth/read-along.js';
import type { Database, Mode, ReviewRow } from '../db/schema.js';
import { notFound } from '../shared/errors.js';
import { findVisibleReview } from './repository/find-visible-review.js';
import { visibleTo } from './repository/visible-to.js';
import { PRESENTED_REVIEW_COLUMNS } from './review-presenter.js';

// The read routes run this on every request, in the statement that authenticates it
// (read-along.ts): findVisibleReview's condition (one visibility rule, visibleTo, for both,
// whatever it becomes) compiled once here with stand-in values, each of which becomes a column
// of the authenticating statement's row. A fixed text, prepared once per connection with it.
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const STAND_IN = { id: '\u0000id', userId: '\u0000user', mode: '\u0000mode' as Mode };
const COLUMN: Record<keyof typeof STAND_IN, string> = { id: 'f.along_key', userId: 'f.user_id', mode: 'f.mode' };
// What the read routes use: the presented columns and the statistics (the rest of a review's
// row, its options and GitHub bookkeeping, would only be parsed and dropped).
const READ_COLUMNS = [...PRESENTED_REVIEW_COLUMNS, 'analysis'] as const;
export type ReviewForRead = Pick<ReviewRow, (typeof READ_COLUMNS)[number]>;
const READ = compiler
  .selectFrom('reviews')
  .select(READ_COLUMNS)
  .where('id', '=', STAND_IN.id)
  .where(visibleTo(STAND_IN))
  .compile();

/** The review read routes show, read in the statement that authenticates the request. */
export const REVIEW_READ_ALONG: ReadAlong<ReviewForRead> = {
  param: 'id',
  sql: READ.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = READ.parameters[Number(n) - 1];
    const name = (Object.keys(STAND_IN) as Array<keyof typeof STAND_IN>).find((key) => STAND_IN[key] === value);
    if (name === undefined) throw new Error(`review read: unexpected parameter ${String(value)}`);
    return COLUMN[name];
  }),
  columns: READ_COLUMNS,
};

/**
 * The review for a read route, 404 when the principal cannot see it: what REVIEW_READ_ALONG
 * found when it ran for this id (every counted request), else read here.
 */
export async function findReviewForRead(
  db: Kysely<Database>,
  principal: Pick<Principal, 'userId' | 'mode'>,
  id: string,
  readAlong: { row: ReviewForRead | undefined } | undefined,
): Promise<ReviewForRead> {
  // PostgreSQL refuses a NUL in text; no id has one.
  if (id.includes('\u0000')) throw notFound('Review');
  if (readAlong === undefined) return findVisibleReview(db, principal, id);
  if (readAlong.row === undefined) throw notFound('Review');
  return readAlong.row;
}
