import type { getOctokit } from '@actions/github';
import type { Review, ReviewComment } from '../client/api-types.js';
import { RedlineApiError } from '../client/redline-api-error.js';
import type { RedlineClient } from '../client/redline-client.js';
import type { ReviewEvent } from '../common/github-review/build-review-plan.js';
import type { ActionInputs } from './action-inputs.js';
import type { ActionIo } from './action-io.js';
import type { ActionContext, PullRequestTarget } from './find-pull-request.js';
import { postReview, reviewFindings } from './post-review.js';
import { pollDelayMs } from './wait-for-review.js';

export interface PostingDeps {
  io: ActionIo;
  inputs: ActionInputs;
  target: PullRequestTarget;
  client: RedlineClient;
  signal: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  github: { context: ActionContext; getOctokit: typeof getOctokit };
  fetch?: typeof fetch | undefined;
}

const EVENT_WORDS: Record<ReviewEvent, string> = {
  APPROVE: 'approving',
  REQUEST_CHANGES: 'requesting changes',
  COMMENT: 'commenting',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Polls while the App may still post the review; the step's timeout ends the wait. */
async function publicationOf(deps: PostingDeps, review: Review): Promise<Review['publication']> {
  let publication = review.publication;
  for (let poll = 0; publication === 'pending'; poll++) {
    await deps.sleep(pollDelayMs(poll), deps.signal);
    publication = (await deps.client.getReview(review.id, { signal: deps.signal })).publication;
  }
  return publication;
}

/**
 * Posts the review on the pull request when the Redline App does not (decisions §20), and says
 * what became of it in one Markdown sentence for the job summary (undefined: nothing to say).
 * Never throws: a GitHub or API failure is a warning and a sentence, and the step's verdict,
 * taken before, stands.
 */
export async function postOnPullRequest(
  deps: PostingDeps,
  review: Review,
  comments: ReviewComment[],
): Promise<string | undefined> {
  const { io, inputs, target } = deps;
  if (!inputs.githubToken) {
    io.info('github-token is empty: the review is not posted on the pull request (annotations only).');
    return undefined;
  }
  if (!inputs.inlineComments) {
    io.info('inline-comments is false: the review is not posted on the pull request (annotations only).');
    return undefined;
  }
  const notPosted = (why: string) => {
    io.info(`The review is not posted on the pull request: ${why}`);
    return `Not posted on the pull request: ${why}`;
  };
  let publication: Review['publication'];
  try {
    publication = await publicationOf(deps, review);
  } catch (error) {
    const why = deps.signal.aborted
      ? `timeout-seconds ran out before the Redline App said whether it posts the review, so the action did not (it would post it twice).`
      : `the Redline API did not say whether its App posts the review (${error instanceof RedlineApiError ? error.describe() : (error as Error).message}).`;
    io.warning(`Redline: ${why}`);
    return `Not posted on the pull request: ${why}`;
  }
  if (publication === 'published') {
    io.info('The Redline App posted this review on the pull request.');
    return 'Posted on the pull request by the Redline App.';
  }
  if (publication === undefined) {
    return notPosted('this Redline server does not say whether its GitHub App posts reviews; update it.');
  }
  if (target.readOnlyToken) {
    return notPosted(
      'this `pull_request` run comes from a fork (or Dependabot), and GitHub gives it a read-only token. ' +
        'The annotations and this summary carry the review; to post it, run on `pull_request_target` ' +
        'or install the Redline App (docs/ci-action.md).',
    );
  }
  if (target.ref === undefined) {
    return notPosted(`${target.url} is not a pull request on ${deps.github.context.serverUrl}.`);
  }
  const findings = reviewFindings(comments);
  if (findings === undefined) {
    return notPosted("this Redline server does not give its comments' fingerprints; update it.");
  }
  const octokit = deps.github.getOctokit(inputs.githubToken, {
    baseUrl: deps.github.context.apiUrl,
    ...(deps.fetch ? { request: { fetch: deps.fetch } } : {}),
  });
  try {
    const posted = await postReview(
      { octokit, pr: target.ref, headSha: target.headSha, comments, summary: review.summary, signal: deps.signal },
      findings,
    );
    const earlier = posted.alreadyPosted > 0 ? `; ${posted.alreadyPosted} already posted by an earlier review` : '';
    const sentence =
      `Posted [a review](${posted.url}) on the pull request, ${EVENT_WORDS[posted.event]}: ` +
      `${plural(posted.inline, 'inline comment')}, ${posted.inBody} in its body${earlier}.`;
    io.info(sentence);
    return sentence;
  } catch (error) {
    const message = (error as Error).message;
    io.warning(`Could not post the review on the pull request: ${message}`);
    return `Not posted on the pull request: ${message}`;
  }
}
