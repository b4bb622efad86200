import { createHash, type KeyObject, randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';

/**
 * A local GitHub: a real HTTP server on 127.0.0.1 (any free port) that speaks the parts of the
 * OAuth web flow and of the REST API the service uses, so the app's own fetch and Octokit run
 * unchanged against it. It checks what GitHub checks (issued code, client credentials,
 * redirect_uri, PKCE S256), records every request it receives, and can be told to fail.
 *
 * One server holds both hosts: the web host (`serverUrl`: /login/oauth/...) at the root, and the
 * REST API under `apiBasePath`: '/api' stands for https://api.github.com (github.com form, the API
 * at the root of its own host), '/api/v3' is the GitHub Enterprise Server form.
 *
 * Repositories and pull requests (`addRepo`, `addPullRequest`) are served on
 * GET /repos/:owner/:repo/pulls/:number and GET /repos/:owner/:repo/pulls/:number/files (paginated
 * like GitHub: per_page/page and a Link header). Public repositories answer anyone, anonymous
 * callers included; a private one answers only the tokens of its owner (a user-owned repository)
 * and of the users named as its readers, and 404 to everyone else, as GitHub does. A token that
 * is sent but unknown answers 401, as GitHub does even for public data.
 *
 * A GitHub App (`setApp`, with the public half of a key pair the test generated) can be installed
 * on repositories (`installApp`). GET /repos/:owner/:repo/installation and
 * POST /app/installations/:id/access_tokens take the app's JWT, whose RS256 signature, issuer (the
 * app id) and lifetime (at most ten minutes, not yet expired, by `clock`) are checked as GitHub
 * does; anything else answers 401. The installation tokens issued there read the installation's
 * repositories (private ones included) on the repository endpoints, like a user token with read
 * access, until they expire an hour later by `clock`.
 */

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

interface IssuedCode {
  userId: number;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}

/** GitHub's authorization codes live ten minutes. */
const CODE_LIFETIME_MS = 10 * 60 * 1000;

let nextAccountId = 4_100_000;
let nextRepoId = 7_300_000;
let nextInstallationId = 5_500_000;

/** GitHub's installation tokens live one hour. */
const INSTALLATION_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

const API_REPO_CONTENTS = /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/;
const API_REPO_PULL = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)(\/files)?$/;
const API_REPO_INSTALLATION = /^\/repos\/([^/]+)\/([^/]+)\/installation$/;
const API_INSTALLATION_TOKEN = /^\/app\/installations\/(\d+)\/access_tokens$/;

/** A deterministic 40-hex commit sha from any text. */
const shaOf = (text: string) => createHash('sha1').update(text).digest('hex');

/** Generated per run: nothing here is a literal that looks like a credential. */
const randomToken = (prefix: string) => prefix + randomBytes(27).toString('base64url').replace(/[-_]/g, 'x');

export class FakeGitHub {
  readonly clientId = `Ov23li${randomBytes(7).toString('hex')}`;
  readonly clientSecret = randomBytes(20).toString('hex');
  readonly apiBasePath: string;
  /** Largest page the list endpoints serve; lower it to make clients follow Link headers. */
  maxPerPage = 100;
  /** Every request received, oldest first (failed and unknown ones included). */
  readonly requests: RecordedRequest[] = [];
  /** Access tokens issued by the token endpoint, oldest first, with their user and scope. */
  readonly issuedTokens: { token: string; userId: number; scope: string }[] = [];
  /** Installation access tokens issued to the app, oldest first. */
  readonly issuedInstallationTokens: FakeInstallationToken[] = [];
  /**
   * GitHub's time for the app's JWTs and installation tokens (not for OAuth codes); tests that move
   * the service's clock point this at it, so both sides agree on expiry.
   */
  clock: () => Date = () => new Date();
  /** The GitHub App, once `setApp` was called. */
  app: FakeApp | undefined;

  readonly #server: Server;
  readonly #users = new Map<number, FakeUser>();
  readonly #codes = new Map<string, IssuedCode>();
  readonly #failures = new Map<FakeEndpoint, FakeFailure>();
  /** By lower-cased `owner/name`: GitHub's names are case-insensitive. */
  readonly #repos = new Map<string, FakeRepo>();
  readonly #installations = new Map<number, FakeInstallation>();

  private constructor(server: Server, options: FakeGitHubOptions) {
    this.#server = server;
    this.apiBasePath = (options.apiBasePath ?? '/api').replace(/\/+$/, '');
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
    const server = createServer();
    const fake = new FakeGitHub(server, options);
    server.on('request', (req, res) => {
      fake.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) fake.#json(res, 500, { message: `fake GitHub failed: ${String(error)}` });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get serverUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get apiUrl(): string {
    return this.serverUrl + this.apiBasePath;
  }

  /** The service's environment variables that point it at this fake, OAuth app included. */
  env(): Record<string, string> {
    return {
      GITHUB_CLIENT_ID: this.clientId,
      GITHUB_CLIENT_SECRET: this.clientSecret,
      GITHUB_SERVER_URL: this.serverUrl,
      GITHUB_API_URL: this.apiUrl,
    };
  }

  addUser(fields: Partial<FakeUser> & { login: string }): FakeUser {
    const id = fields.id ?? nextAccountId++;
    const user: FakeUser = {
      id,
      name: null,
      email: `${fields.login}@users.example.test`,
      avatar_url: `https://avatars.example.test/u/${id}?v=4`,
      emails: [],
      memberships: [],
      ...fields,
    };
    this.#users.set(user.id, user);
    return user;
  }

  addOrg(login: string): FakeOrg {
    return { id: nextAccountId++, login };
  }

  /**
   * A repository owned by a GitHub user or organization (`FakeUser` or `FakeOrg`; a FakeUser owns a
   * personal repository). Private ones are readable only by the owner and the `readers` given.
   */
  addRepo(
    owner: FakeUser | FakeOrg,
    name: string,
    options: { private?: boolean; readers?: FakeUser[]; id?: number } = {},
  ): FakeRepo {
    const isUser = this.#users.get(owner.id) === owner;
    const repo: FakeRepo = {
      id: options.id ?? nextRepoId++,
      name,
      owner: { id: owner.id, login: owner.login, type: isUser ? 'User' : 'Organization' },
      private: options.private ?? false,
      readers: new Set((options.readers ?? []).map((u) => u.id)),
      pulls: new Map(),
    };
    this.#repos.set(`${owner.login}/${name}`.toLowerCase(), repo);
    return repo;
  }

  /** A pull request of `repo`; `number` defaults to the next free one, files to none. */
  addPullRequest(repo: FakeRepo, fields: Partial<FakePullRequest> = {}): FakePullRequest {
    const number = fields.number ?? Math.max(0, ...repo.pulls.keys()) + 1;
    const pull: FakePullRequest = {
      number,
      title: `Change #${number}`,
      state: 'open',
      head: { ref: `feature-${number}`, sha: shaOf(`${repo.id}/${number}/head`) },
      base: { ref: 'main', sha: shaOf(`${repo.id}/${number}/base`) },
      user: { id: repo.owner.id, login: repo.owner.login },
      files: [],
      ...fields,
    };
    repo.pulls.set(number, pull);
    return pull;
  }

  /** Registers the GitHub App: its JWTs must be signed by the private half of `publicKey`. */
  setApp(app: FakeApp): FakeApp {
    this.app = app;
    return app;
  }

  /** Installs the app on `repos` (one installation); add or remove repositories through `repositoryIds`. */
  installApp(repos: FakeRepo[]): FakeInstallation {
    const installation: FakeInstallation = { id: nextInstallationId++, repositoryIds: new Set(repos.map((r) => r.id)) };
    this.#installations.set(installation.id, installation);
    return installation;
  }

  /** Uninstalls the app: GitHub revokes the installation's tokens at once. */
  uninstallApp(installation: FakeInstallation): void {
    this.#installations.delete(installation.id);
  }

  /** The web address of a pull request on this fake's server (what `pull_request_url` carries). */
  pullRequestUrl(repo: FakeRepo, pull: FakePullRequest | number): string {
    const number = typeof pull === 'number' ? pull : pull.number;
    return `${this.serverUrl}/${repo.owner.login}/${repo.name}/pull/${number}`;
  }

  /**
   * The browser step: the user, signed in at GitHub, approves the app on the authorization URL
   * the service sent them to. Checks that URL as GitHub would, binds a fresh code to its
   * client_id, redirect_uri and code_challenge, and returns where GitHub would redirect.
   */
  authorize(authorizationUrl: string | URL, user: FakeUser): { code: string; state: string; callback: URL } {
    const url = new URL(authorizationUrl);
    const q = url.searchParams;
    const problems = [
      url.origin !== this.serverUrl && `origin ${url.origin} is not ${this.serverUrl}`,
      url.pathname !== '/login/oauth/authorize' && `path ${url.pathname}`,
      q.get('client_id') !== this.clientId && 'unknown client_id',
      !q.get('redirect_uri') && 'no redirect_uri',
      !q.get('state') && 'no state',
      !/^[A-Za-z0-9_-]{43}$/.test(q.get('code_challenge') ?? '') && 'code_challenge is not a base64url SHA-256',
      q.get('code_challenge_method') !== 'S256' && 'code_challenge_method is not S256',
      !this.#users.has(user.id) && `user ${user.login} is not known to this fake`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`fake GitHub refuses to authorize: ${problems.join('; ')}`);
    const code = randomBytes(10).toString('hex');
    this.#codes.set(code, {
      userId: user.id,
      clientId: q.get('client_id') ?? '',
      redirectUri: q.get('redirect_uri') ?? '',
      codeChallenge: q.get('code_challenge') ?? '',
      scope: (q.get('scope') ?? '')
        .split(/[\s,]+/)
        .filter(Boolean)
        .join(','),
      expiresAt: Date.now() + CODE_LIFETIME_MS,
      used: false,
    });
    const state = q.get('state') ?? '';
    const callback = new URL(q.get('redirect_uri') ?? '');
    callback.search = new URLSearchParams({ code, state }).toString();
    return { code, state, callback };
  }

  /** Makes an endpoint fail (`times` requests, or until cleared / reset). */
  fail(endpoint: FakeEndpoint, failure: FakeFailure): void {
    this.#failures.set(endpoint, failure);
  }

  clearFailure(endpoint: FakeEndpoint): void {
    this.#failures.delete(endpoint);
  }

  requestsTo(endpoint: FakeEndpoint): RecordedRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  /** Forgets recorded requests and failures and restores maxPerPage (users, repositories, codes and tokens stay). */
  reset(): void {
    this.requests.length = 0;
    this.#failures.clear();
    this.maxPerPage = 100;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.#server.close((e) => (e ? reject(e) : resolve())));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.serverUrl);
    const method = req.method ?? 'GET';
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const endpoint = this.#route(method, url.pathname);
    this.requests.push({
      method,
      path: url.pathname,
      endpoint,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      form: isForm ? Object.fromEntries(new URLSearchParams(body)) : undefined,
    });

    if (endpoint === undefined) return this.#json(res, 404, { message: 'Not Found' });
    if (this.#injectFailure(endpoint, res)) return;
    if (endpoint === 'access_token') return this.#accessToken(req, res, isForm ? new URLSearchParams(body) : null);
    if (endpoint === 'pull' || endpoint === 'pull_files') return this.#pullRequest(req, res, url, endpoint);
    if (endpoint === 'contents') return this.#contents(req, res, url);
    if (endpoint === 'app_installation' || endpoint === 'installation_token') {
      return this.#appEndpoint(req, res, url, endpoint);
    }

    const user = this.#authenticated(req);
    if (user === undefined) {
      return this.#json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    if (endpoint === 'user') return this.#json(res, 200, this.#userJson(user));
    if (endpoint === 'emails') return this.#page(res, url, user.emails);
    const wanted = url.searchParams.get('state');
    const memberships = user.memberships
      .filter((m) => wanted === null || (m.state ?? 'active') === wanted)
      .map((m) => ({
        url: `${this.apiUrl}/orgs/${m.organization.login}/memberships/${user.login}`,
        state: m.state ?? 'active',
        role: m.role,
        organization_url: `${this.apiUrl}/orgs/${m.organization.login}`,
        organization: {
          login: m.organization.login,
          id: m.organization.id,
          url: `${this.apiUrl}/orgs/${m.organization.login}`,
        },
        user: { login: user.login, id: user.id },
      }));
    return this.#page(res, url, memberships);
  }

  #route(method: string, path: string): FakeEndpoint | undefined {
    if (method === 'POST' && path === '/login/oauth/access_token') return 'access_token';
    if (!path.startsWith(`${this.apiBasePath}/`)) return undefined;
    const apiPath = path.slice(this.apiBasePath.length);
    if (method === 'POST' && API_INSTALLATION_TOKEN.test(apiPath)) return 'installation_token';
    if (method !== 'GET') return undefined;
    if (API_REPO_INSTALLATION.test(apiPath)) return 'app_installation';
    if (apiPath === '/user') return 'user';
    if (apiPath === '/user/emails') return 'emails';
    if (apiPath === '/user/memberships/orgs') return 'memberships';
    const pull = API_REPO_PULL.exec(apiPath);
    if (pull) return pull[4] ? 'pull_files' : 'pull';
    if (API_REPO_CONTENTS.test(apiPath)) return 'contents';
    return undefined;
  }

  /** GET /repos/:owner/:repo/contents/:path?ref=: the raw text of a pull request's file at its head. */
  #contents(req: IncomingMessage, res: ServerResponse, url: URL) {
    const user = this.#reader(req);
    const [, owner = '', name = '', filePath = ''] =
      API_REPO_CONTENTS.exec(url.pathname.slice(this.apiBasePath.length)) ?? [];
    const repo = this.#repos.get(`${decodeURIComponent(owner)}/${decodeURIComponent(name)}`.toLowerCase());
    const ref = url.searchParams.get('ref');
    const wanted = decodeURIComponent(filePath);
    const file =
      repo !== undefined && this.#canRead(repo, user)
        ? [...repo.pulls.values()]
            .filter((p) => p.head.sha === ref)
            .flatMap((p) => p.files)
            .find((f) => f.filename === wanted && f.content !== undefined)
        : undefined;
    if (file?.content === undefined) return this.#json(res, 404, { message: 'Not Found', status: '404' });
    res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
    res.end(file.content);
  }

  /** GET /repos/:owner/:repo/pulls/:number[/files], anonymous or with a token. */
  #pullRequest(req: IncomingMessage, res: ServerResponse, url: URL, endpoint: 'pull' | 'pull_files') {
    const sentCredential = req.headers.authorization !== undefined;
    const user = this.#reader(req);
    if (sentCredential && user === undefined) {
      return this.#json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    const notFound = () =>
      this.#json(res, 404, {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest/pulls/pulls',
        status: '404',
      });
    const [, owner = '', name = '', number = ''] =
      API_REPO_PULL.exec(url.pathname.slice(this.apiBasePath.length)) ?? [];
    const repo = this.#repos.get(`${decodeURIComponent(owner)}/${decodeURIComponent(name)}`.toLowerCase());
    if (repo === undefined || !this.#canRead(repo, user)) return notFound();
    const pull = repo.pulls.get(Number(number));
    if (pull === undefined) return notFound();
    if (endpoint === 'pull') return this.#json(res, 200, this.#pullJson(repo, pull));
    const files = pull.files.map((f) => ({
      sha: shaOf(`${repo.id}/${pull.number}/${f.filename}`),
      filename: f.filename,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      changes: f.additions + f.deletions,
      blob_url: `${this.serverUrl}/${repo.owner.login}/${repo.name}/blob/${pull.head.sha}/${f.filename}`,
      raw_url: `${this.serverUrl}/${repo.owner.login}/${repo.name}/raw/${pull.head.sha}/${f.filename}`,
      contents_url: `${this.apiUrl}/repos/${repo.owner.login}/${repo.name}/contents/${f.filename}?ref=${pull.head.sha}`,
      ...(f.patch !== undefined ? { patch: f.patch } : {}),
      ...(f.previous_filename !== undefined ? { previous_filename: f.previous_filename } : {}),
    }));
    return this.#page(res, url, files);
  }

  #canRead(repo: FakeRepo, user: FakeUser | FakeInstallation | undefined): boolean {
    if (!repo.private) return true;
    if (user === undefined) return false;
    if ('repositoryIds' in user) return user.repositoryIds.has(repo.id);
    return (repo.owner.type === 'User' && repo.owner.id === user.id) || repo.readers.has(user.id);
  }

  #repoJson(repo: FakeRepo) {
    const fullName = `${repo.owner.login}/${repo.name}`;
    return {
      id: repo.id,
      node_id: `R_${Buffer.from(String(repo.id)).toString('base64url')}`,
      name: repo.name,
      full_name: fullName,
      private: repo.private,
      visibility: repo.private ? 'private' : 'public',
      owner: {
        login: repo.owner.login,
        id: repo.owner.id,
        type: repo.owner.type,
        url: `${this.apiUrl}/users/${repo.owner.login}`,
        html_url: `${this.serverUrl}/${repo.owner.login}`,
        site_admin: false,
      },
      html_url: `${this.serverUrl}/${fullName}`,
      url: `${this.apiUrl}/repos/${fullName}`,
    };
  }

  #pullJson(repo: FakeRepo, pull: FakePullRequest) {
    const repoJson = this.#repoJson(repo);
    const additions = pull.files.reduce((n, f) => n + f.additions, 0);
    const deletions = pull.files.reduce((n, f) => n + f.deletions, 0);
    return {
      url: `${repoJson.url}/pulls/${pull.number}`,
      id: repo.id * 1000 + pull.number,
      html_url: `${repoJson.html_url}/pull/${pull.number}`,
      number: pull.number,
      state: pull.state,
      title: pull.title,
      user: { login: pull.user.login, id: pull.user.id, type: 'User', site_admin: false },
      body: null,
      draft: false,
      merged: false,
      head: {
        label: `${repo.owner.login}:${pull.head.ref}`,
        ref: pull.head.ref,
        sha: pull.head.sha,
        user: repoJson.owner,
        repo: repoJson,
      },
      base: {
        label: `${repo.owner.login}:${pull.base.ref}`,
        ref: pull.base.ref,
        sha: pull.base.sha,
        user: repoJson.owner,
        repo: repoJson,
      },
      additions,
      deletions,
      changed_files: pull.files.length,
      commits: 1,
    };
  }

  #injectFailure(endpoint: FakeEndpoint, res: ServerResponse): boolean {
    const failure = this.#failures.get(endpoint);
    if (failure === undefined) return false;
    if (failure.times !== undefined) {
      if (failure.times <= 1) this.#failures.delete(endpoint);
      else failure.times -= 1;
    }
    if ('drop' in failure) {
      res.socket?.destroy();
      return true;
    }
    if ('hang' in failure) return true;
    const text =
      typeof failure.body === 'string' ? failure.body : JSON.stringify(failure.body ?? { message: 'Server Error' });
    res.writeHead(failure.status, {
      'content-type': typeof failure.body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
      ...failure.headers,
    });
    res.end(text);
    return true;
  }

  /** POST /login/oauth/access_token: GitHub answers 200 even for refusals, with `error` in the body. */
  #accessToken(req: IncomingMessage, res: ServerResponse, form: URLSearchParams | null) {
    const wantsJson = (req.headers.accept ?? '').includes('application/json');
    const answer = (fields: Record<string, string>) => {
      if (wantsJson) return this.#json(res, 200, fields);
      res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
      res.end(new URLSearchParams(fields).toString());
    };
    const refuse = (error: string, description: string) => answer({ error, error_description: description });
    const field = (name: string) => form?.get(name) ?? '';

    if (field('client_id') !== this.clientId || field('client_secret') !== this.clientSecret) {
      return refuse('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
    }
    const issued = this.#codes.get(field('code'));
    if (issued === undefined || issued.used || issued.expiresAt <= Date.now()) {
      return refuse('bad_verification_code', 'The code passed is incorrect or expired.');
    }
    if (field('redirect_uri') !== issued.redirectUri) {
      return refuse(
        'redirect_uri_mismatch',
        'The redirect_uri MUST match the registered callback URL for this application.',
      );
    }
    const challenge = createHash('sha256').update(field('code_verifier')).digest('base64url');
    if (challenge !== issued.codeChallenge) {
      return refuse('bad_verification_code', 'The code_verifier does not match the code_challenge.');
    }
    issued.used = true;
    const token = randomToken('gh' + 'o_');
    this.issuedTokens.push({ token, userId: issued.userId, scope: issued.scope });
    return answer({ access_token: token, token_type: 'bearer', scope: issued.scope });
  }

  /** Accepts `Authorization: token X` and `Bearer X`, as GitHub does. */
  #authenticated(req: IncomingMessage): FakeUser | undefined {
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const issued = this.issuedTokens.find((t) => t.token === match?.[1]);
    return issued === undefined ? undefined : this.#users.get(issued.userId);
  }

  /** Who reads a repository endpoint: a user's token, or an installation's unexpired token. */
  #reader(req: IncomingMessage): FakeUser | FakeInstallation | undefined {
    const user = this.#authenticated(req);
    if (user !== undefined) return user;
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const issued = this.issuedInstallationTokens.find((t) => t.token === match?.[1]);
    if (issued === undefined || issued.expiresAt.getTime() <= this.clock().getTime()) return undefined;
    return this.#installations.get(issued.installationId);
  }

  /** Checks the app's JWT as GitHub does; the reason it is refused, or undefined when it is good. */
  async #appJwtProblem(req: IncomingMessage): Promise<string | undefined> {
    const app = this.app;
    if (app === undefined) return 'no GitHub App is registered with this fake';
    const match = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (match?.[1] === undefined) return 'no Bearer JWT';
    const now = this.clock();
    try {
      const { payload } = await jwtVerify(match[1], app.publicKey, { algorithms: ['RS256'], currentDate: now });
      const seconds = Math.floor(now.getTime() / 1000);
      if (String(payload.iss) !== String(app.id)) return `iss ${String(payload.iss)} is not the app id`;
      if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return 'iat and exp are required';
      if (payload.iat > seconds + 60)
        return "'Issued at' claim (iat) must be an Integer representing a time in the past";
      if (payload.exp > seconds + 600) return "'Expiration time' claim (exp) is too far in the future";
      return undefined;
    } catch (error) {
      return `A JSON web token could not be decoded (${(error as Error).message})`;
    }
  }

  /** GET /repos/:owner/:repo/installation and POST /app/installations/:id/access_tokens, with the app's JWT. */
  async #appEndpoint(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    endpoint: 'app_installation' | 'installation_token',
  ) {
    const problem = await this.#appJwtProblem(req);
    if (problem !== undefined) {
      return this.#json(res, 401, { message: problem, documentation_url: 'https://docs.github.com/rest' });
    }
    const apiPath = url.pathname.slice(this.apiBasePath.length);
    const notFound = () => this.#json(res, 404, { message: 'Not Found', status: '404' });
    if (endpoint === 'app_installation') {
      const [, owner = '', name = ''] = API_REPO_INSTALLATION.exec(apiPath) ?? [];
      const repo = this.#repos.get(`${decodeURIComponent(owner)}/${decodeURIComponent(name)}`.toLowerCase());
      const installation =
        repo === undefined ? undefined : [...this.#installations.values()].find((i) => i.repositoryIds.has(repo.id));
      if (repo === undefined || installation === undefined) return notFound();
      return this.#json(res, 200, {
        id: installation.id,
        app_id: this.app?.id,
        account: { login: repo.owner.login, id: repo.owner.id, type: repo.owner.type },
        repository_selection: 'selected',
        access_tokens_url: `${this.apiUrl}/app/installations/${installation.id}/access_tokens`,
        permissions: { contents: 'read', metadata: 'read', pull_requests: 'write' },
      });
    }
    const installation = this.#installations.get(Number(API_INSTALLATION_TOKEN.exec(apiPath)?.[1]));
    if (installation === undefined) return notFound();
    const issued: FakeInstallationToken = {
      token: randomToken('gh' + 's_'),
      installationId: installation.id,
      expiresAt: new Date(this.clock().getTime() + INSTALLATION_TOKEN_LIFETIME_MS),
    };
    this.issuedInstallationTokens.push(issued);
    return this.#json(res, 201, {
      token: issued.token,
      expires_at: issued.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      permissions: { contents: 'read', metadata: 'read', pull_requests: 'write' },
      repository_selection: 'selected',
    });
  }

  #userJson(user: FakeUser) {
    return {
      login: user.login,
      id: user.id,
      node_id: `U_${Buffer.from(String(user.id)).toString('base64url')}`,
      avatar_url: user.avatar_url,
      url: `${this.apiUrl}/users/${user.login}`,
      html_url: `${this.serverUrl}/${user.login}`,
      type: 'User',
      site_admin: false,
      name: user.name,
      email: user.email,
    };
  }

  /** GitHub pagination: `per_page` (default 30, capped) and `page`, with a Link header to the others. */
  #page(res: ServerResponse, url: URL, items: unknown[]) {
    const perPage = Math.min(Number(url.searchParams.get('per_page')) || 30, this.maxPerPage, 100);
    const page = Math.max(Number(url.searchParams.get('page')) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (n: number, rel: string) => {
      const target = new URL(url);
      target.searchParams.set('per_page', String(perPage));
      target.searchParams.set('page', String(n));
      return `<${target}>; rel="${rel}"`;
    };
    const links = [
      page > 1 && link(page - 1, 'prev'),
      page < last && link(page + 1, 'next'),
      page < last && link(last, 'last'),
      page > 1 && link(1, 'first'),
    ].filter((l): l is string => typeof l === 'string');
    this.#json(
      res,
      200,
      items.slice((page - 1) * perPage, page * perPage),
      links.length ? { link: links.join(', ') } : {},
    );
  }

  #json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-media-type': 'github.v3; format=json',
      ...headers,
    });
    res.end(JSON.stringify(body));
  }
}

/** A URL where nothing listens (a port just freed), for "GitHub is unreachable". */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
