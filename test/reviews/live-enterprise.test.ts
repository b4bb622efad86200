import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '../fakes/fake-github.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createReview, getReview, github, makeFiles, signIn, sum, useLiveApp } from './live-harness.js';

useLiveApp();

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
