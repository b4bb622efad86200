import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/auth/accounts.js';
import { GITHUB_RETRY_DEFAULTS } from '../../src/github/octokit.js';
import {
  FakeGitHub,
  type FakeOrg,
  type FakePullFile,
  type FakePullRequest,
  type FakeRepo,
  type FakeUser,
} from '../fakes/fake-github.js';
import { itOnPostgres } from '../helpers/postgres-only.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Live mode (svc_live_ keys and the sign-in JWT): creating a review reads the pull request from
 * GitHub as the user, and processing reads its changed files (spec 2, 4.2, 8.2; decisions §1, §4,
 * §6). GitHub is the fake of test/fakes, a real HTTP server, so Octokit runs over the wire.
 */

type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

interface Account {
  fake: FakeUser;
  userId: string;
  jwt: string;
  /** A svc_live_ key of the same user. */
  key: string;
  /** The GitHub token the fake issued at sign-in (what the service must send back to GitHub). */
  githubToken: string;
}

/** Requests one GitHub call makes when every answer is a 5xx: Octokit retries it (src/github/octokit.ts). */
const REQUESTS_PER_CALL = 1 + GITHUB_RETRY_DEFAULTS.retries;

let github: FakeGitHub;
let t: TestApp;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

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

/** GitHub sign-in through the fake (so the user has a GitHub token), plus a live API key. */
async function signIn(app: TestApp, fake: FakeGitHub, user: FakeUser): Promise<Account> {
  const start = await app.app.inject({ method: 'GET', url: '/api/auth/scm' });
  expect(start.statusCode).toBe(200);
  const { callback } = fake.authorize(start.json().redirect_url, user);
  const res = await app.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  const githubToken = fake.issuedTokens.at(-1)?.token ?? '';
  return { fake: user, userId: body.user.id, jwt: body.token, key: await app.createToken(body.user.id), githubToken };
}

const auth = (credential: string) =>
  credential.startsWith('svc_') ? { 'x-api-key': credential } : { authorization: `Bearer ${credential}` };

function createReview(credential: string, payload: Record<string, unknown>, app: TestApp = t): Promise<Reply> {
  return app.app.inject({ method: 'POST', url: '/v1/reviews', headers: auth(credential), payload });
}

function getReview(credential: string, id: string, app: TestApp = t): Promise<Reply> {
  return app.app.inject({ method: 'GET', url: `/v1/reviews/${id}`, headers: auth(credential) });
}

/** Spec 7.1: the full error body, meta included. */
function expectError(
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

const invalidPrUrl = (res: Reply) =>
  expectError(res, t, {
    status: 400,
    type: 'validation_error',
    code: 'invalid_pr_url',
    message: expect.stringContaining('pull_request_url'),
    details: { field: 'pull_request_url', issue: expect.any(String) },
  });

const prNotFound = (res: Reply) =>
  expectError(res, t, {
    status: 404,
    type: 'not_found_error',
    code: 'resource_not_found',
    details: { field: 'pull_request_url', issue: expect.any(String) },
  });

/** `n` changed files with consistent patches; one rename and one binary file (no patch) among them. */
function makeFiles(n: number, prefix = 'src'): FakePullFile[] {
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

const sum = (files: FakePullFile[], key: 'additions' | 'deletions') => files.reduce((n, f) => n + f[key], 0);

interface Scenario {
  org: FakeOrg;
  repo: FakeRepo;
  pull: FakePullRequest;
  url: string;
  author: FakeUser;
  user: Account;
}

/** A fresh GitHub organization (own quota), its public repository with one pull request, and a signed-in user. */
async function scenario(options: { files?: FakePullFile[]; private?: boolean } = {}): Promise<Scenario> {
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

async function organizationOf(scmId: number) {
  return t.database.db
    .selectFrom('organizations')
    .select(['id', 'scm_id', 'login', 'kind'])
    .where('scm_id', '=', scmId)
    .executeTakeFirst();
}

async function reviewCount(organizationId: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function reviewsOfUser(userId: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('pull_request_url validation (decisions §4: 400 invalid_pr_url)', () => {
  const cases: [string, (server: string) => string][] = [
    ['not a URL', () => 'not a url'],
    ['a bare path', () => '/acme/shop/pull/1'],
    ['another host (github.com)', () => 'https://github.com/acme/shop/pull/1'],
    ['another host, same scheme', (s) => `${s.replace('127.0.0.1', 'localhost')}/acme/shop/pull/1`],
    ['https where GITHUB_SERVER_URL is http', (s) => `${s.replace('http:', 'https:')}/acme/shop/pull/1`],
    ['an issue, not a pull request', (s) => `${s}/acme/shop/issues/1`],
    ['pull request number 0', (s) => `${s}/acme/shop/pull/0`],
    ['a non-numeric number', (s) => `${s}/acme/shop/pull/abc`],
    ['extra path after the number', (s) => `${s}/acme/shop/pull/1/files`],
    ['a query string', (s) => `${s}/acme/shop/pull/1?tab=files`],
    ['a fragment', (s) => `${s}/acme/shop/pull/1#discussion`],
    ['no repository', (s) => `${s}/acme/pull/1`],
  ];

  it.each(cases)('refuses %s', async (_, make) => {
    const { user } = await scenario();
    for (const credential of [user.key, user.jwt]) {
      invalidPrUrl(await createReview(credential, { pull_request_url: make(github.serverUrl) }));
    }
    // Refused before GitHub is asked, and nothing was created.
    expect(github.requestsTo('pull')).toEqual([]);
    expect(await reviewsOfUser(user.userId)).toBe(0);
  });
});

describe('pull requests GitHub will not show (decisions §4: 404 resource_not_found)', () => {
  it('answers 404 for a pull request number that does not exist', async () => {
    const { repo, user } = await scenario();
    prNotFound(await createReview(user.key, { pull_request_url: github.pullRequestUrl(repo, 4711) }));
    expect(github.requestsTo('pull')).toHaveLength(1);
    expect(await reviewsOfUser(user.userId)).toBe(0);
  });

  it('answers 404 for a repository that does not exist', async () => {
    const { user } = await scenario();
    prNotFound(await createReview(user.key, { pull_request_url: `${github.serverUrl}/nobody-here/nothing/pull/1` }));
  });

  it('answers 404 for a private repository the user cannot read, 201 for one who can', async () => {
    const { url, user: reader } = await scenario({ private: true });
    const outsider = await signIn(t, github, github.addUser({ login: unique('outsider') }));
    for (const credential of [outsider.key, outsider.jwt])
      prNotFound(await createReview(credential, { pull_request_url: url }));
    expect(await reviewsOfUser(outsider.userId)).toBe(0);
    // The outsider's own GitHub token was used (and GitHub answered 404 to it).
    expect(github.requestsTo('pull').map((r) => r.headers.authorization)).toEqual([
      `token ${outsider.githubToken}`,
      `token ${outsider.githubToken}`,
    ]);

    const ok = await createReview(reader.key, { pull_request_url: url });
    expect(ok.statusCode).toBe(201);
    expect(github.requestsTo('pull').at(-1)?.headers.authorization).toBe(`token ${reader.githubToken}`);
  });

  it('reads anonymously for a user without a GitHub token: public repositories only', async () => {
    const { url: publicUrl } = await scenario();
    const { url: privateUrl } = await scenario({ private: true });
    const { user } = await t.createUser();
    const key = await t.createToken(user.id);
    prNotFound(await createReview(key, { pull_request_url: privateUrl }));
    const ok = await createReview(key, { pull_request_url: publicUrl });
    expect(ok.statusCode).toBe(201);
    expect(github.requestsTo('pull').map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('answers 502 upstream_error, and creates nothing, when GitHub fails on the pull request', async () => {
    const { url, user } = await scenario();
    github.fail('pull', { status: 500 });
    expectError(await createReview(user.key, { pull_request_url: url }), t, {
      status: 502,
      type: 'api_error',
      code: 'upstream_error',
    });
    expect(await reviewsOfUser(user.userId)).toBe(0);
  });
});

describe('metadata from GitHub (spec 2.1/2.2; decisions §1)', () => {
  it('stores the title, branch, author and repository GitHub gives, under the owner organization', async () => {
    const s = await scenario();
    const created = await createReview(s.user.key, { pull_request_url: s.url });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect(created.json()).toEqual({
      data: {
        id: expect.stringMatching(/^rev_/),
        status: 'in_progress',
        pull_request: { url: s.url, number: 42 },
        created_at: t.clock.now().toISOString(),
      },
      meta: { request_id: created.headers['x-request-id'], timestamp: t.clock.now().toISOString() },
    });

    // Decisions §1: the organization is the repository's owner, keyed by its GitHub id.
    const org = await organizationOf(s.org.id);
    expect(org).toMatchObject({ scm_id: s.org.id, login: s.org.login, kind: 'organization' });

    const expected = {
      id,
      status: 'in_progress',
      score: null,
      summary: null,
      pull_request: {
        url: s.url,
        number: 42,
        title: 'Add the checkout flow',
        repository: `${s.org.login}/${s.repo.name}`,
        branch: 'feature/checkout',
        author: s.author.login,
      },
      stats: null,
      created_at: t.clock.now().toISOString(),
      completed_at: null,
      organization_id: org?.id,
      team_id: null,
      error: null,
    };
    for (const credential of [s.user.key, s.user.jwt]) {
      const res = await getReview(credential, id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual(expected);
    }

    // A member of the organization (GitHub lists the membership at sign-in) sees it; others do not.
    const member = await signIn(
      t,
      github,
      github.addUser({ login: unique('member'), memberships: [{ organization: s.org, role: 'member' }] }),
    );
    const seen = await getReview(member.jwt, id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data).toEqual(expected);
    const stranger = await signIn(t, github, github.addUser({ login: unique('stranger') }));
    expectError(await getReview(stranger.key, id), t, {
      status: 404,
      type: 'not_found_error',
      code: 'resource_not_found',
    });
  });

  it('puts a review of a personal repository under that user account organization', async () => {
    const owner = github.addUser({ login: unique('solo') });
    const repo = github.addRepo(owner, 'dotfiles', { private: true });
    const pull = github.addPullRequest(repo, { title: 'Tidy up', head: { ref: 'tidy', sha: 'a'.repeat(40) } });
    const account = await signIn(t, github, owner);
    const created = await createReview(account.key, { pull_request_url: github.pullRequestUrl(repo, pull) });
    expect(created.statusCode).toBe(201);
    const review = (await getReview(account.key, created.json().data.id)).json().data;
    const org = await organizationOf(owner.id);
    expect(org).toMatchObject({ login: owner.login, kind: 'user' });
    expect(review).toMatchObject({
      organization_id: org?.id,
      pull_request: { title: 'Tidy up', branch: 'tidy', author: owner.login, repository: `${owner.login}/dotfiles` },
    });
  });
});

describe('team_id (decisions §1)', () => {
  async function createTeam(credential: string, organizationId: string, name: string): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: auth(credential),
      payload: { organization_id: organizationId, name },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }

  it("accepts a team of the pull request's organization and refuses one of another (422)", async () => {
    const s = await scenario();
    // The first review creates the organization; then the user is made its admin.
    expect((await createReview(s.user.key, { pull_request_url: s.url, auto_review: false })).statusCode).toBe(201);
    const org = await organizationOf(s.org.id);
    if (!org) throw new Error('organization not created');
    await t.database.db
      .insertInto('memberships')
      .values({ organization_id: org.id, user_id: s.user.userId, role: 'admin' })
      .execute();
    const team = await createTeam(s.user.jwt, org.id, 'backend');

    // The user's personal organization (admin of it since sign-in): a team there is of another organization.
    const personal = await t.database.db
      .selectFrom('organizations')
      .select('id')
      .where('scm_id', '=', s.user.fake.id)
      .executeTakeFirstOrThrow();
    const otherTeam = await createTeam(s.user.jwt, personal.id, 'elsewhere');

    const teamError = {
      status: 422,
      type: 'validation_error',
      code: 'validation_error',
      details: { field: 'team_id', issue: expect.any(String) },
    };
    for (const teamId of [otherTeam, 'team_doesnotexist']) {
      expectError(await createReview(s.user.key, { pull_request_url: s.url, team_id: teamId }), t, teamError);
    }
    expect(await reviewCount(org.id)).toBe(1);

    const created = await createReview(s.user.key, { pull_request_url: s.url, team_id: team });
    expect(created.statusCode).toBe(201);
    const review = (await getReview(s.user.key, created.json().data.id)).json().data;
    expect(review).toMatchObject({ team_id: team, organization_id: org.id });
  });
});

describe('live processing (reads the changed files from GitHub)', () => {
  it('reads every page of files and completes with their totals', async () => {
    const files = makeFiles(250); // 3 pages of 100
    const s = await scenario({ files });
    const created = await createReview(s.user.key, { pull_request_url: s.url });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;

    await t.runJobs();
    const review = (await getReview(s.user.key, id)).json().data;
    expect(review).toMatchObject({
      status: 'completed',
      completed_at: t.clock.now().toISOString(),
      score: expect.any(Number),
      summary: expect.any(String),
      error: null,
    });
    expect(review.stats).toMatchObject({
      files_changed: 250,
      lines_added: sum(files, 'additions'),
      lines_deleted: sum(files, 'deletions'),
    });
    expect(review.score).toBeGreaterThanOrEqual(0);
    expect(review.score).toBeLessThanOrEqual(100);

    const reads = github.requestsTo('pull_files');
    expect(reads.map((r) => r.path)).toEqual(Array(3).fill(`/api/repos/${s.org.login}/${s.repo.name}/pulls/42/files`));
    expect(reads.map((r) => r.query.page)).toEqual([undefined, '2', '3']);
    expect(reads.map((r) => r.query.per_page)).toEqual(['100', '100', '100']);
    // Read as the review's creator, with their GitHub token.
    for (const r of reads) expect(r.headers.authorization).toBe(`token ${s.user.githubToken}`);
  });

  it('follows Link headers when GitHub serves smaller pages than asked', async () => {
    const files = makeFiles(7);
    const s = await scenario({ files });
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    github.maxPerPage = 3;
    await t.runJobs();
    expect(github.requestsTo('pull_files').map((r) => r.query.page)).toEqual([undefined, '2', '3']);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'completed',
      stats: { files_changed: 7, lines_added: sum(files, 'additions'), lines_deleted: sum(files, 'deletions') },
    });
  });

  it('retries the job when GitHub answers 500 on the files once, then completes', async () => {
    const files = makeFiles(5);
    const s = await scenario({ files });
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    // Octokit itself retries a 5xx (src/github/octokit.ts), so one 500 no longer reaches the job:
    // GitHub fails every request of the first attempt (1 + its retries), and the job's second
    // attempt completes with one more request.
    github.fail('pull_files', { status: 500, times: REQUESTS_PER_CALL });
    await t.runJobs();
    expect(github.requestsTo('pull_files')).toHaveLength(REQUESTS_PER_CALL + 1);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'completed',
      error: null,
      stats: { files_changed: 5, lines_added: sum(files, 'additions'), lines_deleted: sum(files, 'deletions') },
    });
  });

  it('fails with processing_error once every attempt met a GitHub 500', async () => {
    const s = await scenario();
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    github.fail('pull_files', { status: 500 });
    await t.runJobs();
    // The job's three attempts, each one call that Octokit tries 1 + its retries times.
    expect(github.requestsTo('pull_files')).toHaveLength(3 * REQUESTS_PER_CALL);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'failed',
      error: { code: 'processing_error', message: expect.any(String) },
      stats: null,
    });
  });

  it('fails with pull_request_unavailable, without retrying, when GitHub answers 404 on the files', async () => {
    const s = await scenario();
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    github.fail('pull_files', { status: 404, body: { message: 'Not Found' } });
    await t.runJobs();
    expect(github.requestsTo('pull_files')).toHaveLength(1);
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'failed',
      completed_at: null,
      error: { code: 'pull_request_unavailable', message: expect.any(String) },
    });
  });

  it('fails with pull_request_unavailable when the repository turned private to the user meanwhile', async () => {
    const s = await scenario();
    const id = (await createReview(s.user.key, { pull_request_url: s.url })).json().data.id;
    s.repo.private = true; // and the user is not among its readers
    await t.runJobs();
    expect((await getReview(s.user.key, id)).json().data).toMatchObject({
      status: 'failed',
      error: { code: 'pull_request_unavailable' },
    });
  });
});

describe('review quota (spec 8.2; decisions §6)', () => {
  it('refuses the 11th review of a free organization within the hour with 429 and Retry-After', async () => {
    const s = await scenario();
    for (let i = 0; i < 10; i++) {
      const res = await createReview(i % 2 ? s.user.key : s.user.jwt, { pull_request_url: s.url });
      expect(res.statusCode, `review ${i + 1}`).toBe(201);
    }
    const refused = await createReview(s.user.key, { pull_request_url: s.url });
    expectError(refused, t, { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    // All ten were created at this same instant: room again exactly one hour later.
    expect(refused.headers['retry-after']).toBe('3600');
    const org = await organizationOf(s.org.id);
    expect(await reviewCount(org?.id ?? '')).toBe(10);

    // Another organization's quota is its own.
    const other = github.addOrg(unique('other'));
    const otherRepo = github.addRepo(other, 'app');
    const otherPull = github.addPullRequest(otherRepo);
    expect(
      (await createReview(s.user.key, { pull_request_url: github.pullRequestUrl(otherRepo, otherPull) })).statusCode,
    ).toBe(201);
  });

  itOnPostgres(
    'lets exactly 10 of 50 parallel creates through',
    async () => {
      const s = await scenario();
      await setPlan(t.database.db, s.user.userId, 'enterprise'); // the per-user request rate stays out of the way
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          createReview(i % 2 ? s.user.key : s.user.jwt, { pull_request_url: s.url, auto_review: false }),
        ),
      );
      const statuses = replies.map((r) => r.statusCode);
      expect(statuses.filter((c) => c === 201)).toHaveLength(10);
      expect(statuses.filter((c) => c === 429)).toHaveLength(40);
      for (const r of replies.filter((x) => x.statusCode === 429)) {
        expect(r.json().error.code).toBe('rate_limit_exceeded');
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      }
      const org = await organizationOf(s.org.id);
      expect(await reviewCount(org?.id ?? '')).toBe(10);
    },
    30_000,
  );
});

describe('GitHub Enterprise Server form (GITHUB_SERVER_URL http://host:port, GITHUB_API_URL …/api/v3)', () => {
  let ghes: FakeGitHub;
  let e: TestApp;
  beforeAll(async () => {
    ghes = await FakeGitHub.start({ apiBasePath: '/api/v3' });
    e = await createTestApp({ env: ghes.env() }); // its own database: t.runJobs() never sees these reviews
  });
  afterAll(async () => {
    await e?.close();
    await ghes?.close();
  });

  it('creates and processes a review against the Enterprise API', async () => {
    expect(e.config.github).toMatchObject({ serverUrl: ghes.serverUrl, apiUrl: `${ghes.serverUrl}/api/v3` });
    const org = ghes.addOrg('enterprise-org');
    const dev = ghes.addUser({ login: 'ghes-dev' });
    const repo = ghes.addRepo(org, 'internal-tool', { private: true, readers: [dev] });
    const files = makeFiles(120, 'lib');
    const pull = ghes.addPullRequest(repo, {
      number: 7,
      title: 'Enterprise change',
      head: { ref: 'ghes-branch', sha: 'e'.repeat(40) },
      files,
    });
    const account = await signIn(e, ghes, dev);
    const url = ghes.pullRequestUrl(repo, pull);
    expect(url).toBe(`${ghes.serverUrl}/enterprise-org/internal-tool/pull/7`);

    // A github.com URL is not this server's.
    const elsewhere = await createReview(
      account.key,
      { pull_request_url: 'https://github.com/enterprise-org/internal-tool/pull/7' },
      e,
    );
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.code).toBe('invalid_pr_url');

    const created = await createReview(account.key, { pull_request_url: url }, e);
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    await e.runJobs();
    const review = (await getReview(account.key, id, e)).json().data;
    expect(review).toMatchObject({
      status: 'completed',
      pull_request: {
        url,
        number: 7,
        title: 'Enterprise change',
        repository: 'enterprise-org/internal-tool',
        branch: 'ghes-branch',
        author: 'enterprise-org',
      },
      stats: { files_changed: 120, lines_added: sum(files, 'additions'), lines_deleted: sum(files, 'deletions') },
    });
    const repoPath = '/api/v3/repos/enterprise-org/internal-tool/pulls/7';
    expect(
      ghes.requests.filter((r) => r.path.includes('/pulls/')).map((r) => `${r.path} ${r.query.page ?? ''}`),
    ).toEqual([`${repoPath} `, `${repoPath}/files `, `${repoPath}/files 2`]);
    // Nothing went to the github.com-form fake.
    expect(github.requests).toEqual([]);
  });
});
