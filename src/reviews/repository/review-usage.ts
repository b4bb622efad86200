import { type Kysely, sql } from 'kysely';
import type { Principal } from '../../auth/principal.js';
import type { Database } from '../../db/schema.js';
import type { Usage, UsageQuery } from '../usage-schemas.js';
import { usageWindow } from '../usage-window.js';
import { visibleTo } from './visible-to.js';

// Every count is by the UTC day a review was created; completed and failed are those reviews'
// status now (a failed review keeps no time of failing, so creation is the one day all share).
// Constants stay in the SQL text, not parameters: PostgreSQL matches a grouped expression to its
// select-list twin by text, and two parameters ($1, $2) are never the same text.
const DAY = sql<string>`to_char(reviews.created_at at time zone 'UTC', 'YYYY-MM-DD')`;
const CREATED = sql<number>`count(*)::int`;
const COMPLETED = sql<number>`(count(*) filter (where reviews.status = 'completed'))::int`;
const FAILED = sql<number>`(count(*) filter (where reviews.status = 'failed'))::int`;
/** 0-9 is bucket 0, ..., 90-100 is bucket 9 (a score is an integer from 0 to 100). */
const BUCKET = sql<number>`least(reviews.score / 10, 9)`;
/** Of the completed reviews with a score: how many, and their scores' sum (the totals' average is made of them). */
const SCORED = sql<number>`(count(reviews.score) filter (where reviews.status = 'completed'))::int`;
const SCORE_SUM = sql<number>`coalesce(sum(reviews.score) filter (where reviews.status = 'completed'), 0)::int`;

/** sum / count to one decimal, halves rounded up (as PostgreSQL's round does a positive numeric), in integers. */
const average = (sum: number, count: number): number | null =>
  count === 0 ? null : Math.floor((20 * sum + count) / (2 * count)) / 10;

/**
 * The reviews a principal may read (the review list's rule, decisions §1/§2, in its mode) created
 * over the last `days` UTC days: per day, the score distribution and the totals. Two grouped
 * statements: per day (the totals are its sums) and per score bucket.
 */
export async function reviewUsage(
  db: Kysely<Database>,
  principal: Pick<Principal, 'userId' | 'mode'>,
  query: UsageQuery,
  now: Date,
): Promise<Usage> {
  const window = usageWindow(now, query.days);
  const inWindow = () => {
    let q = db
      .selectFrom('reviews')
      .where(visibleTo(principal))
      .where('reviews.created_at', '>=', window.from)
      .where('reviews.created_at', '<=', window.until);
    if (query.organization_id !== undefined) q = q.where('reviews.organization_id', '=', query.organization_id);
    if (query.team_id !== undefined) q = q.where('reviews.team_id', '=', query.team_id);
    if (query.repository !== undefined) {
      const repository = query.repository.toLowerCase();
      q = q.where((eb) => eb(eb.fn('lower', ['reviews.repository']), '=', repository));
    }
    return q;
  };

  const perDay = await inWindow()
    .select([
      DAY.as('date'),
      CREATED.as('created'),
      COMPLETED.as('completed'),
      FAILED.as('failed'),
      SCORED.as('scored'),
      SCORE_SUM.as('score_sum'),
    ])
    .groupBy(DAY)
    .execute();
  const perBucket = await inWindow()
    .where('reviews.status', '=', 'completed')
    .where('reviews.score', 'is not', null)
    .select([BUCKET.as('bucket'), CREATED.as('count')])
    .groupBy(BUCKET)
    .execute();
  const sum = (column: 'created' | 'completed' | 'failed' | 'scored' | 'score_sum') =>
    perDay.reduce((total, row) => total + Number(row[column]), 0);

  const byDate = new Map(perDay.map((row) => [row.date, row]));
  const byBucket = new Map(perBucket.map((row) => [Number(row.bucket), Number(row.count)]));
  return {
    from: window.from.toISOString(),
    until: window.until.toISOString(),
    days: window.dates.map((date) => {
      const row = byDate.get(date);
      return {
        date,
        created: Number(row?.created ?? 0),
        completed: Number(row?.completed ?? 0),
        failed: Number(row?.failed ?? 0),
      };
    }),
    scores: Array.from({ length: 10 }, (_, i) => ({
      min: i * 10,
      max: i === 9 ? 100 : i * 10 + 9,
      count: byBucket.get(i) ?? 0,
    })),
    total: {
      created: sum('created'),
      completed: sum('completed'),
      failed: sum('failed'),
      average_score: average(sum('score_sum'), sum('scored')),
    },
  };
}
