import type { Octokit } from '@octokit/rest';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import type { Clock } from '../common/clock.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/schema.js';
import type { GitHubAppCredentials } from '../github/app-auth.js';
import { ReviewService } from '../reviews/review-service.js';
import { redlineApp } from './redline-app.js';

export interface GitHubAppDeps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  credentials: GitHubAppCredentials | undefined;
  appOctokit(owner: string, repo: string): Promise<Octokit | undefined>;
}

/**
 * The Probot app of this process, or undefined when no GitHub App is configured (APP_ID,
 * PRIVATE_KEY and WEBHOOK_SECRET come together: the configuration insists).
 */
export async function buildGitHubApp(deps: GitHubAppDeps): Promise<Probot | undefined> {
  const { config } = deps;
  if (deps.credentials === undefined || config.github.webhookSecret === undefined) return undefined;
  // Probot and its Octokit plugins are loaded only by a server that runs the App: a fifth of an
  // idle server's memory otherwise.
  const { createRedlineProbot } = await import('./create-probot.js');
  // The app makes reviews from events; reading a pull request as a user is not needed for that.
  const reviews = new ReviewService({
    db: deps.db,
    clock: deps.clock,
    publicUrl: config.publicUrl,
    githubServerUrl: config.github.serverUrl,
    readPullRequest: () => Promise.reject(new Error('the app does not read pull requests as a user')),
  });
  return createRedlineProbot({
    appId: deps.credentials.appId,
    privateKey: deps.credentials.privateKey,
    webhookSecret: config.github.webhookSecret,
    apiUrl: config.github.apiUrl,
    logger: deps.logger,
    app: redlineApp({
      db: deps.db,
      clock: deps.clock,
      publicUrl: config.publicUrl,
      reviews,
      appOctokit: deps.appOctokit,
      logger: deps.logger,
    }),
  });
}
