import { unauthorized, upstreamError } from '../common/errors.js';
import type { GitHubAccount, GitHubMembership } from './github-account.js';
import { createOctokit, httpStatusOf } from './octokit.js';

export interface SignedInUser {
  account: GitHubAccount;
  /** Undefined when GitHub would not list them (no read:org); memberships are then left as they were. */
  memberships: GitHubMembership[] | undefined;
}

/** The user behind an access token, their e-mail (also when private) and organization memberships. */
export async function readSignedInUser(apiUrl: string, token: string, fetchImpl: typeof fetch): Promise<SignedInUser> {
  const octokit = createOctokit({ apiUrl, token, fetch: fetchImpl });
  let user: Awaited<ReturnType<typeof octokit.users.getAuthenticated>>['data'];
  try {
    user = (await octokit.users.getAuthenticated()).data;
  } catch (error) {
    if (httpStatusOf(error) === 401) throw unauthorized('GitHub rejected the access token');
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
