import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import type { FakeGitHub } from './fake-github.js';
import { json } from './fake-github-http.js';
import {
  API_INSTALLATION_TOKEN,
  API_REPO_INSTALLATION,
  type FakeGitHubStore,
  INSTALLATION_TOKEN_LIFETIME_MS,
  randomToken,
} from './fake-github-store.js';
import type { FakeInstallationToken } from './fake-github-types.js';

/** Checks the app's JWT as GitHub does; the reason it is refused, or undefined when it is good. */
async function appJwtProblem(fake: FakeGitHub, req: IncomingMessage): Promise<string | undefined> {
  const app = fake.app;
  if (app === undefined) return 'no GitHub App is registered with this fake';
  const match = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (match?.[1] === undefined) return 'no Bearer JWT';
  const now = fake.clock();
  try {
    const { payload } = await jwtVerify(match[1], app.publicKey, { algorithms: ['RS256'], currentDate: now });
    const seconds = Math.floor(now.getTime() / 1000);
    if (String(payload.iss) !== String(app.id)) return `iss ${String(payload.iss)} is not the app id`;
    if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return 'iat and exp are required';
    if (payload.iat > seconds + 60) return "'Issued at' claim (iat) must be an Integer representing a time in the past";
    if (payload.exp > seconds + 600) return "'Expiration time' claim (exp) is too far in the future";
    return undefined;
  } catch (error) {
    return `A JSON web token could not be decoded (${(error as Error).message})`;
  }
}

/** GET /repos/:owner/:repo/installation and POST /app/installations/:id/access_tokens, with the app's JWT. */
export async function appEndpoint(
  fake: FakeGitHub,
  store: FakeGitHubStore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  endpoint: 'app_installation' | 'installation_token',
) {
  const problem = await appJwtProblem(fake, req);
  if (problem !== undefined) {
    return json(res, 401, { message: problem, documentation_url: 'https://docs.github.com/rest' });
  }
  const apiPath = url.pathname.slice(fake.apiBasePath.length);
  const notFound = () => json(res, 404, { message: 'Not Found', status: '404' });
  if (endpoint === 'app_installation') {
    const [, owner = '', name = ''] = API_REPO_INSTALLATION.exec(apiPath) ?? [];
    const repo = store.repos.get(`${decodeURIComponent(owner)}/${decodeURIComponent(name)}`.toLowerCase());
    const installation =
      repo === undefined ? undefined : [...store.installations.values()].find((i) => i.repositoryIds.has(repo.id));
    if (repo === undefined || installation === undefined) return notFound();
    return json(res, 200, {
      id: installation.id,
      app_id: fake.app?.id,
      account: { login: repo.owner.login, id: repo.owner.id, type: repo.owner.type },
      repository_selection: 'selected',
      access_tokens_url: `${fake.apiUrl}/app/installations/${installation.id}/access_tokens`,
      permissions: { contents: 'read', metadata: 'read', pull_requests: 'write' },
    });
  }
  const installation = store.installations.get(Number(API_INSTALLATION_TOKEN.exec(apiPath)?.[1]));
  if (installation === undefined) return notFound();
  const issued: FakeInstallationToken = {
    token: randomToken('gh' + 's_'),
    installationId: installation.id,
    expiresAt: new Date(fake.clock().getTime() + INSTALLATION_TOKEN_LIFETIME_MS),
  };
  fake.issuedInstallationTokens.push(issued);
  return json(res, 201, {
    token: issued.token,
    expires_at: issued.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    permissions: { contents: 'read', metadata: 'read', pull_requests: 'write' },
    repository_selection: 'selected',
  });
}
