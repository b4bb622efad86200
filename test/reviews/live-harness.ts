import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { GITHUB_RETRY_DEFAULTS } from '../../src/github/octokit.js';
import {
  FakeGitHub,
  type FakeOrg,
  type FakePullFile,
  type FakePullRequest,
  type FakeRepo,
  type FakeUser,
} from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Live mode (svc_live_ keys and the sign-in JWT): creating a review reads the pull request from
 * GitHub as the user, and processing reads its changed files (spec 2, 4.2, 8.2; decisions §1, §4,
 * §6). GitHub is the fake of test/fakes, a real HTTP server, so Octokit runs over the wire.
 */

export type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

export interface Account {
  fake: FakeUser;
  userId: string;
  jwt: string;
  /** A svc_live_ key of the same user. */
  key: string;
  /** The GitHub token the fake issued at sign-in (what the service must send back to GitHub). */
  githubToken: string;
}

/** Requests one GitHub call makes when every answer is a 5xx: Octokit retries it (src/github/octokit.ts). */
export const REQUESTS_PER_CALL = 1 + GITHUB_RETRY_DEFAULTS.retries;

export let github: FakeGitHub;
export let t: TestApp;
export let seq = 0;
export const unique = (prefix: string) => `${prefix}-${++seq}`;

/** GitHub sign-in through the fake (so the user has a GitHub token), plus a live API key. */
export async function signIn(app: TestApp, fake: FakeGitHub, user: FakeUser): Promise<Account> {
  const start = await app.app.inject({ method: 'GET', url: '/api/auth/scm' });
  expect(start.statusCode).toBe(200);
  const { callback } = fake.authorize(start.json().redirect_url, user);
  const res = await app.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  const githubToken = fake.issuedTokens.at(-1)?.token ?? '';
  return { fake: user, userId: body.user.id, jwt: body.token, key: await app.createToken(body.user.id), githubToken };
}

export const auth = (credential: string) =>
  credential.startsWith('svc_') ? { 'x-api-key': credential } : { authorization: `Bearer ${credential}` };

export function createReview(credential: string, payload: Record<string, unknown>, app: TestApp = t): Promise<Reply> {
  return app.app.inject({ method: 'POST', url: '/v1/reviews', headers: auth(credential), payload });
}

export function getReview(credential: string, id: string, app: TestApp = t): Promise<Reply> {
  return app.app.inject({ method: 'GET', url: `/v1/reviews/${id}`, headers: auth(credential) });
}

/** Spec 7.1: the full error body, meta included. */
export function expectError(
  res: Reply,
  app: TestApp,
  expected: { status: number; type: string; code: string; message?: unknown; details?: unknown },
) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status: expected.status,
    body: {
      error: {
        type: expected.type,
        code: expected.code,
        status: expected.status,
        message: expected.message ?? expect.any(String),
        ...(expected.details !== undefined ? { details: expected.details } : {}),
      },
      meta: { request_id: res.headers['x-request-id'], timestamp: app.clock.now().toISOString() },
    },
  });
}

export const invalidPrUrl = (res: Reply) =>
  expectError(res, t, {
    status: 400,
    type: 'validation_error',
    code: 'invalid_pr_url',
    message: expect.stringContaining('pull_request_url'),
    details: { field: 'pull_request_url', issue: expect.any(String) },
  });

export const prNotFound = (res: Reply) =>
  expectError(res, t, {
    status: 404,
    type: 'not_found_error',
    code: 'resource_not_found',
    details: { field: 'pull_request_url', issue: expect.any(String) },
  });

/** `n` changed files with consistent patches; one rename and one binary file (no patch) among them. */
export function makeFiles(n: number, prefix = 'src'): FakePullFile[] {
  return Array.from({ length: n }, (_, i): FakePullFile => {
    const additions = (i % 5) + 1;
    const deletions = i % 3;
    const patch = [
      `@@ -1,${deletions} +1,${additions} @@`,
      ...Array.from({ length: deletions }, (_, k) => `-export const old${i}_${k} = ${k};`),
      ...Array.from({ length: additions }, (_, k) => `+export const value${i}_${k} = ${k};`),
    ].join('\n');
    if (i === 1) {
      return {
        filename: `${prefix}/renamed-${i}.ts`,
        previous_filename: `${prefix}/original-${i}.ts`,
        status: 'renamed',
        additions,
        deletions,
        patch,
      };
    }
    if (i === 2) return { filename: `${prefix}/logo-${i}.png`, status: 'added', additions: 0, deletions: 0 };
    return {
      filename: `${prefix}/module-${i}.ts`,
      status: i % 7 === 0 ? 'added' : 'modified',
      additions,
      deletions,
      patch,
    };
  });
}

export const sum = (files: FakePullFile[], key: 'additions' | 'deletions') => files.reduce((n, f) => n + f[key], 0);

export interface Scenario {
  org: FakeOrg;
  repo: FakeRepo;
  pull: FakePullRequest;
  url: string;
  author: FakeUser;
  user: Account;
}

/** A fresh GitHub organization (own quota), its public repository with one pull request, and a signed-in user. */
export async function scenario(options: { files?: FakePullFile[]; private?: boolean } = {}): Promise<Scenario> {
  const org = github.addOrg(unique('acme'));
  const fakeUser = github.addUser({ login: unique('dev') });
  const author = github.addUser({ login: unique('author') });
  const repo = github.addRepo(org, unique('shop'), {
    private: options.private ?? false,
    readers: options.private ? [fakeUser] : [],
  });
  const pull = github.addPullRequest(repo, {
    number: 42,
    title: 'Add the checkout flow',
    head: { ref: 'feature/checkout', sha: 'c'.repeat(40) },
    user: { id: author.id, login: author.login },
    files: options.files ?? makeFiles(3),
  });
  return { org, repo, pull, url: github.pullRequestUrl(repo, pull), author, user: await signIn(t, github, fakeUser) };
}

export async function organizationOf(scmId: number) {
  return t.database.db
    .selectFrom('organizations')
    .select(['id', 'scm_id', 'login', 'kind'])
    .where('scm_id', '=', scmId)
    .executeTakeFirst();
}

export async function reviewCount(organizationId: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function reviewsOfUser(userId: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The fake GitHub and an app on it for the file; before each test the fake is reset, after each the queued reviews run. */
export function useLiveApp(): void {
  beforeAll(async () => {
    github = await FakeGitHub.start({ apiBasePath: '/api' });
    t = await createTestApp({ env: github.env() });
  });

  afterAll(async () => {
    await t?.close();
    await github?.close();
  });

  beforeEach(() => github.reset());

  // Reviews a test leaves queued are processed here, failures cleared, so that no later test's
  // runJobs() (nor its request counts) sees them.
  afterEach(async () => {
    github.reset();
    await t.runJobs();
  });
}
