import type { ExpressionBuilder } from 'kysely';
import type { Database, JobRow } from '../db/schema.js';

/**
 * What proves a worker still owns a job. `attempts` is the fencing token: every claim bumps it,
 * so a worker that lost its lease cannot settle the next claim, even when the same worker id
 * (a restarted process with a fixed id) holds it now.
 */
export type OwnedJob = Pick<JobRow, 'id' | 'locked_by' | 'attempts'>;

/** The condition every settle (complete, retry, fail, heartbeat) puts on its update: still ours. */
export function ownedBy(job: OwnedJob) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.and([
      eb('id', '=', job.id),
      eb('status', '=', 'running'),
      eb('locked_by', '=', job.locked_by as string),
      eb('attempts', '=', job.attempts),
    ]);
}
