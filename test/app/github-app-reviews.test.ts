import { beforeEach, describe, expect, it } from 'vitest';
import {
  CHECK_RUN,
  CLEAN,
  deliver,
  fakeGitHub,
  type GitHubScript,
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

  it('requests changes on a critical problem, inline on its line, and fails the check run', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/users.js', content: VULNERABLE }] });
    const payload = pullRequestPayload('opened');
    const res = await deliver('pull_request', payload);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'queued' });
    await t.runJobs();

    const [review] = await reviewsOf();
    expect(review).toMatchObject({ status: 'completed', check_run_id: CHECK_RUN, github_review_id: 9001 });
    const head = payload.pull_request.head.sha;
    const now = t.clock.now().toISOString();
    const comments = await t.database.db
      .selectFrom('review_comments')
      .selectAll()
      .where('review_id', '=', review?.id ?? '')
      .execute();
    expect(comments).toHaveLength(1);
    const [sql] = comments;
    expect(sql).toMatchObject({ type: 'security', severity: 'critical', file: 'src/users.js', line: 4 });
    const message =
      'SQL built by interpolating or concatenating values is open to SQL injection: pass the values as query parameters (placeholders) instead.';
    const summary =
      'Reviewed 1 file (+5 −0) in JavaScript. Found 1 critical issue. Most severe: SQL built by interpolating or concatenating values is open to SQL injection (src/users.js:4).';
    expect(sent).toEqual([
      {
        method: 'POST',
        path: `${REPO}/check-runs`,
        body: { name: 'Redline', head_sha: head, status: 'in_progress', started_at: now },
      },
      {
        method: 'POST',
        path: `${REPO}/pulls/2/reviews`,
        body: {
          commit_id: head,
          event: 'REQUEST_CHANGES',
          body: `**Redline** found 1 problem (1 critical).\n\n${summary}`,
          comments: [
            {
              path: 'src/users.js',
              line: 4,
              side: 'RIGHT',
              body: `**critical** · security · \`js.sql-injection\`\n\n${message}\n\n<!-- redline:fingerprint=${sql?.fingerprint} -->`,
            },
          ],
        },
      },
      {
        method: 'PATCH',
        path: `${REPO}/check-runs/${CHECK_RUN}`,
        body: {
          status: 'completed',
          conclusion: 'failure',
          completed_at: now,
          output: {
            title: 'Found 1 problem (1 critical)',
            summary: `**Redline** found 1 problem (1 critical): changes requested.\n\n${summary}`,
            annotations: [
              {
                path: 'src/users.js',
                start_line: 4,
                end_line: 4,
                annotation_level: 'failure',
                title: 'critical security (js.sql-injection)',
                message,
              },
            ],
          },
        },
      },
    ]);
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('review_id', '=', review?.id ?? '')
      .where('type', 'like', 'pr.%')
      .execute();
    expect(events).toEqual([{ type: 'pr.changes_requested', data: expect.objectContaining({ score: review?.score }) }]);
  });

  it('does not repeat a comment already posted on the next push', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    const first = { files: [{ filename: 'src/users.js', content: VULNERABLE }] } as GitHubScript;
    fakeGitHub(first);
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const firstReview = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as {
      comments: { body: string }[];
    };
    expect(firstReview.comments.length).toBeGreaterThan(0);
    // GitHub now holds those comments, written by our bot.
    first.posted = firstReview.comments.map((c) => ({ body: c.body, user: { login: 'redline[bot]', type: 'Bot' } }));
    sent = [];
    first.head = 'f'.repeat(40);
    await deliver('pull_request', pullRequestPayload('synchronize', { sha: 'f'.repeat(40) }));
    await t.runJobs();
    const second = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as {
      commit_id: string;
      event: string;
      comments: unknown[];
    };
    expect(second.commit_id).toBe('f'.repeat(40));
    expect(second.comments).toEqual([]);
    // The problem is still there: the verdict stands.
    expect(second.event).toBe('REQUEST_CHANGES');
  });

  it("posts again a comment whose marker another bot copied: only the app's own comments count", async () => {
    await t.database.db.deleteFrom('reviews').execute();
    const first = { files: [{ filename: 'src/users.js', content: VULNERABLE }] } as GitHubScript;
    fakeGitHub(first);
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const firstReview = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as { comments: unknown[] };
    first.posted = (firstReview.comments as { body: string }[]).map((c) => ({
      body: c.body,
      user: { login: 'copycat[bot]', type: 'Bot' },
    }));
    sent = [];
    first.head = 'e'.repeat(40);
    await deliver('pull_request', pullRequestPayload('synchronize', { sha: 'e'.repeat(40) }));
    await t.runJobs();
    const second = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as { comments: unknown[] };
    expect(second.comments).toEqual(firstReview.comments);
  });

  it('approves a clean pull request with a successful check run', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const review = sent.find((s) => s.path.endsWith('/pulls/2/reviews'))?.body as Record<string, unknown>;
    expect(review).toMatchObject({ event: 'APPROVE', comments: [] });
    const completion = sent.find((s) => s.method === 'PATCH')?.body as Record<string, unknown>;
    expect(completion).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(completion).not.toHaveProperty('output.annotations');
  });

  it('explains an invalid .github/redline.yml in the check run and reviews with the defaults', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }], config: 'max_comments: lots\n' });
    await deliver('pull_request', pullRequestPayload('opened'));
    await t.runJobs();
    const completion = sent.find((s) => s.method === 'PATCH')?.body as { conclusion: string; output: { text: string } };
    expect(completion.conclusion).toBe('success');
    expect(completion.output.text).toContain('.github/redline.yml');
    expect(completion.output.text).toContain('max_comments');
  });
});
