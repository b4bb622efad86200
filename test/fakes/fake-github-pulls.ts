import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeGitHub } from './fake-github.js';
import { json, page } from './fake-github-http.js';
import { authenticated } from './fake-github-oauth.js';
import { API_REPO_CONTENTS, API_REPO_PULL, type FakeGitHubStore, shaOf } from './fake-github-store.js';
import type { FakeInstallation, FakePullRequest, FakeRepo, FakeUser } from './fake-github-types.js';

/** GET /repos/:owner/:repo/contents/:path?ref=: the raw text of a pull request's file at its head. */
export function contents(
  fake: FakeGitHub,
  store: FakeGitHubStore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const user = reader(fake, store, req);
  const [, owner = '', name = '', filePath = ''] =
    API_REPO_CONTENTS.exec(url.pathname.slice(fake.apiBasePath.length)) ?? [];
  const repo = store.repos.get(`${decodeURIComponent(owner)}/${decodeURIComponent(name)}`.toLowerCase());
  const ref = url.searchParams.get('ref');
  const wanted = decodeURIComponent(filePath);
  const file =
    repo !== undefined && canRead(repo, user)
      ? [...repo.pulls.values()]
          .filter((p) => p.head.sha === ref)
          .flatMap((p) => p.files)
          .find((f) => f.filename === wanted && f.content !== undefined)
      : undefined;
  if (file?.content === undefined) return json(res, 404, { message: 'Not Found', status: '404' });
  res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
  res.end(file.content);
}

/** GET /repos/:owner/:repo/pulls/:number[/files], anonymous or with a token. */
export function pullRequest(
  fake: FakeGitHub,
  store: FakeGitHubStore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  endpoint: 'pull' | 'pull_files',
) {
  const sentCredential = req.headers.authorization !== undefined;
  const user = reader(fake, store, req);
  if (sentCredential && user === undefined) {
    return json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
  }
  const notFound = () =>
    json(res, 404, {
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/pulls/pulls',
      status: '404',
    });
  const [, owner = '', name = '', number = ''] = API_REPO_PULL.exec(url.pathname.slice(fake.apiBasePath.length)) ?? [];
  const repo = store.repos.get(`${decodeURIComponent(owner)}/${decodeURIComponent(name)}`.toLowerCase());
  if (repo === undefined || !canRead(repo, user)) return notFound();
  const pull = repo.pulls.get(Number(number));
  if (pull === undefined) return notFound();
  if (endpoint === 'pull') return json(res, 200, pullJson(fake, repo, pull));
  const files = pull.files.map((f) => ({
    sha: shaOf(`${repo.id}/${pull.number}/${f.filename}`),
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${fake.serverUrl}/${repo.owner.login}/${repo.name}/blob/${pull.head.sha}/${f.filename}`,
    raw_url: `${fake.serverUrl}/${repo.owner.login}/${repo.name}/raw/${pull.head.sha}/${f.filename}`,
    contents_url: `${fake.apiUrl}/repos/${repo.owner.login}/${repo.name}/contents/${f.filename}?ref=${pull.head.sha}`,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
    ...(f.previous_filename !== undefined ? { previous_filename: f.previous_filename } : {}),
  }));
  return page(fake, res, url, files);
}

/** Who reads a repository endpoint: a user's token, or an installation's unexpired token. */
export function reader(
  fake: FakeGitHub,
  store: FakeGitHubStore,
  req: IncomingMessage,
): FakeUser | FakeInstallation | undefined {
  const user = authenticated(fake, store, req);
  if (user !== undefined) return user;
  const match = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const issued = fake.issuedInstallationTokens.find((t) => t.token === match?.[1]);
  if (issued === undefined || issued.expiresAt.getTime() <= fake.clock().getTime()) return undefined;
  return store.installations.get(issued.installationId);
}

function canRead(repo: FakeRepo, user: FakeUser | FakeInstallation | undefined): boolean {
  if (!repo.private) return true;
  if (user === undefined) return false;
  if ('repositoryIds' in user) return user.repositoryIds.has(repo.id);
  return (repo.owner.type === 'User' && repo.owner.id === user.id) || repo.readers.has(user.id);
}

function repositoryJson(fake: FakeGitHub, repo: FakeRepo) {
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
      url: `${fake.apiUrl}/users/${repo.owner.login}`,
      html_url: `${fake.serverUrl}/${repo.owner.login}`,
      site_admin: false,
    },
    html_url: `${fake.serverUrl}/${fullName}`,
    url: `${fake.apiUrl}/repos/${fullName}`,
  };
}

function pullJson(fake: FakeGitHub, repo: FakeRepo, pull: FakePullRequest) {
  const repoJson = repositoryJson(fake, repo);
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
