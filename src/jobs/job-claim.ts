import type { JobRow } from '../db/schema.js';

/**
 * What proves a worker still owns a job. `attempts` is the fencing token: every claim bumps it,
 * so a worker that lost its lease cannot settle the next claim, even when the same worker id
 * (a restarted process with a fixed id) holds it now.
 */
export type JobClaim = Pick<JobRow, 'id' | 'locked_by' | 'attempts'>;
