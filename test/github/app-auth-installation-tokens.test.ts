import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { type GitHubAppAuth, makeGitHubAppAuth } from '../../src/github/app-auth.js';
import { closedPortUrl } from '../fakes/fake-github.js';
import { type TestClock, testClock } from '../helpers/test-clock.js';
import { APP_ID, github, keys, privateRepo, rsaKeyPair, useFakeGitHubApp } from './app-auth-harness.js';

useFakeGitHubApp();

describe('installation tokens and their cache', () => {
  let clock: TestClock;
  let auth: GitHubAppAuth;

  beforeEach(() => {
    clock = testClock('2030-06-01T12:00:00Z');
    github.clock = () => clock.now();
    auth = makeGitHubAppAuth({
      app: { appId: APP_ID, privateKey: keys.privateKey },
      apiUrl: github.apiUrl,
      fetch: globalThis.fetch,
      clock,
      octokitOptions: { retries: 0 }, // GitHub's failures reach the cache at once
    });
  });

  afterEach(() => {
    github.clock = () => new Date();
  });

  it('finds the installation with the app JWT and creates a token for it', async () => {
    const repo = privateRepo();
    const installation = github.installApp([repo]);
    const token = await auth.installationToken(repo.owner.login, repo.name);
    expect(token).toBe(github.issuedInstallationTokens.at(-1)?.token);
    expect(github.issuedInstallationTokens.at(-1)?.installationId).toBe(installation.id);
    const [lookup] = github.requestsTo('app_installation');
    expect(lookup?.path).toBe(`/api/repos/${repo.owner.login}/${repo.name}/installation`);
    expect(lookup?.headers.authorization).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const [create] = github.requestsTo('installation_token');
    expect(create).toMatchObject({ method: 'POST', path: `/api/app/installations/${installation.id}/access_tokens` });
  });

  it('caches a token per installation until five minutes before it expires, then refreshes it', async () => {
    const a = privateRepo();
    const b = privateRepo();
    github.installApp([a, b]);
    const first = await auth.installationToken(a.owner.login, a.name);
    expect(await auth.installationToken(b.owner.login, b.name)).toBe(first); // same installation
    clock.advance(54 * 60 * 1000);
    expect(await auth.installationToken(a.owner.login, a.name)).toBe(first);
    expect(github.requestsTo('installation_token')).toHaveLength(1);

    clock.advance(60 * 1000 + 1); // 55 minutes into an hour's token
    const second = await auth.installationToken(a.owner.login, a.name);
    expect(second).not.toBe(first);
    expect(github.requestsTo('installation_token')).toHaveLength(2);
  });

  it('shares one request between concurrent asks', async () => {
    const repo = privateRepo();
    github.installApp([repo]);
    const tokens = await Promise.all(
      Array.from({ length: 5 }, () => auth.installationToken(repo.owner.login, repo.name)),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(github.requestsTo('app_installation')).toHaveLength(1);
    expect(github.requestsTo('installation_token')).toHaveLength(1);
  });

  it('believes "not installed" for a minute, then asks again', async () => {
    const repo = privateRepo();
    expect(await auth.installationToken(repo.owner.login, repo.name)).toBeUndefined();
    github.installApp([repo]);
    clock.advance(59_000);
    expect(await auth.installationToken(repo.owner.login.toUpperCase(), repo.name)).toBeUndefined();
    expect(github.requestsTo('app_installation')).toHaveLength(1);
    clock.advance(2_000);
    expect(await auth.installationToken(repo.owner.login, repo.name)).toEqual(expect.stringMatching(/^ghs_/));
    expect(github.requestsTo('app_installation')).toHaveLength(2);
  });

  it("forgets a refused token and the repository's installation, and asks GitHub afresh", async () => {
    const repo = privateRepo();
    const other = privateRepo();
    github.installApp([repo]);
    github.installApp([other]);
    const first = await auth.installationToken(repo.owner.login, repo.name);
    const untouched = await auth.installationToken(other.owner.login, other.name);
    auth.forget(repo.owner.login.toUpperCase(), repo.name); // names are case-insensitive
    const second = await auth.installationToken(repo.owner.login, repo.name);
    expect(second).not.toBe(first);
    expect(await auth.installationToken(other.owner.login, other.name)).toBe(untouched);
    expect(github.requestsTo('app_installation')).toHaveLength(3);
    expect(github.requestsTo('installation_token')).toHaveLength(3);
  });

  it('answers 502 upstream_error when GitHub refuses the JWT (a wrong key), and caches nothing', async () => {
    const repo = privateRepo();
    github.installApp([repo]);
    github.setApp({ id: APP_ID, publicKey: rsaKeyPair().publicKey });
    const refused = auth.installationToken(repo.owner.login, repo.name);
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ status: 502, code: 'upstream_error', message: /HTTP 401/ });
    expect(github.requestsTo('installation_token')).toHaveLength(0);

    github.setApp({ id: APP_ID, publicKey: keys.publicKey });
    expect(await auth.installationToken(repo.owner.login, repo.name)).toEqual(expect.stringMatching(/^ghs_/));
  });

  it('answers 502 upstream_error for another app id, a JWT too long-lived, and GitHub failures', async () => {
    const repo = privateRepo();
    github.installApp([repo]);
    github.setApp({ id: APP_ID + 1, publicKey: keys.publicKey });
    await expect(auth.installationToken(repo.owner.login, repo.name)).rejects.toMatchObject({ status: 502 });
    github.setApp({ id: APP_ID, publicKey: keys.publicKey });

    // GitHub's clock behind ours: the JWT's exp is more than ten minutes away for GitHub.
    github.clock = () => new Date(clock.now().getTime() - 2 * 60 * 1000);
    await expect(auth.installationToken(repo.owner.login, repo.name)).rejects.toMatchObject({ status: 502 });
    github.clock = () => clock.now();

    github.fail('installation_token', { status: 500, times: 1 });
    await expect(auth.installationToken(repo.owner.login, repo.name)).rejects.toMatchObject({
      status: 502,
      code: 'upstream_error',
    });
    github.fail('app_installation', { drop: true, times: 1 });
    const other = privateRepo();
    await expect(auth.installationToken(other.owner.login, other.name)).rejects.toMatchObject({ status: 502 });

    const unreachable = makeGitHubAppAuth({
      app: { appId: APP_ID, privateKey: keys.privateKey },
      apiUrl: await closedPortUrl(),
      fetch: globalThis.fetch,
      clock,
      octokitOptions: { retries: 0 },
    });
    await expect(unreachable.installationToken('a', 'b')).rejects.toMatchObject({ status: 502 });
    // Recovered: the failures were not cached.
    expect(await auth.installationToken(repo.owner.login, repo.name)).toEqual(expect.stringMatching(/^ghs_/));
  });
});
