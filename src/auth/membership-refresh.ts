import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import { AppError } from '../common/errors.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Database, JobRow, UserRow } from '../db/schema.js';
import { readSignedInUser } from '../github/read-signed-in-user.js';
import { enqueueJob } from '../jobs/enqueue-job.js';
import { QUEUES } from '../jobs/queues.js';
import { syncMemberships } from './accounts.js';

/** Decisions §1: GitHub memberships are read at sign-in and refreshed at most hourly. */
export const MEMBERSHIPS_TTL_MS = 3_600_000;

/**
 * Decisions §1: whether a request should queue a refresh of the user's memberships (older than
 * an hour, for a user signed in with GitHub). A check in hand, so most requests await nothing.
 */
export function membershipsStale(
  user: Pick<UserRow, 'scm_id' | 'github_token_sealed' | 'memberships_synced_at'>,
  now: Date,
): boolean {
  if (user.scm_id === null || user.github_token_sealed === null) return false;
  return (
    user.memberships_synced_at === null || user.memberships_synced_at.getTime() <= now.getTime() - MEMBERSHIPS_TTL_MS
  );
}

/**
 * Queues the refresh of stale memberships (one job per user: the job id is the user's), so the
 * request never waits on GitHub.
 */
export async function queueMembershipRefresh(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await enqueueJob(
    db,
    { queue: QUEUES.memberships, id: `memberships:${userId}`, payload: { user_id: userId }, maxAttempts: 3 },
    now,
  );
}

export interface MembershipRefresherDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  apiUrl: string;
  fetch: typeof fetch;
}

/** The job: reads the user's memberships from GitHub with their token and replaces ours. */
export function makeMembershipRefresher(deps: MembershipRefresherDeps) {
  return async (job: JobRow): Promise<void> => {
    const userId = (job.payload as { user_id?: string }).user_id;
    const user = await deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId ?? '')
      .executeTakeFirst();
    const now = deps.clock.now();
    if (user === undefined || user.scm_id === null || user.github_token_sealed === null || !membershipsStale(user, now))
      return;
    let memberships: Awaited<ReturnType<typeof readSignedInUser>>['memberships'];
    try {
      memberships = (await readSignedInUser(deps.apiUrl, deps.box.open(user.github_token_sealed), deps.fetch))
        .memberships;
    } catch (error) {
      // A revoked token stays revoked: keep what we know and try again in an hour, not now.
      if (!(error instanceof AppError && error.status === 401)) throw error;
      memberships = undefined;
    }
    const scmId = user.scm_id;
    await deps.db.transaction().execute(async (trx) => {
      if (memberships === undefined) {
        await trx.updateTable('users').set({ memberships_synced_at: now }).where('id', '=', user.id).execute();
        return;
      }
      const personal = await trx
        .selectFrom('organizations')
        .select('id')
        .where('scm_id', '=', scmId)
        .executeTakeFirst();
      if (personal === undefined) return;
      await syncMemberships(trx, user.id, personal.id, memberships, now);
    });
  };
}
