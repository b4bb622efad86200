import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  API,
  CLEAN,
  deliver,
  example,
  fakeGitHub,
  pullRequestPayload,
  REPO,
  reviewsOf,
  type SentRequest,
  t,
  useGitHubApp,
  VULNERABLE,
} from './github-app-harness.js';

describe('the GitHub App', () => {
  let sent: SentRequest[];
  useGitHubApp((request) => sent.push(request));
  beforeEach(() => {
    sent = [];
  });

  it('re-reviews on "/redline review" from a writer and ignores it from a reader', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    const comment = (login: string) => {
      const payload = example('issue_comment', 'created') as unknown as {
        issue: { number: number; pull_request?: unknown };
        comment: { body: string; user: { login: string; type: string } };
      };
      payload.issue.number = 2;
      payload.issue.pull_request = { url: `${API}${REPO}/pulls/2` };
      payload.comment.body = 'Could you look again?\n/redline review';
      payload.comment.user = { ...payload.comment.user, login, type: 'User' };
      return payload;
    };
    nock(API)
      .get(`${REPO}/collaborators/reader/permission`)
      .reply(200, { permission: 'read' })
      .get(`${REPO}/collaborators/writer/permission`)
      .reply(200, { permission: 'write' });
    await deliver('issue_comment', comment('reader'));
    await t.runJobs();
    expect(await reviewsOf()).toEqual([]);
    await deliver('issue_comment', comment('writer'));
    await t.runJobs();
    expect((await reviewsOf()).map((r) => r.status)).toEqual(['completed']);
    expect(nock.pendingMocks().filter((m) => m.includes('collaborators'))).toEqual([]);
  });

  it('emits config.updated when a push to the default branch changes .github/redline.yml', async () => {
    fakeGitHub({ files: [], config: 'max_comments: 5\n' });
    const payload = example('push') as unknown as {
      ref: string;
      after: string;
      repository: { id: number; default_branch: string; full_name: string };
      commits: { added: string[]; modified: string[]; removed: string[] }[];
    };
    payload.ref = `refs/heads/${payload.repository.default_branch}`;
    payload.after = 'b'.repeat(40);
    payload.commits = [{ ...(payload.commits[0] ?? {}), added: [], modified: ['.github/redline.yml'], removed: [] }];
    await deliver('push', payload, 'push-delivery-1');
    await t.runJobs();
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data', 'mode'])
      .where('type', '=', 'config.updated')
      .execute();
    expect(events).toEqual([
      {
        type: 'config.updated',
        mode: 'live',
        data: {
          repository: { id: String(payload.repository.id), name: payload.repository.full_name, provider: 'github' },
          path: '.github/redline.yml',
          commit_sha: 'b'.repeat(40),
          valid: true,
          errors: [],
        },
      },
    ]);
  });

  it('lists every finding in the body when the pull request moved on before publishing', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    // GitHub's head is already a newer commit than the one reviewed.
    fakeGitHub({ files: [{ filename: 'src/users.js', content: VULNERABLE }], head: 'd'.repeat(40) });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const review = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as {
      commit_id: string;
      event: string;
      body: string;
      comments: unknown[];
    };
    expect(review.commit_id).toBe(pullRequestPayload('opened').pull_request.head.sha);
    expect(review.comments).toEqual([]);
    expect(review.event).toBe('REQUEST_CHANGES');
    expect(review.body).toContain('src/users.js:4');
  });

  it('closes the check run as neutral when GitHub keeps refusing the review', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    nock(API)
      .persist()
      .post(`${REPO}/pulls/2/reviews`)
      .reply(403, { message: 'Resource not accessible by integration' });
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const [review] = await reviewsOf();
    expect(review).toMatchObject({ status: 'completed', github_review_id: null });
    expect(review?.published_at).not.toBeNull();
    const completion = sent.find((s) => s.method === 'PATCH')?.body as {
      conclusion: string;
      output: { summary: string };
    };
    expect(completion.conclusion).toBe('neutral');
    expect(completion.output.summary).toContain('could not post its review');
  });

  it('publishes a review made through the API with inline comments on a repository the app is on', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/users.js', content: VULNERABLE }] });
    const pr = pullRequestPayload('opened').pull_request;
    const { user } = await t.createUser();
    const key = await t.createToken(user.id);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reviews',
      headers: { 'x-api-key': key },
      payload: { pull_request_url: 'https://github.com/Codertocat/Hello-World/pull/2' },
    });
    expect(created.statusCode).toBe(201);
    await t.runJobs();
    // No check run for an API review: one GitHub review, on the reviewed commit.
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([`POST ${REPO}/pulls/2/reviews`]);
    expect(sent[0]?.body).toMatchObject({ commit_id: pr.head.sha, event: 'REQUEST_CHANGES' });
    const review = await t.database.db
      .selectFrom('reviews')
      .select(['source', 'github_review_id'])
      .where('id', '=', created.json().data.id)
      .executeTakeFirst();
    expect(review).toEqual({ source: 'api', github_review_id: 9001 });
    // What the CI action reads to know it need not post the review itself (decisions §20).
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/reviews/${created.json().data.id}`,
      headers: { 'x-api-key': key },
    });
    expect(read.json().data.publication).toBe('published');
  });
});
