import nock from 'nock';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { commentableLines } from '../../src/common/diff/commentable-lines.js';
import type { Finding } from '../../src/engine/types.js';
import { completeCheckRun, startCheckRun } from '../../src/github/check-run.js';
import { createOctokit } from '../../src/github/octokit.js';
import { planReview } from '../../src/github/plan-review.js';
import { listPostedFingerprints } from '../../src/github/posted-fingerprints.js';
import { publishReview } from '../../src/github/publish-review.js';
import { defaultRepositoryConfig, type RepositoryConfig } from '../../src/github/repository-config.js';
import { TEST_OCTOKIT_OPTIONS } from '../helpers/test-app.js';
import { COMMENTABLE, SQL_COMMENT_BODY } from './review-fixtures.js';

/**
 * Publishing a run to GitHub (decisions §7): one review on the reviewed commit with its
 * inline comments, and the `Redline` check run. GitHub is nock over the global fetch; every body
 * we send is asserted whole. Waits are shrunk through createOctokit's options.
 */

export const API = 'https://api.github.test';
export const PR = { owner: 'octo', repo: 'shop', number: 7 };
export const BOT = { login: 'redline[bot]', id: 41898282, type: 'Bot' };
export const HEAD_1 = '1'.repeat(40);
export const HEAD_2 = '2'.repeat(40);
export const STARTED = new Date('2030-01-02T03:04:05.000Z');
export const COMPLETED = new Date('2030-01-02T03:04:09.250Z');

export const CHECK_RUNS = '/repos/octo/shop/check-runs';
export const REVIEWS = '/repos/octo/shop/pulls/7/reviews';
export const COMMENTS = '/repos/octo/shop/pulls/7/comments';

export let seq = 0;
export const octokit = () =>
  createOctokit({
    apiUrl: API,
    token: ['ghs', 'publish', ++seq].join('_'),
    fetch: (input, init) => globalThis.fetch(input, init),
    ...TEST_OCTOKIT_OPTIONS,
  });

/** What the app does for one run, in order; the Probot wiring calls the same functions. */
export async function reviewRun(input: {
  head: string;
  findings: Finding[];
  summary?: string;
  config?: RepositoryConfig;
  configErrors?: string[];
  commentable?: ReturnType<typeof commentableLines>;
}) {
  const github = octokit();
  const checkRunId = await startCheckRun(github, PR, input.head, { now: STARTED });
  const posted = await listPostedFingerprints(github, PR, { author: BOT.login });
  const plan = planReview({
    findings: input.findings,
    commentable: input.commentable ?? COMMENTABLE,
    config: input.config ?? defaultRepositoryConfig(),
    posted,
    summary: input.summary,
  });
  const review = await publishReview(github, PR, input.head, plan);
  const check = await completeCheckRun(
    github,
    { ...PR, checkRunId },
    { kind: 'reviewed', plan, summary: input.summary },
    { now: COMPLETED, configErrors: input.configErrors },
  );
  return { plan, review, check };
}

/** Records the bodies sent to each endpoint; nock answers. */
export function recorder() {
  const sent: Record<string, unknown[]> = {};
  const keep = (name: string) => (body: unknown) => {
    sent[name] = [...(sent[name] ?? []), body];
    return true;
  };
  return { sent, keep };
}

/**
 * GitHub for one first run on a pull request: the check run `checkRunId` is created, no earlier
 * comments or reviews, the review answered `review`, the check run completed. Bodies are kept
 * under `create`, `review` and `complete`.
 */
export function firstRunScript(
  keep: (name: string) => (body: unknown) => boolean,
  checkRunId: number,
  review: Record<string, unknown>,
) {
  return nock(API)
    .post(CHECK_RUNS, keep('create'))
    .reply(201, { id: checkRunId })
    .get(COMMENTS)
    .query({ per_page: 100 })
    .reply(200, [])
    .get(REVIEWS)
    .query({ per_page: 100 })
    .reply(200, [])
    .post(REVIEWS, keep('review'))
    .reply(200, review)
    .patch(`${CHECK_RUNS}/${checkRunId}`, keep('complete'))
    .reply(200, { id: checkRunId });
}

export const CREATE_CHECK = (head: string) => ({
  name: 'Redline',
  head_sha: head,
  status: 'in_progress',
  started_at: '2030-01-02T03:04:05.000Z',
});

export const SQL_COMMENT = {
  path: 'src/users.ts',
  line: 12,
  side: 'RIGHT',
  body: SQL_COMMENT_BODY,
};

export const SQL_ANNOTATION = {
  path: 'src/users.ts',
  start_line: 12,
  end_line: 12,
  annotation_level: 'failure',
  title: 'critical security (js.sql-injection)',
  message: 'SQL built by concatenating values is open to SQL injection: pass the values as query parameters.',
};

/** No real network for the file's tests; nock's interceptors cleared after each. */
export function useNockOnly(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());
}
