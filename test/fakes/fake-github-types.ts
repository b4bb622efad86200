import type { KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface FakeEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility: 'public' | 'private' | null;
}

export interface FakeOrg {
  id: number;
  login: string;
}

export interface FakeMembership {
  organization: FakeOrg;
  role: 'admin' | 'member';
  state?: 'active' | 'pending';
}

/** Mutable on purpose: a test renames a user or drops a membership, then signs in again. */
export interface FakeUser {
  id: number;
  login: string;
  name: string | null;
  /** The public profile e-mail; null when the user keeps it private. */
  email: string | null;
  avatar_url: string;
  emails: FakeEmail[];
  memberships: FakeMembership[];
}

export type FakeEndpoint =
  | 'access_token'
  | 'user'
  | 'emails'
  | 'memberships'
  | 'pull'
  | 'pull_files'
  | 'contents'
  | 'app_installation'
  | 'installation_token';

/** The GitHub App the service authenticates as: its id and the public half of its key. */
export interface FakeApp {
  id: number;
  publicKey: KeyObject;
}

/** Mutable on purpose: a test adds or removes repositories from an installation. */
export interface FakeInstallation {
  id: number;
  /** Ids of the repositories the app is installed on through this installation. */
  repositoryIds: Set<number>;
}

/** An installation access token as issued by POST /app/installations/:id/access_tokens. */
export interface FakeInstallationToken {
  token: string;
  installationId: number;
  expiresAt: Date;
}

/** One entry of GET /repos/:owner/:repo/pulls/:number/files. */
export interface FakePullFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  additions: number;
  deletions: number;
  /** Left out of the answer when undefined (GitHub omits it for binary and very large diffs). */
  patch?: string;
  /** Only for renamed (and copied) files. */
  previous_filename?: string;
  /** The file's text at the head commit, served by GET /repos/:owner/:repo/contents/:path?ref=<head sha>. */
  content?: string;
}

/** Mutable on purpose: a test adds files or retitles a pull request between calls. */
export interface FakePullRequest {
  number: number;
  title: string;
  state: 'open' | 'closed';
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  /** The pull request's author (`user` in GitHub's answer). */
  user: { id: number; login: string };
  files: FakePullFile[];
}

/** Mutable on purpose: a test makes a repository private, or grants or takes back read access. */
export interface FakeRepo {
  id: number;
  name: string;
  owner: { id: number; login: string; type: 'User' | 'Organization' };
  private: boolean;
  /** GitHub user ids that may read the repository when it is private (its owner always may). */
  readers: Set<number>;
  pulls: Map<number, FakePullRequest>;
}

/** An injected failure: an HTTP answer of the fake's choosing, or a connection dropped without one. */
export type FakeFailure =
  | { status: number; body?: unknown; headers?: Record<string, string>; times?: number }
  | { drop: true; times?: number }
  /** Never answers (a GitHub that hangs): the request stays open until the client gives up or the fake closes. */
  | { hang: true; times?: number };

export interface RecordedRequest {
  method: string;
  /** Path without the query, from the server root (e.g. '/api/v3/user'). */
  path: string;
  /** Which fake endpoint answered, if any. */
  endpoint: FakeEndpoint | undefined;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as application/x-www-form-urlencoded, when it was sent as that. */
  form: Record<string, string> | undefined;
}

export interface FakeGitHubOptions {
  /** '/api' (github.com form, default), '/api/v3' (Enterprise Server) or '' (API at the root). */
  apiBasePath?: string;
}

export interface IssuedCode {
  userId: number;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}
