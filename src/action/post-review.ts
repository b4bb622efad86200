import type { getOctokit } from '@actions/github';
import type { ReviewComment } from '../client/api-types.js';
import { commentableLines } from '../common/diff/commentable-lines.js';
import {
  buildReviewPlan,
  DEFAULT_REVIEW_GATE,
  type ReviewEvent,
  type ReviewFinding,
} from '../common/github-review/build-review-plan.js';
import { inlineCommentFingerprint, reviewBodyFingerprints } from '../common/github-review/fingerprint-marker.js';
import { GithubApiError, githubCall, statusOf } from './github-api-error.js';

export type ActionOctokit = ReturnType<typeof getOctokit>;

export interface PostReviewInput {
  octokit: ActionOctokit;
  pr: { owner: string; repo: string; number: number };
  /** The commit this run is about (the event's head); the pull request's current head when undefined. */
  headSha: string | undefined;
  comments: ReviewComment[];
  summary: string | null | undefined;
  signal?: AbortSignal | undefined;
}

export interface PostedReview {
  url: string;
  event: ReviewEvent;
  inline: number;
  inBody: number;
  alreadyPosted: number;
}

/** The API's comments as the review plan takes them; undefined when the server gives no fingerprints. */
export function reviewFindings(comments: ReviewComment[]): ReviewFinding[] | undefined {
  const findings: ReviewFinding[] = [];
  for (const c of comments) {
    if (c.fingerprint === undefined || c.rule_id === undefined) return undefined;
    findings.push({
      file: c.file,
      line: c.line,
      fingerprint: c.fingerprint,
      severity: c.severity,
      type: c.type,
      message: c.message,
      suggestion: c.suggestion,
      ruleId: c.rule_id,
    });
  }
  return findings;
}

/**
 * Posts the Redline review on the pull request with the workflow's token, as the App would
 * (decisions §7 and §20): one review on the head commit, under the App's gate and rendering,
 * inline comments only on lines of that commit's diff (the rest in the body), nothing a bot
 * already posted (the hidden fingerprint markers of earlier runs and of the App). Throws a
 * GithubApiError naming the call that failed.
 */
export async function postReview(input: PostReviewInput, findings: ReviewFinding[]): Promise<PostedReview> {
  const { octokit, pr, signal } = input;
  const params = { owner: pr.owner, repo: pr.repo, pull_number: pr.number, per_page: 100, request: { signal } };
  const current = await githubCall('reading the pull request', () =>
    octokit.rest.pulls.get({ owner: pr.owner, repo: pr.repo, pull_number: pr.number, request: { signal } }),
  );
  const commitId = input.headSha ?? current.data.head.sha;
  // The current diff says where comments may go on the current head only: after a newer push,
  // every finding goes to the body (this run's commit is no longer what the diff shows).
  const files =
    current.data.head.sha === commitId
      ? await githubCall("listing the pull request's files", () =>
          octokit.paginate(octokit.rest.pulls.listFiles, params),
        )
      : [];
  const posted = new Set<string>();
  const bot = (user: { type?: string } | null) => user?.type === 'Bot';
  const earlierComments = await githubCall("listing the pull request's review comments", () =>
    octokit.paginate(octokit.rest.pulls.listReviewComments, params),
  );
  for (const comment of earlierComments) {
    const fingerprint = bot(comment.user) ? inlineCommentFingerprint(comment.body) : undefined;
    if (fingerprint !== undefined) posted.add(fingerprint);
  }
  const earlierReviews = await githubCall("listing the pull request's reviews", () =>
    octokit.paginate(octokit.rest.pulls.listReviews, params),
  );
  for (const review of earlierReviews) {
    if (bot(review.user) && review.body) for (const f of reviewBodyFingerprints(review.body)) posted.add(f);
  }

  const plan = buildReviewPlan({
    findings,
    commentable: commentableLines(files.map((f) => ({ path: f.filename, status: f.status, patch: f.patch }))),
    gate: DEFAULT_REVIEW_GATE,
    listedIn: "listed in the workflow run's job summary",
    posted,
    summary: input.summary ?? undefined,
  });
  const target = { owner: pr.owner, repo: pr.repo, pull_number: pr.number, commit_id: commitId, event: plan.event };
  const posting = 'posting the review on the pull request';
  let created: Awaited<ReturnType<typeof octokit.rest.pulls.createReview>>;
  let fallback = false;
  try {
    created = await octokit.rest.pulls.createReview({
      ...target,
      body: plan.body,
      comments: plan.comments,
      request: { signal },
    });
  } catch (error) {
    // 422: GitHub refused an inline comment, and the whole review with it; sent once more with
    // every new finding in the body, as the App does, rather than not at all.
    if (statusOf(error) !== 422 || plan.comments.length === 0)
      throw new GithubApiError(posting, statusOf(error), error);
    fallback = true;
    created = await githubCall(posting, () =>
      octokit.rest.pulls.createReview({ ...target, body: plan.fallbackBody, request: { signal } }),
    );
  }
  const inline = fallback ? 0 : plan.comments.length;
  return {
    url: created.data.html_url,
    event: plan.event,
    inline,
    inBody: plan.findings.length - plan.alreadyPosted - inline,
    alreadyPosted: plan.alreadyPosted,
  };
}
