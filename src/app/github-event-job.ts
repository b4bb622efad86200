import type { Probot } from 'probot';
import type { JobRow } from '../db/schema.js';

/** The job payload: a verified GitHub webhook, as received. */
export interface QueuedGitHubEvent {
  id: string;
  name: string;
  payload: Record<string, unknown>;
}

/**
 * Runs a verified GitHub event through the app's handlers, in a worker. A handler that throws
 * (GitHub or the database failing) fails the job, which retries it; handlers are written to be
 * run again safely.
 */
export function makeGitHubEventHandler(probot: Probot) {
  return async (job: JobRow): Promise<void> => {
    const event = job.payload as unknown as QueuedGitHubEvent;
    await probot.receive({ id: event.id, name: event.name, payload: event.payload } as Parameters<
      Probot['receive']
    >[0]);
  };
}
