import type { Octokit } from '@octokit/rest';
import { type AppError, notFound, upstreamError } from '../common/errors.js';
import type { ChangedFile } from '../engine/types.js';
import { httpStatusOf } from './octokit.js';

export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
}

export interface PullRequestMetadata {
  title: string;
  branch: string;
  author: string;
  headSha: string;
  /** GitHub's repository id, as text. */
  repositoryId: string;
  /** The base repository's owner: the organization a review belongs to. */
  owner: { id: number; login: string; kind: 'user' | 'organization' };
}

/** GitHub caps a pull request's file list at 3,000 files. */
export const MAX_FILES = 3000;

function readFailure(error: unknown, what: string): AppError {
  const status = httpStatusOf(error);
  // 404 is also GitHub's answer for a private repository the token cannot read.
  if (status === 404 || status === 403 || status === 401) {
    return notFound('Pull request', { field: 'pull_request_url', issue: 'does not exist or is not readable' });
  }
  return upstreamError(`GitHub could not be read (${what})`, error);
}

export async function readPullRequest(octokit: Octokit, ref: PullRequestRef): Promise<PullRequestMetadata> {
  try {
    const { data } = await octokit.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: ref.number });
    const owner = data.base.repo.owner;
    return {
      title: data.title,
      branch: data.head.ref,
      author: data.user?.login ?? 'ghost',
      headSha: data.head.sha,
      repositoryId: String(data.base.repo.id),
      owner: { id: owner.id, login: owner.login, kind: owner.type === 'Organization' ? 'organization' : 'user' },
    };
  } catch (error) {
    throw readFailure(error, 'pull request');
  }
}

/** Every changed file (all pages, up to GitHub's 3,000), with its patch when GitHub sends one. */
export async function listPullRequestFiles(octokit: Octokit, ref: PullRequestRef): Promise<ChangedFile[]> {
  try {
    const files = await octokit.paginate(octokit.pulls.listFiles, {
      owner: ref.owner,
      repo: ref.repo,
      pull_number: ref.number,
      per_page: 100,
    });
    return files.slice(0, MAX_FILES).map((f) => ({
      path: f.filename,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      patch: f.patch,
      previousPath: f.previous_filename,
    }));
  } catch (error) {
    throw readFailure(error, 'changed files');
  }
}
