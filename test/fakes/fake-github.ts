import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appEndpoint } from './fake-github-app.js';
import { injectFailure, json, page } from './fake-github-http.js';
import { accessToken, authenticated, userJson } from './fake-github-oauth.js';
import { contents, pullRequest } from './fake-github-pulls.js';
import {
  API_INSTALLATION_TOKEN,
  API_REPO_CONTENTS,
  API_REPO_INSTALLATION,
  API_REPO_PULL,
  CODE_LIFETIME_MS,
  FakeGitHubStore,
  shaOf,
} from './fake-github-store.js';
import type {
  FakeApp,
  FakeEndpoint,
  FakeFailure,
  FakeGitHubOptions,
  FakeInstallation,
  FakeInstallationToken,
  FakeOrg,
  FakePullRequest,
  FakeRepo,
  FakeUser,
  RecordedRequest,
} from './fake-github-types.js';

export type {
  FakeApp,
  FakeEmail,
  FakeEndpoint,
  FakeFailure,
  FakeGitHubOptions,
  FakeInstallation,
  FakeInstallationToken,
  FakeMembership,
  FakeOrg,
  FakePullFile,
  FakePullRequest,
  FakeRepo,
  FakeUser,
  RecordedRequest,
} from './fake-github-types.js';

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
 *
 * Beside this file: the types (fake-github-types.ts), the state the fake keeps to itself
 * (fake-github-store.ts), and the routes: the OAuth token endpoint and the user (fake-github-oauth.ts),
 * repositories, pull requests and contents (fake-github-pulls.ts), the app's installations and tokens
 * (fake-github-app.ts), and JSON, pagination and injected failures (fake-github-http.ts).
 */

let nextAccountId = 4_100_000;
let nextRepoId = 7_300_000;
let nextInstallationId = 5_500_000;

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
  readonly #store = new FakeGitHubStore();

  private constructor(server: Server, options: FakeGitHubOptions) {
    this.#server = server;
    this.apiBasePath = (options.apiBasePath ?? '/api').replace(/\/+$/, '');
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
    const server = createServer();
    const fake = new FakeGitHub(server, options);
    server.on('request', (req, res) => {
      fake.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { message: `fake GitHub failed: ${String(error)}` });
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
    this.#store.users.set(user.id, user);
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
    const isUser = this.#store.users.get(owner.id) === owner;
    const repo: FakeRepo = {
      id: options.id ?? nextRepoId++,
      name,
      owner: { id: owner.id, login: owner.login, type: isUser ? 'User' : 'Organization' },
      private: options.private ?? false,
      readers: new Set((options.readers ?? []).map((u) => u.id)),
      pulls: new Map(),
    };
    this.#store.repos.set(`${owner.login}/${name}`.toLowerCase(), repo);
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
    this.#store.installations.set(installation.id, installation);
    return installation;
  }

  /** Uninstalls the app: GitHub revokes the installation's tokens at once. */
  uninstallApp(installation: FakeInstallation): void {
    this.#store.installations.delete(installation.id);
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
      !this.#store.users.has(user.id) && `user ${user.login} is not known to this fake`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`fake GitHub refuses to authorize: ${problems.join('; ')}`);
    const code = randomBytes(10).toString('hex');
    this.#store.codes.set(code, {
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
    this.#store.failures.set(endpoint, failure);
  }

  clearFailure(endpoint: FakeEndpoint): void {
    this.#store.failures.delete(endpoint);
  }

  requestsTo(endpoint: FakeEndpoint): RecordedRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  /** Forgets recorded requests and failures and restores maxPerPage (users, repositories, codes and tokens stay). */
  reset(): void {
    this.requests.length = 0;
    this.#store.failures.clear();
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

    if (endpoint === undefined) return json(res, 404, { message: 'Not Found' });
    if (injectFailure(this.#store, endpoint, res)) return;
    if (endpoint === 'access_token')
      return accessToken(this, this.#store, req, res, isForm ? new URLSearchParams(body) : null);
    if (endpoint === 'pull' || endpoint === 'pull_files')
      return pullRequest(this, this.#store, req, res, url, endpoint);
    if (endpoint === 'contents') return contents(this, this.#store, req, res, url);
    if (endpoint === 'app_installation' || endpoint === 'installation_token') {
      return appEndpoint(this, this.#store, req, res, url, endpoint);
    }

    const user = authenticated(this, this.#store, req);
    if (user === undefined) {
      return json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    if (endpoint === 'user') return json(res, 200, userJson(this, user));
    if (endpoint === 'emails') return page(this, res, url, user.emails);
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
    return page(this, res, url, memberships);
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
}

/** A URL where nothing listens (a port just freed), for "GitHub is unreachable". */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
