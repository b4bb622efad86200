import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Principal } from '../auth/principal.js';
import { prepared } from '../db/database.js';
import type { Database, Mode, ReviewRow } from '../db/schema.js';
import { notFound } from '../shared/errors.js';
import { visibleTo } from './review-access.js';

// The read routes run this on every request, so its text is fixed and prepared once per
// connection (prepared() in db/database.ts). It is findVisibleReview's query, compiled once here
// with stand-in values: one visibility rule (visibleTo) for both, whatever it becomes.
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const STAND_IN = { id: '\u0000id', userId: '\u0000user', mode: '\u0000mode' as Mode };
const READ = compiler
  .selectFrom('reviews')
  .selectAll()
  .where('id', '=', STAND_IN.id)
  .where(visibleTo(STAND_IN))
  .compile();
const READ_SQL = prepared(READ.sql);
const READ_PARAMETERS = READ.parameters.map((value) => {
  const name = (Object.keys(STAND_IN) as Array<keyof typeof STAND_IN>).find((key) => STAND_IN[key] === value);
  if (name === undefined) throw new Error(`review read: unexpected parameter ${String(value)}`);
  return name;
});

/** The review for a read route; 404 when the principal cannot see it. */
export async function findReviewForRead(
  db: Kysely<Database>,
  principal: Pick<Principal, 'userId' | 'mode'>,
  id: string,
): Promise<ReviewRow> {
  const values = { id, userId: principal.userId, mode: principal.mode };
  const result = await db.executeQuery<ReviewRow>(
    CompiledQuery.raw(
      READ_SQL,
      READ_PARAMETERS.map((name) => values[name]),
    ),
  );
  const row = result.rows[0];
  if (row === undefined) throw notFound('Review');
  return row;
}
