import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Principal as FullPrincipal } from '../auth/principal.js';
import { type BatchRow, batchInputsFrom, batchInputsParameter, inInputOrder } from '../db/batch-inputs.js';
import { prepared } from '../db/database.js';
import { statementWaitLimit } from '../db/database-unavailable.js';
import type { Database, Mode, ReviewRow } from '../db/schema.js';
import { batchCalls } from '../shared/batch-calls.js';
import { notFound } from '../shared/errors.js';
import { visibleTo } from './review-access.js';
import { PRESENTED_REVIEW_COLUMNS } from './review-presenter.js';

// The read routes run this on every request: findVisibleReview's condition (one visibility rule,
// visibleTo, for both, whatever it becomes) compiled once here with stand-in values, then run for
// a batch of requests at once (batchCalls): each stand-in becomes the column of the request's
// row, and the query is the lateral subquery of that row. A fixed text, prepared once per
// connection (prepared() in db/database.ts).
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const STAND_IN = { id: '\u0000id', userId: '\u0000user', mode: '\u0000mode' as Mode };
const COLUMN: Record<keyof typeof STAND_IN, string> = { id: 'q.id', userId: 'q.user_id', mode: 'q.mode' };
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
const PER_ROW = READ.sql.replace(/\$(\d+)/g, (_, n: string) => {
  const value = READ.parameters[Number(n) - 1];
  const name = (Object.keys(STAND_IN) as Array<keyof typeof STAND_IN>).find((key) => STAND_IN[key] === value);
  if (name === undefined) throw new Error(`review read: unexpected parameter ${String(value)}`);
  return COLUMN[name];
});
const READ_BATCH_SQL = prepared(`
select q.ord, r.*
from ${batchInputsFrom([
  { name: 'id', type: 'text' },
  { name: 'user_id', type: 'text' },
  { name: 'mode', type: 'text' },
])}
cross join lateral (${PER_ROW}) r`);

type Principal = Pick<FullPrincipal, 'userId' | 'mode'>;

/**
 * The review for a read route, 404 when the principal cannot see it. One reader per app:
 * concurrent reads share its statement; a read waits for its batch to start at most `waitMs`
 * (DatabaseHandle.connectWaitMs).
 */
export function reviewReader(
  db: Kysely<Database>,
  waitMs?: number,
): (principal: Principal, id: string) => Promise<ReviewForRead> {
  const read = batchCalls<{ principal: Principal; id: string }, ReviewForRead | undefined>(async (calls) => {
    const inputs = calls.map((call) => [call.id, call.principal.userId, call.principal.mode]);
    const result = await db.executeQuery<BatchRow<ReviewForRead>>(
      CompiledQuery.raw(READ_BATCH_SQL, [batchInputsParameter(inputs)]),
    );
    return inInputOrder(result.rows, calls.length);
  }, statementWaitLimit(waitMs));
  return async (principal, id) => {
    // PostgreSQL refuses a NUL in text, and the error would fail every read of the batch; no id has one.
    if (id.includes('\u0000')) throw notFound('Review');
    const row = await read({ principal, id });
    if (row === undefined) throw notFound('Review');
    return row;
  };
}
