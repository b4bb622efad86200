import type { Octokit } from '@octokit/rest';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.js';
import { upstreamError } from '../common/errors.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Database, ReviewRow } from '../db/schema.js';
import { languageOf } from '../engine/languages.js';
import type { ChangedFile } from '../engine/types.js';
import type { GitHubAppAuth } from '../github/app-auth.js';
import { readFileContents } from '../github/file-contents.js';
import { createOctokit, type GitHubRetryOptions, httpStatusOf } from '../github/octokit.js';
import { listPullRequestFiles, type PullRequestMetadata, readPullRequest } from '../github/pull-requests.js';
import type { PullRequestRef } from './pull-request-url.js';

/** At most this many whole files are fetched per review; the rest are read from their hunks. */
export const MAX_CONTENT_FILES = 300;

export interface GitHubReaderDeps {
  db: Kysely<Database>;
  box: SecretBox;
  apiUrl: string;
  fetch: typeof fetch;
  /** The GitHub App's installation tokens; undefined when no app is configured. */
  app?: GitHubAppAuth | undefined;
  /** Retry and rate-limit settings of the Octokits made here; production defaults when absent. */
  octokitOptions?: GitHubRetryOptions | undefined;
}

/**
 * Reads pull requests for a user.
 *
 * The create-time check (`readPullRequest`) proves that the USER can read the pull request, so
 * it reads with their GitHub token when they signed in with GitHub (private repositories they
 * can read work, those they cannot answer 404), anonymously otherwise (public repositories
 * only). The app's installation token is never used there: it can read every repository the app
 * is installed on, and would let anyone create reviews of private code they cannot see.
 *
 * Processing (`readChangedFiles`, after that check passed) prefers the installation token when
 * the app is configured and installed on the repository: its rate limit is higher and grows with
 * the installation, and it keeps working when the user's token is revoked or expired. Without an
 * installation it falls back to the user's token, then to anonymous reading.
 */
/** What makeGitHubReader gives: one per process, shared by the API and the workers. */
export type GitHubReader = ReturnType<typeof makeGitHubReader>;

export function makeGitHubReader(deps: GitHubReaderDeps) {
  const octokitFor = async (userId: string) => {
    const user = await deps.db
      .selectFrom('users')
      .select('github_token_sealed')
      .where('id', '=', userId)
      .executeTakeFirst();
    const token = user?.github_token_sealed ? deps.box.open(user.github_token_sealed) : undefined;
    return createOctokit({ ...deps.octokitOptions, apiUrl: deps.apiUrl, token, fetch: deps.fetch });
  };
  /** An Octokit acting as the app's installation on the repository, or undefined when it is not installed. */
  const appOctokit = async (owner: string, repo: string): Promise<Octokit | undefined> => {
    const app = deps.app;
    const token = await app?.installationToken(owner, repo);
    if (app === undefined || token === undefined) return undefined;
    const octokit = createOctokit({ ...deps.octokitOptions, apiUrl: deps.apiUrl, token, fetch: deps.fetch });
    // A 401 means GitHub no longer honours this cached token (revoked, app reinstalled). Read as
    // "not readable" it would fail the review for good; instead the token is dropped and the
    // failure is an upstream one, so the job's next attempt asks for a fresh token.
    octokit.hook.error('request', (error) => {
      if (httpStatusOf(error) !== 401) throw error;
      app.forget(owner, repo);
      throw upstreamError("GitHub refused the app's installation token; a new one is used on the next attempt", error);
    });
    return octokit;
  };
  return {
    appOctokit,
    /** The app's bot login, or undefined when no app is configured. */
    async botLogin(): Promise<string | undefined> {
      return deps.app?.botLogin();
    },
    async readPullRequest(principal: Principal, ref: PullRequestRef): Promise<PullRequestMetadata> {
      return readPullRequest(await octokitFor(principal.userId), ref);
    },
    async readChangedFiles(review: ReviewRow): Promise<ChangedFile[]> {
      const [owner, repo] = review.repository.split('/') as [string, string];
      const octokit = (await appOctokit(owner, repo)) ?? (await octokitFor(review.user_id));
      const files = await listPullRequestFiles(octokit, { owner, repo, number: review.pr_number });
      if (review.head_sha === null) return files;
      // Whole files give the rules their context; only for code the engine reads, and not without end.
      const wanted = files
        .filter((f) => f.status !== 'removed' && f.patch !== undefined && languageOf(f.path) !== undefined)
        .slice(0, MAX_CONTENT_FILES)
        .map((f) => f.path);
      const contents = await readFileContents(octokit, { owner, repo }, review.head_sha, wanted);
      return files.map((f) => (contents.has(f.path) ? { ...f, content: contents.get(f.path) } : f));
    },
  };
}
