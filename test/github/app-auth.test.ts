import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { readGitHubAppCredentials } from '../../src/config/github-app-key.js';
import { type GitHubAppAuth, makeGitHubAppAuth, signAppJwt } from '../../src/github/app-auth.js';
import { closedPortUrl, FakeGitHub, type FakeRepo, type FakeUser } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { type TestClock, testClock } from '../helpers/test-clock.js';

/**
 * GitHub App authentication (decisions §9; issue 4: "the app's installation token when the app is
 * installed on the repository, else the user's token"): the app JWT, installation lookup and
 * tokens with their in-memory cache, and how reviews read pull requests with them, against the
 * real-HTTP fake GitHub. Key pairs are generated per run: no PEM is committed.
 */

const APP_ID = 424_242;

function rsaKeyPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

/** GitHub hands out PKCS#1 PEM ("BEGIN RSA PRIVATE KEY"). */
const pkcs1 = (key: KeyObject) => key.export({ type: 'pkcs1', format: 'pem' }).toString();

const keys = rsaKeyPair();
let github: FakeGitHub;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

beforeAll(async () => {
  github = await FakeGitHub.start({ apiBasePath: '/api' });
  github.setApp({ id: APP_ID, publicKey: keys.publicKey });
});

afterAll(async () => {
  await github?.close();
});

beforeEach(() => {
  github.reset();
  github.setApp({ id: APP_ID, publicKey: keys.publicKey });
});

function privateRepo(): FakeRepo {
  return github.addRepo(github.addOrg(unique('acme')), unique('vault'), { private: true });
}

describe('the app JWT', () => {
  it('is RS256, issued by the app id a minute ago, and expires in nine minutes', async () => {
    const now = new Date('2030-01-02T03:04:05.678Z');
    const jwt = await signAppJwt({ appId: APP_ID, privateKey: keys.privateKey }, now);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, keys.publicKey, { algorithms: ['RS256'], currentDate: now });
    const seconds = Math.floor(now.getTime() / 1000);
    expect(payload).toEqual({ iss: String(APP_ID), iat: seconds - 60, exp: seconds + 540 });
  });

  it('does not verify with another key', async () => {
    const jwt = await signAppJwt({ appId: APP_ID, privateKey: keys.privateKey }, new Date());
    await expect(jwtVerify(jwt, rsaKeyPair().publicKey)).rejects.toThrow();
  });
});

describe('the private key (PRIVATE_KEY or PRIVATE_KEY_PATH)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'redline-app-key-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const problemsOf = (fn: () => unknown): string[] => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('is not needed when no app is configured', () => {
    expect(readGitHubAppCredentials(loadConfig({}).github)).toBeUndefined();
  });

  it('reads PKCS#1 and PKCS#8 PEM from PRIVATE_KEY, escaped newlines included', async () => {
    const pkcs8 = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    for (const pem of [pkcs1(keys.privateKey), pkcs8, pkcs1(keys.privateKey).replace(/\n/g, '\\n')]) {
      const app = readGitHubAppCredentials({ appId: APP_ID, privateKey: pem, privateKeyPath: undefined });
      expect(app?.appId).toBe(APP_ID);
      const jwt = await signAppJwt(app as NonNullable<typeof app>, new Date());
      await expect(jwtVerify(jwt, keys.publicKey)).resolves.toBeDefined();
    }
  });

  it('reads PRIVATE_KEY_PATH once, through the configuration', async () => {
    const path = join(dir, 'app.pem');
    await writeFile(path, pkcs1(keys.privateKey));
    const config = loadConfig({ APP_ID: String(APP_ID), PRIVATE_KEY_PATH: path, WEBHOOK_SECRET: 'w' });
    let reads = 0;
    const app = readGitHubAppCredentials(config.github, (p) => {
      reads += 1;
      return pkcs1(keys.privateKey) + (p === path ? '' : 'wrong path');
    });
    expect(reads).toBe(1);
    expect(app?.privateKey.asymmetricKeyType).toBe('rsa');
    expect(readGitHubAppCredentials(config.github)?.appId).toBe(APP_ID);
  });

  it('names PRIVATE_KEY_PATH when the file cannot be read or is not a PEM RSA key', async () => {
    const missing = join(dir, 'missing.pem');
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: missing })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY_PATH cannot be read .*missing\.pem.*ENOENT/)]);
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: dir })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY_PATH cannot be read/)]);

    const notPem = join(dir, 'not.pem');
    await writeFile(notPem, 'hello');
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: notPem })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY_PATH .*must be a PEM RSA private key/)]);

    const ec = join(dir, 'ec.pem');
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    await writeFile(ec, ecKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    expect(problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: ec }))).toEqual(
      [expect.stringMatching(/^PRIVATE_KEY_PATH .*must be an RSA private key \(got ec\)/)],
    );
  });

  it('names PRIVATE_KEY when its PEM is broken', () => {
    const armour = (edge: string) => `-----${edge} RSA PRIVATE ${'KEY'}-----`; // no key-looking literal
    const broken = `${armour('BEGIN')}\nnot base64 at all\n${armour('END')}\n`;
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: broken, privateKeyPath: undefined })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY must be a PEM RSA private key/)]);
  });
});

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
