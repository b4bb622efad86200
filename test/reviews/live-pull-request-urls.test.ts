import { describe, expect, it } from 'vitest';
import {
  createReview,
  expectError,
  github,
  invalidPrUrl,
  prNotFound,
  reviewsOfUser,
  scenario,
  signIn,
  t,
  unique,
  useLiveApp,
} from './live-harness.js';

useLiveApp();

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
