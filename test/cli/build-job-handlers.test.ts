import type { Kysely } from 'kysely';
import type { Probot } from 'probot';
import { describe, expect, it } from 'vitest';
import { buildJobHandlers, type JobHandlerDeps } from '../../src/cli/build-job-handlers.js';
import { SecretBox } from '../../src/common/secret-box.js';
import { loadConfig } from '../../src/config/config.js';
import type { Database } from '../../src/db/schema.js';
import { QUEUES } from '../../src/jobs/queues.js';
import type { GitHubReader } from '../../src/reviews/github-reader.js';
import { testClock } from '../helpers/test-clock.js';

// Building the map touches nothing: each handler only closes over its dependencies.
const deps: JobHandlerDeps = {
  config: loadConfig({ PUBLIC_URL: 'http://redline.test' }),
  db: {} as Kysely<Database>,
  clock: testClock(),
  box: new SecretBox(Buffer.alloc(32)),
  fetch: globalThis.fetch,
  githubReader: {
    readChangedFiles: async () => [],
    appOctokit: async () => undefined,
    botLogin: async () => undefined,
  } as unknown as GitHubReader,
};

describe('buildJobHandlers', () => {
  it('has a handler for every queue when the GitHub App is configured', () => {
    const handlers = buildJobHandlers({ ...deps, probot: {} as Probot });
    expect(Object.keys(handlers).sort()).toEqual(Object.values(QUEUES).sort());
  });

  it('leaves GitHub events queued without the app, and handles every other queue', () => {
    const handlers = buildJobHandlers(deps);
    expect(Object.keys(handlers).sort()).toEqual(
      Object.values(QUEUES)
        .filter((queue) => queue !== QUEUES.githubEvent)
        .sort(),
    );
  });
});
