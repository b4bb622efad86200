import type { Octokit } from '@octokit/rest';
import { AppError } from '../common/errors.js';
import { httpStatusOf } from './octokit.js';
import {
  defaultRepositoryConfig,
  type ParsedRepositoryConfig,
  parseRepositoryConfig,
  REPOSITORY_CONFIG_PATH,
} from './repository-config.js';

export interface RepositoryConfigRead extends ParsedRepositoryConfig {
  /**
   * Whether the repository has the file (a missing file is the defaults, and no error). `errors`
   * say what is wrong with it, or why it could not be read; the defaults are used in both cases.
   */
  found: boolean;
}

/**
 * A repository's `.github/redline.yml`, from its default branch unless `ref` names a commit (the
 * pushed commit, for `config.updated`). Never throws: without the file the defaults apply
 * silently; when GitHub cannot give it (a failure other than 404, after Octokit's retries) the
 * defaults apply with an error saying so, which the check run shows, so a review still runs.
 */
export async function readRepositoryConfig(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  options: { ref?: string | undefined } = {},
): Promise<RepositoryConfigRead> {
  let text: unknown;
  try {
    const response = await octokit.repos.getContent({
      owner: repo.owner,
      repo: repo.repo,
      path: REPOSITORY_CONFIG_PATH,
      ...(options.ref !== undefined ? { ref: options.ref } : {}),
      mediaType: { format: 'raw' },
    });
    text = response.data as unknown;
  } catch (error) {
    const status = httpStatusOf(error);
    if (status === 404 && !(error instanceof AppError)) {
      return { config: defaultRepositoryConfig(), errors: [], found: false };
    }
    // Rate limits arrive as our own AppError (502) whose message says what happened.
    const why =
      error instanceof AppError
        ? error.message
        : status !== undefined && Number.isFinite(status)
          ? `GitHub answered ${status}`
          : 'GitHub could not be reached';
    return { config: defaultRepositoryConfig(), errors: [`the file could not be read: ${why}`], found: false };
  }
  if (typeof text !== 'string') {
    // A directory (GitHub lists it as JSON even when raw is asked for), or a submodule.
    return {
      config: defaultRepositoryConfig(),
      errors: [`${REPOSITORY_CONFIG_PATH} is not a file`],
      found: true,
    };
  }
  return { ...parseRepositoryConfig(text), found: true };
}
