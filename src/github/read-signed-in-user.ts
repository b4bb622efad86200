import { Octokit } from '@octokit/rest';
import { unauthorized, upstreamError } from '../shared/errors.js';
import type { GitHubAccount, GitHubMembership } from './github-account.js';

export interface SignedInUser {
  account: GitHubAccount;
  /** Undefined when GitHub would not list them (no read:org); memberships are then left as they were. */
  memberships: GitHubMembership[] | undefined;
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;
}

/** Each GitHub call gets as long as the code exchange (oauth-client.ts): a hung GitHub must not hang sign-in. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Octokit's default logger writes every failed call to the console (console.error), outside the
 * service's structured log, even for answers handled here (a 403 on memberships). Failures that
 * matter reach the client and the log as AppErrors instead.
 */
const quietLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The user behind an access token, their e-mail (also when private) and organization memberships. */
export async function readSignedInUser(apiUrl: string, token: string, fetchImpl: typeof fetch): Promise<SignedInUser> {
  const timedFetch: typeof fetch = (input, init) =>
    fetchImpl(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const octokit = new Octokit({ auth: token, baseUrl: apiUrl, log: quietLog, request: { fetch: timedFetch } });
  let user: Awaited<ReturnType<typeof octokit.users.getAuthenticated>>['data'];
  try {
    user = (await octokit.users.getAuthenticated()).data;
  } catch (error) {
    if (statusOf(error) === 401) throw unauthorized('GitHub rejected the access token');
    throw upstreamError('GitHub could not be read to complete sign-in', error);
  }

  let email = user.email ?? null;
  if (email === null) {
    try {
      const emails = (await octokit.users.listEmailsForAuthenticatedUser({ per_page: 100 })).data;
      email = (emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified))?.email ?? null;
    } catch {
      // Without the user:email grant the address stays unknown; sign-in still works.
    }
  }

  let memberships: GitHubMembership[] | undefined;
  try {
    const listed = await octokit.paginate(octokit.orgs.listMembershipsForAuthenticatedUser, {
      state: 'active',
      per_page: 100,
    });
    memberships = listed.map((m) => ({
      organization: { id: m.organization.id, login: m.organization.login },
      role: m.role === 'admin' ? 'admin' : 'member',
    }));
  } catch {
    memberships = undefined;
  }

  return {
    account: {
      id: user.id,
      login: user.login,
      name: user.name ?? null,
      email,
      avatarUrl: user.avatar_url ?? null,
    },
    memberships,
  };
}
