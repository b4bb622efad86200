/** A call to GitHub's API that failed, worded for the job summary and the step's log. */
export class GithubApiError extends Error {
  constructor(
    readonly what: string,
    readonly status: number | undefined,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`GitHub ${status === undefined ? 'failed' : `answered ${status}`} when ${what}: ${reason}${hint(status)}`, {
      cause,
    });
    this.name = 'GithubApiError';
  }
}

function hint(status: number | undefined): string {
  if (status === 401) return ' (the github-token input is not a valid token)';
  if (status === 403 || status === 404) {
    return ' (the token needs `pull-requests: write`, and a read-only token cannot post: see docs/ci-action.md)';
  }
  return '';
}

/**
 * The HTTP status GitHub answered, if it answered: Octokit's RequestError says 500 for a request
 * that never got an answer too (a dropped connection), and then has no response.
 */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { response?: { status?: unknown } } | null)?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Runs one GitHub call, turning its failure into a GithubApiError naming `what` it was doing. */
export async function githubCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new GithubApiError(what, statusOf(error), error);
  }
}
