import type { Octokit } from '@octokit/rest';
import type { Kysely } from 'kysely';
import type { ApplicationFunction } from 'probot';
import { ensureGitHubOrganization } from '../auth/accounts.js';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/schema.js';
import { readRepositoryConfig } from '../github/read-repository-config.js';
import { REPOSITORY_CONFIG_PATH } from '../github/repository-config.js';
import { recordEvent } from '../reviews/review-events.js';
import type { ReviewService } from '../reviews/review-service.js';
import { type PullRequestEventInfo, reviewPullRequest } from './review-pull-request.js';

export interface RedlineAppDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  reviews: ReviewService;
  /** The app's installation on the repository, or undefined when it is not installed there. */
  appOctokit(owner: string, repo: string): Promise<Octokit | undefined>;
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void } | undefined;
}

/** `/redline review` alone on a line of a comment, as people type it. */
const COMMAND = /^\s*\/redline\s+review\s*$/im;
const WRITERS = new Set(['admin', 'maintain', 'write']);

interface Account {
  id: number;
  login: string;
  type?: string;
}

const kindOf = (account: Account): 'user' | 'organization' =>
  account.type === 'Organization' ? 'organization' : 'user';

/**
 * The GitHub App (decisions §7). Handlers are thin: they turn an event into a call of the
 * services, and may run twice (the event job retries), so each is safe to repeat.
 */
export function redlineApp(deps: RedlineAppDeps): ApplicationFunction {
  return (app) => {
    app.on(
      [
        'installation.created',
        'installation.new_permissions_accepted',
        'installation.unsuspend',
        'installation_repositories.added',
      ],
      async (context) => {
        const account = context.payload.installation.account as Account | null;
        if (account === null || typeof account.login !== 'string') return;
        await ensureGitHubOrganization(deps.db, account, kindOf(account), deps.clock.now());
      },
    );

    app.on(
      ['pull_request.opened', 'pull_request.reopened', 'pull_request.synchronize', 'pull_request.ready_for_review'],
      async (context) => {
        const { pull_request: pr, repository } = context.payload;
        const octokit = await deps.appOctokit(repository.owner.login, repository.name);
        if (octokit === undefined) return ignored(deps, repository.full_name);
        await reviewPullRequest(deps, octokit, pullRequestInfo(pr, repository), 'event');
      },
    );

    app.on('issue_comment.created', async (context) => {
      const { comment, issue, repository } = context.payload;
      if (issue.pull_request === undefined || !COMMAND.test(comment.body)) return;
      if (comment.user?.type === 'Bot') return;
      const octokit = await deps.appOctokit(repository.owner.login, repository.name);
      if (octokit === undefined) return ignored(deps, repository.full_name);
      // Only people who can push may spend the repository's reviews (decisions §19).
      const { data: permission } = await octokit.repos.getCollaboratorPermissionLevel({
        owner: repository.owner.login,
        repo: repository.name,
        username: comment.user?.login ?? '',
      });
      if (!WRITERS.has(permission.permission)) return;
      const { data: pr } = await octokit.pulls.get({
        owner: repository.owner.login,
        repo: repository.name,
        pull_number: issue.number,
      });
      await reviewPullRequest(deps, octokit, pullRequestInfo(pr, repository), 'command');
    });

    app.on('push', async (context) => {
      const { repository, ref, after, commits } = context.payload;
      if (ref !== `refs/heads/${repository.default_branch}` || /^0+$/.test(after)) return;
      const touched = commits.some((c) =>
        [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(REPOSITORY_CONFIG_PATH),
      );
      if (!touched) return;
      const owner = repository.owner as Account;
      const octokit = await deps.appOctokit(owner.login, repository.name);
      if (octokit === undefined) return ignored(deps, repository.full_name);
      const read = await readRepositoryConfig(octokit, { owner: owner.login, repo: repository.name }, { ref: after });
      const organizationId = await ensureGitHubOrganization(deps.db, owner, kindOf(owner), deps.clock.now());
      await recordEvent(deps.db, {
        type: 'config.updated',
        mode: 'live',
        organizationId,
        // The push is the event: a redelivered push (new job, same delivery) writes one event.
        id: `evt_push_${context.id}`,
        data: {
          repository: { id: String(repository.id), name: repository.full_name, provider: 'github' },
          path: REPOSITORY_CONFIG_PATH,
          commit_sha: after,
          valid: read.errors.length === 0,
          errors: read.errors,
        },
        now: deps.clock.now(),
      });
    });
  };
}

function ignored(deps: RedlineAppDeps, repository: string): void {
  deps.logger?.info({ repository }, 'the app is not installed on this repository; event ignored');
}

interface PullRequestPayload {
  number: number;
  html_url: string;
  title: string;
  draft?: boolean | undefined;
  head: { sha: string; ref: string };
  base: { ref: string };
  user: { login: string } | null;
  updated_at: string;
}

interface RepositoryPayload {
  id: number;
  name: string;
  owner: Account;
}

function pullRequestInfo(pr: PullRequestPayload, repository: RepositoryPayload): PullRequestEventInfo {
  return {
    owner: { id: repository.owner.id, login: repository.owner.login, kind: kindOf(repository.owner) },
    repo: repository.name,
    repositoryId: repository.id,
    number: pr.number,
    url: pr.html_url,
    title: pr.title,
    headSha: pr.head.sha,
    headRef: pr.head.ref,
    baseRef: pr.base.ref,
    draft: pr.draft === true,
    author: pr.user?.login ?? 'ghost',
    updatedAt: new Date(pr.updated_at),
  };
}
