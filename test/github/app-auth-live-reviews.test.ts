import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeUser } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { APP_ID, github, keys, pkcs1, rsaKeyPair, unique, useFakeGitHubApp } from './app-auth-harness.js';

useFakeGitHubApp();

describe('reviews read pull requests with the installation token (live mode)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...github.env(),
        APP_ID: String(APP_ID),
        PRIVATE_KEY: pkcs1(keys.privateKey),
        WEBHOOK_SECRET: 'webhook-secret-for-tests',
      },
    });
  });

  beforeEach(() => {
    github.clock = () => t.clock.now();
  });

  afterEach(async () => {
    github.reset();
    github.setApp({ id: APP_ID, publicKey: keys.publicKey });
    await t.runJobs();
    github.clock = () => new Date();
  });

  afterAll(async () => {
    await t?.close();
  });

  async function signIn(user: FakeUser) {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/scm' });
    const { callback } = github.authorize(start.json().redirect_url, user);
    const res = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(res.statusCode).toBe(200);
    const userId: string = res.json().user.id;
    return { userId, key: await t.createToken(userId), githubToken: github.issuedTokens.at(-1)?.token ?? '' };
  }

  /** A private repository whose pull request 7 changes two TypeScript files, and a user who can read it. */
  async function scenario() {
    const dev = github.addUser({ login: unique('dev') });
    const repo = github.addRepo(github.addOrg(unique('acme')), unique('vault'), { private: true, readers: [dev] });
    const content = 'export const answer = 42;\n';
    const pull = github.addPullRequest(repo, {
      number: 7,
      files: ['a', 'b'].map((n) => ({
        filename: `src/${n}.ts`,
        status: 'added' as const,
        additions: 1,
        deletions: 0,
        patch: '@@ -0,0 +1 @@\n+export const answer = 42;',
        content,
      })),
    });
    return { dev, repo, url: github.pullRequestUrl(repo, pull), user: await signIn(dev) };
  }

  const create = (key: string, url: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': key },
      payload: { pull_request_url: url },
    });

  const statusOf = async (key: string, id: string) =>
    (await t.app.inject({ method: 'GET', url: `/v1/reviews/${id}`, headers: { 'x-api-key': key } })).json().data;

  const repoReads = () => [...github.requestsTo('pull_files'), ...github.requestsTo('contents')];

  it('processes with the installation token a private repository the user can no longer read', async () => {
    const s = await scenario();
    const installation = github.installApp([s.repo]);
    const created = await create(s.user.key, s.url);
    expect(created.statusCode).toBe(201);
    // The create-time check is the user's own: their token, and the app was not asked.
    expect(github.requestsTo('pull').map((r) => r.headers.authorization)).toEqual([`token ${s.user.githubToken}`]);
    expect(github.requestsTo('app_installation')).toHaveLength(0);

    s.repo.readers.delete(s.dev.id); // the user's token now gets 404 on this repository
    await t.runJobs();
    expect(await statusOf(s.user.key, created.json().data.id)).toMatchObject({
      status: 'completed',
      stats: { files_changed: 2 },
    });
    const token = github.issuedInstallationTokens.find((i) => i.installationId === installation.id)?.token;
    expect(token).toBeDefined();
    expect(github.requestsTo('contents')).toHaveLength(2);
    for (const r of repoReads()) expect(r.headers.authorization).toBe(`token ${token}`);
  });

  it('still answers 404 at creation to a user who cannot read the repository, installed app or not', async () => {
    const s = await scenario();
    github.installApp([s.repo]);
    const outsider = await signIn(github.addUser({ login: unique('outsider') }));
    const refused = await create(outsider.key, s.url);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('resource_not_found');
    expect(github.requestsTo('pull').map((r) => r.headers.authorization)).toEqual([`token ${outsider.githubToken}`]);

    // A local user without a GitHub token reads anonymously: not the app's token either.
    const { user } = await t.createUser();
    expect((await create(await t.createToken(user.id), s.url)).statusCode).toBe(404);
    expect(github.requestsTo('pull').at(-1)?.headers.authorization).toBeUndefined();
    expect(github.requestsTo('app_installation')).toHaveLength(0);
  });

  it("uses the user's token when the app is not installed on the repository", async () => {
    const s = await scenario();
    const created = await create(s.user.key, s.url);
    await t.runJobs();
    expect(await statusOf(s.user.key, created.json().data.id)).toMatchObject({ status: 'completed' });
    expect(github.requestsTo('app_installation')).toHaveLength(1);
    expect(github.requestsTo('installation_token')).toHaveLength(0);
    expect(repoReads().length).toBeGreaterThan(0);
    for (const r of repoReads()) expect(r.headers.authorization).toBe(`token ${s.user.githubToken}`);
  });

  it('creates one token for two reviews, and a new one once it nears expiry', async () => {
    const s = await scenario();
    github.installApp([s.repo]);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      ids.push((await create(s.user.key, s.url)).json().data.id);
      await t.runJobs();
    }
    expect(github.requestsTo('installation_token')).toHaveLength(1);
    const first = github.issuedInstallationTokens.at(-1)?.token;

    t.clock.advance(56 * 60 * 1000); // past the refresh point (one hour less five minutes)
    github.reset();
    ids.push((await create(s.user.key, s.url)).json().data.id);
    await t.runJobs();
    expect(github.requestsTo('installation_token')).toHaveLength(1);
    const second = github.issuedInstallationTokens.at(-1)?.token;
    expect(second).not.toBe(first);
    for (const r of repoReads()) expect(r.headers.authorization).toBe(`token ${second}`);
    for (const id of ids) expect(await statusOf(s.user.key, id)).toMatchObject({ status: 'completed' });
  });

  it('retries the job when GitHub refuses the app JWT, and fails with processing_error, never crashing', async () => {
    const s = await scenario();
    github.installApp([s.repo]);
    const id = (await create(s.user.key, s.url)).json().data.id;
    github.setApp({ id: APP_ID, publicKey: rsaKeyPair().publicKey }); // our key no longer matches
    await t.runJobs();
    expect(github.requestsTo('app_installation').map((r) => r.headers.authorization)).toHaveLength(3); // 3 attempts
    expect(github.requestsTo('installation_token')).toHaveLength(0);
    expect(github.requestsTo('pull_files')).toHaveLength(0); // no silent fallback to the user's token
    expect(await statusOf(s.user.key, id)).toMatchObject({
      status: 'failed',
      error: { code: 'processing_error' },
    });
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBeLessThan(500);
  });

  it('drops a token GitHub revoked (the app reinstalled) and completes with a fresh one', async () => {
    const s = await scenario();
    const installation = github.installApp([s.repo]);
    const first = (await create(s.user.key, s.url)).json().data.id;
    await t.runJobs();
    expect(await statusOf(s.user.key, first)).toMatchObject({ status: 'completed' });
    const revoked = github.issuedInstallationTokens.at(-1)?.token;

    // Reinstalled within the cache's lifetime: the cached token now answers 401.
    github.uninstallApp(installation);
    const again = github.installApp([s.repo]);
    github.reset();
    const second = (await create(s.user.key, s.url)).json().data.id;
    await t.runJobs();
    expect(await statusOf(s.user.key, second)).toMatchObject({ status: 'completed', stats: { files_changed: 2 } });
    const fresh = github.issuedInstallationTokens.at(-1);
    expect(fresh?.installationId).toBe(again.id);
    // The first read used the revoked token; every later one (processing, then the publisher's
    // reads: the app is installed) the fresh token.
    const [firstRead, ...laterReads] = github.requestsTo('pull_files').map((r) => r.headers.authorization);
    expect(firstRead).toBe(`token ${revoked}`);
    expect(laterReads.length).toBeGreaterThan(0);
    expect(new Set(laterReads)).toEqual(new Set([`token ${fresh?.token}`]));
  });

  it('retries a GitHub 500 while creating the token, then completes', async () => {
    const s = await scenario();
    github.installApp([s.repo]);
    const id = (await create(s.user.key, s.url)).json().data.id;
    github.fail('installation_token', { status: 500, times: 1 });
    await t.runJobs();
    expect(github.requestsTo('installation_token')).toHaveLength(2);
    expect(await statusOf(s.user.key, id)).toMatchObject({ status: 'completed' });
  });
});
