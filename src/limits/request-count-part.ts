import { sql } from 'kysely';
import type { StatementPart } from '../db/statement-part.js';

/**
 * Decisions §6, counted in the statement that finds the credentials of a batch of requests. It
 * reads the statement's `found` rows (aliased `f`), one per request whose credential exists: its
 * `ord` (place in the batch), `user_id`, `window_start` (rateWindowStart of its time) and `counts`
 * (whether the credential is good enough to count: an unknown, revoked or expired token counts
 * nothing). Each user's window gains the number of its counted requests in one upsert, and each
 * request takes the count in between in the order the requests came (`request_count`, null when
 * not counted): exact, as one upsert per request would be. ON CONFLICT's row locks serialise
 * concurrent batches across instances; the rows are upserted in key order, so two batches locking
 * the same users cannot deadlock.
 */
export const REQUEST_COUNT_PART: StatementPart = {
  ctes: [
    sql`tally as (
  select user_id, window_start, count(*) as n from found where counts group by user_id, window_start
)`,
    sql`counted as (
  insert into request_rate_windows as w (user_id, window_start, count)
  select user_id, window_start, n from tally order by user_id, window_start
  on conflict (user_id, window_start) do update set count = w.count + excluded.count
  returning w.user_id, w.window_start, w.count
)`,
  ],
  columns: [
    sql`case when f.counts
         then (c.count - t.n + row_number() over (partition by f.user_id, f.window_start, f.counts order by f.ord))::int
       end as request_count`,
  ],
  joins: [
    sql`left join tally t on f.counts and t.user_id = f.user_id and t.window_start = f.window_start`,
    sql`left join counted c on f.counts and c.user_id = f.user_id and c.window_start = f.window_start`,
  ],
};
