import type { Db } from '../../src/db/database.js';

/** What the request-rate windows hold: every authenticated request the server counted. */
export async function readRateCounters(db: Db): Promise<{ total: number; maxPerUserWindow: number }> {
  const rows = await db.selectFrom('request_rate_windows').select('count').execute();
  return {
    total: rows.reduce((sum, r) => sum + Number(r.count), 0),
    maxPerUserWindow: rows.reduce((max, r) => Math.max(max, Number(r.count)), 0),
  };
}
