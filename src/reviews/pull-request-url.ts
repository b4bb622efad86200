import { AppError } from '../common/errors.js';

export interface PullRequestRef {
  url: string;
  owner: string;
  repo: string;
  number: number;
}

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;

/**
 * Decisions §4: `{GITHUB_SERVER_URL}/<owner>/<repo>/pull/<number>` on the configured host and
 * scheme, nothing more (no query, fragment or extra path). Anything else is 400 invalid_pr_url.
 */
export function parsePullRequestUrl(input: string, serverUrl: string): PullRequestRef {
  const invalid = (issue: string) =>
    new AppError(
      'invalid_pr_url',
      400,
      `pull_request_url ${issue}; expected ${serverUrl}/<owner>/<repo>/pull/<number>`,
      {
        details: { field: 'pull_request_url', issue },
      },
    );
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid('is not a URL');
  }
  const server = new URL(serverUrl);
  if (url.protocol !== server.protocol || url.host.toLowerCase() !== server.host.toLowerCase()) {
    throw invalid(`is not on ${server.protocol}//${server.host}`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw invalid('must not carry credentials, a query or a fragment');
  }
  const base = server.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${base}/`)) throw invalid(`is not under ${serverUrl}`);
  const parts = url.pathname
    .slice(base.length + 1)
    .replace(/\/+$/, '')
    .split('/');
  const [owner, repo, pull, number, ...rest] = parts;
  if (owner === undefined || repo === undefined || pull !== 'pull' || number === undefined || rest.length > 0) {
    throw invalid('is not a pull request address');
  }
  if (!NAME.test(owner) || !NAME.test(repo)) throw invalid('has an invalid owner or repository name');
  if (!/^[1-9]\d{0,9}$/.test(number) || Number(number) > 2_147_483_647)
    throw invalid('has an invalid pull request number');
  return { url: `${serverUrl}/${owner}/${repo}/pull/${number}`, owner, repo, number: Number(number) };
}
