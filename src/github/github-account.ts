/** A GitHub user as sign-in reads it. */
export interface GitHubAccount {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  avatarUrl: string | null;
}

/** One of a user's GitHub organization memberships. */
export interface GitHubMembership {
  organization: { id: number; login: string };
  role: 'admin' | 'member';
}
