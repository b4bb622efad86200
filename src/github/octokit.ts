import { Octokit } from '@octokit/rest';

/** A hung GitHub must not hang a sign-in or a review: each call gets this long. */
export const GITHUB_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Octokit's default logger writes every failed call to the console, outside the service's
 * structured log, even for answers we handle (a 403 on memberships). Failures that matter reach
 * the client and the log as AppErrors instead.
 */
const quietLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * The one way we make an Octokit: GITHUB_API_URL as base (Enterprise Server too), the injected
 * fetch (tests aim it at fakes) with a time limit per call, and no console logging.
 */
export function createOctokit(options: { apiUrl: string; token?: string | undefined; fetch: typeof fetch }): Octokit {
  const timedFetch: typeof fetch = (input, init) =>
    options.fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(GITHUB_REQUEST_TIMEOUT_MS) });
  return new Octokit({
    ...(options.token !== undefined ? { auth: options.token } : {}),
    baseUrl: options.apiUrl,
    log: quietLog,
    request: { fetch: timedFetch },
  });
}

export function httpStatusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;
}
