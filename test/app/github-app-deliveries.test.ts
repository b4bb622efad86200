import { beforeEach, describe, expect, it } from 'vitest';
import { QUEUES } from '../../src/jobs/queues.js';
import {
  CLEAN,
  deliver,
  example,
  fakeGitHub,
  pullRequestPayload,
  reviewsOf,
  type SentRequest,
  t,
  useGitHubApp,
} from './github-app-harness.js';

describe('the GitHub App', () => {
  let sent: SentRequest[];
  useGitHubApp((request) => sent.push(request));
  beforeEach(() => {
    sent = [];
  });

  it('refuses a bad signature without calling GitHub or queueing anything', async () => {
    const before = await t.database.db.selectFrom('jobs').select('id').execute();
    const res = await deliver('pull_request', pullRequestPayload('opened'), undefined, 'not-the-secret');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/github/webhooks',
      headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-github-delivery': 'x' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(401);
    expect(await t.database.db.selectFrom('jobs').select('id').execute()).toEqual(before);
    await t.runJobs();
    expect(sent).toEqual([]);
  });

  it('makes one review of the same delivery received twice', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    const payload = pullRequestPayload('opened');
    const first = await deliver('pull_request', payload, 'delivery-1');
    const second = await deliver('pull_request', payload, 'delivery-1');
    expect(first.json().status).toBe('queued');
    expect(second.statusCode).toBe(202);
    expect(second.json().status).toBe('duplicate');
    await t.runJobs();
    expect(await reviewsOf()).toHaveLength(1);
    expect(sent.filter((s) => s.path.endsWith('/pulls/2/reviews'))).toHaveLength(1);
  });

  it('skips a draft with a neutral check run that says why', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [] });
    await deliver('pull_request', pullRequestPayload('opened', { draft: true }));
    await t.runJobs();
    expect(await reviewsOf()).toEqual([]);
    const completion = sent.find((s) => s.method === 'PATCH')?.body as {
      conclusion: string;
      output: { summary: string };
    };
    expect(completion.conclusion).toBe('neutral');
    expect(completion.output.summary).toContain('Draft');
  });

  it('records the organization of a new installation', async () => {
    const payload = example('installation', 'created') as unknown as {
      installation: { account: { id: number; login: string } };
    };
    payload.installation.account = { ...payload.installation.account, id: 777_001, login: 'installed-org' };
    expect((await deliver('installation', payload)).statusCode).toBe(202);
    await t.runJobs();
    const org = await t.database.db
      .selectFrom('organizations')
      .select(['login', 'scm_id'])
      .where('scm_id', '=', 777_001)
      .executeTakeFirst();
    expect(org).toEqual({ login: 'installed-org', scm_id: 777_001 });
  });

  it('supersedes the queued review of an older head when a newer push arrives', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }], head: 'a'.repeat(40) });
    await deliver('pull_request', pullRequestPayload('opened', { updatedAt: '2026-01-01T10:00:00Z' }));
    t.clock.advance(1000);
    await deliver(
      'pull_request',
      pullRequestPayload('synchronize', { sha: 'a'.repeat(40), updatedAt: '2026-01-01T10:05:00Z' }),
    );
    // Both events are handled before any review runs: the first review is still queued.
    await t.runJobs({ only: [QUEUES.githubEvent] });
    await t.runJobs();
    const reviews = await reviewsOf();
    expect(reviews.map((r) => [r.head_sha, r.status])).toEqual([
      [pullRequestPayload('opened').pull_request.head.sha, 'cancelled'],
      ['a'.repeat(40), 'completed'],
    ]);
    // One GitHub review, for the newer head; the older check run closed as neutral.
    const published = sent.filter((s) => s.path.endsWith('/pulls/2/reviews'));
    expect(published.map((p) => (p.body as { commit_id: string }).commit_id)).toEqual(['a'.repeat(40)]);
    const neutral = sent.filter(
      (s) => s.method === 'PATCH' && (s.body as { conclusion?: string }).conclusion === 'neutral',
    );
    expect(neutral.map((n) => (n.body as { output: { summary: string } }).output.summary)).toEqual([
      'Superseded by a newer push (aaaaaaa).',
    ]);
  });

  it('ignores a late event of an older push once a newer one is reviewed', async () => {
    await t.database.db.deleteFrom('reviews').execute();
    fakeGitHub({ files: [{ filename: 'src/math.js', content: CLEAN }] });
    await deliver(
      'pull_request',
      pullRequestPayload('synchronize', { sha: 'c'.repeat(40), updatedAt: '2026-02-01T10:05:00Z' }),
    );
    await t.runJobs();
    sent = [];
    await deliver('pull_request', pullRequestPayload('opened', { updatedAt: '2026-02-01T10:00:00Z' }));
    await t.runJobs();
    expect((await reviewsOf()).map((r) => [r.head_sha, r.status])).toEqual([['c'.repeat(40), 'completed']]);
    const completion = sent.find((s) => s.method === 'PATCH')?.body as {
      conclusion: string;
      output: { summary: string };
    };
    expect(completion).toMatchObject({
      conclusion: 'neutral',
      output: { summary: 'A newer push of this pull request is already reviewed.' },
    });
  });
});
