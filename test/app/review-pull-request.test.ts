import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PullRequestEventInfo, reviewPullRequest } from '../../src/app/review-pull-request.js';
import { AppError } from '../../src/common/errors.js';
import { createOctokit } from '../../src/github/octokit.js';
import type { ReviewService } from '../../src/reviews/review-service.js';
import { TEST_OCTOKIT_OPTIONS } from '../helpers/test-app.js';
import { testClock } from '../helpers/test-clock.js';

/**
 * The app's pull-request handler when the review cannot be created: its `Redline` check run is
 * never left in progress, whether the refusal is final (a quota) or the handler will be retried
 * (an internal failure, which starts a new check run on the next attempt).
 */

const API = 'https://api.github.test';
const REPO = '/repos/octo/shop';
const CHECK_RUN = 4242;
const clock = testClock('2030-03-04T05:06:07.000Z');

const pr: PullRequestEventInfo = {
  owner: { id: 1, login: 'octo', kind: 'organization' },
  repo: 'shop',
  repositoryId: 99,
  number: 5,
  url: 'https://github.com/octo/shop/pull/5',
  title: 'Change',
  headSha: 'a'.repeat(40),
  headRef: 'feature',
  baseRef: 'main',
  draft: false,
  author: 'dev',
  updatedAt: new Date('2030-03-04T05:00:00Z'),
};

/** A review service whose creation fails with `error`; the handler needs nothing else of it. */
const failingReviews = (error: Error) =>
  ({
    createForApp: async () => {
      throw error;
    },
  }) as unknown as ReviewService;

function githubRecordingCheckRuns() {
  const sent: { method: string; body: unknown }[] = [];
  nock(API)
    .get(`${REPO}/contents/.github%2Fredline.yml`)
    .reply(404, { message: 'Not Found' })
    .post(`${REPO}/check-runs`)
    .reply(201, (_uri, body) => {
      sent.push({ method: 'POST', body });
      return { id: CHECK_RUN };
    })
    .patch(`${REPO}/check-runs/${CHECK_RUN}`)
    .reply(200, (_uri, body) => {
      sent.push({ method: 'PATCH', body });
      return { id: CHECK_RUN };
    });
  return sent;
}

const octokit = () => createOctokit({ ...TEST_OCTOKIT_OPTIONS, apiUrl: API, token: 'test', fetch: globalThis.fetch });
const completed = (summary: string) => ({
  method: 'PATCH',
  body: {
    status: 'completed',
    conclusion: 'neutral',
    completed_at: '2030-03-04T05:06:07.000Z',
    output: { title: 'Review failed', summary },
  },
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

describe('a pull request whose review cannot be created', () => {
  it('closes the check run neutral with the reason when the service refuses (a quota), and returns', async () => {
    const sent = githubRecordingCheckRuns();
    const deps = {
      clock,
      publicUrl: 'https://redline.test',
      reviews: failingReviews(new AppError('rate_limit_exceeded', 429, 'Monthly review quota reached')),
    };
    await reviewPullRequest(deps, octokit(), pr, 'event');
    expect(sent).toEqual([
      {
        method: 'POST',
        body: {
          name: 'Redline',
          head_sha: pr.headSha,
          status: 'in_progress',
          started_at: '2030-03-04T05:06:07.000Z',
        },
      },
      completed('Redline could not start the review: Monthly review quota reached'),
    ]);
  });

  it('closes the check run neutral before an internal failure is thrown for the retry', async () => {
    const sent = githubRecordingCheckRuns();
    const deps = {
      clock,
      publicUrl: 'https://redline.test',
      reviews: failingReviews(new Error('Connection terminated unexpectedly')),
    };
    await expect(reviewPullRequest(deps, octokit(), pr, 'event')).rejects.toThrow('Connection terminated unexpectedly');
    expect(sent.map((s) => s.method)).toEqual(['POST', 'PATCH']);
    expect(sent[1]).toEqual(
      completed('Redline could not start the review because of an internal error; it tries again.'),
    );
  });
});
