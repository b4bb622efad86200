import { setTimeout as delay } from 'node:timers/promises';
import type { getOctokit } from '@actions/github';
import type { CreateReviewInput, ReviewComment } from '../client/api-types.js';
import { RedlineApiError } from '../client/redline-api-error.js';
import { RedlineClient } from '../client/redline-client.js';
import { type ActionInputs, INPUT_NAMES, parseActionInputs } from './action-inputs.js';
import type { ActionIo } from './action-io.js';
import { annotateComments } from './annotate-comments.js';
import { countsBySeverity, failOnMessage } from './fail-on.js';
import { type ActionContext, findPullRequest, type PullRequestTarget } from './find-pull-request.js';
import { idempotencyKey } from './idempotency-key.js';
import { postOnPullRequest } from './post-on-pull-request.js';
import { renderReviewSummary, type SummaryReview } from './review-summary.js';
import { waitForReview } from './wait-for-review.js';

export interface RunActionDeps {
  io: ActionIo;
  env: Record<string, string | undefined>;
  /** @actions/github's context and getOctokit: the entry passes the package's own. */
  github: { context: ActionContext; getOctokit: typeof getOctokit };
  /** Both the Redline API's and GitHub's calls go through it when given. */
  fetch?: typeof fetch;
  /** Must reject when the signal aborts (the step's timeout). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const defaultSleep = async (ms: number, signal?: AbortSignal) => {
  await delay(ms, undefined, signal ? { signal } : undefined);
};

/**
 * The CI action (decisions §8): create the review of the pull request (once per workflow run),
 * wait for it, report it as outputs, annotations and a job summary, and fail the step when the
 * review failed, timed out, or has a comment at or above `fail-on`. Every failure ends in one
 * setFailed message saying why; nothing is thrown.
 */
export async function runAction(deps: RunActionDeps): Promise<void> {
  const { io, env } = deps;
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, io.getInput(name)]));
  // Masked before anything else runs, so no later line can print them (a malformed one included).
  if (raw['api-key']) io.setSecret(raw['api-key']);
  if (raw['github-token']) io.setSecret(raw['github-token']);
  let inputs: ActionInputs;
  let target: PullRequestTarget;
  try {
    inputs = parseActionInputs(raw);
    target = findPullRequest(inputs.pullRequestUrl, deps.github.context);
  } catch (error) {
    io.setFailed((error as Error).message);
    return;
  }
  const sleep = deps.sleep ?? defaultSleep;
  const timeoutMs = inputs.timeoutSeconds * 1000;
  const client = new RedlineClient({
    baseUrl: inputs.apiUrl,
    apiKey: inputs.apiKey,
    userAgent: 'redline-action',
    // A rate-limit wait longer than the whole step may take is not waited out: it fails now.
    maxRetryDelayMs: timeoutMs,
    sleep,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = deadline.signal;
  const context: ReportContext = { io, inputs, target };
  let review: SummaryReview | undefined;
  try {
    const body: CreateReviewInput = {
      pull_request_url: target.url,
      inline_comments: inputs.inlineComments,
      check_security: inputs.checkSecurity,
      check_performance: inputs.checkPerformance,
      ...(inputs.teamId ? { team_id: inputs.teamId } : {}),
    };
    const created = await client.createReview(body, { idempotencyKey: idempotencyKey(env, body), signal });
    const id = created.review.id;
    review = { ...created.review };
    io.info(
      `Redline review ${id} of ${target.url}: ${created.review.status}` +
        (created.replayed ? ' (created by an earlier attempt of this workflow run)' : ''),
    );
    if (created.replayed) {
      // A re-run is how people retry: a review that failed last time is retried, not replayed.
      const earlier = await client.getReview(id, { signal });
      if (earlier.status === 'failed') {
        io.info(`Review ${id} failed in the earlier attempt; retrying it`);
        await client.retryReview(id, { signal });
      }
    }
    let lastStatus = created.review.status;
    const done = await waitForReview(client, id, {
      signal,
      sleep,
      onRead: (read) => {
        review = read;
        if (read.status !== lastStatus) io.info(`Review ${id}: ${read.status}`);
        lastStatus = read.status;
      },
    });
    const comments = done.status === 'completed' ? await client.listComments(id, { signal }) : [];
    const verdict = verdictOf(done, comments, inputs);
    // Never throws: whatever GitHub answers, the verdict below stands.
    const posting =
      done.status === 'completed'
        ? await postOnPullRequest(
            { io, inputs, target, client, signal, sleep, github: deps.github, fetch: deps.fetch },
            done,
            comments,
          )
        : undefined;
    await report(context, done, comments, verdict, posting);
  } catch (error) {
    if (signal.aborted) {
      const waited = review
        ? `waiting for Redline review ${review.id} (still ${review.status})`
        : 'creating the Redline review';
      const message = `Timed out after ${inputs.timeoutSeconds} s ${waited}; raise timeout-seconds if reviews take longer.`;
      if (review) await report(context, review, [], { passed: false, message });
      else io.setFailed(message);
    } else if (error instanceof RedlineApiError) {
      io.setFailed(`Redline API: ${error.describe()}${waitHint(error, inputs)}`);
    } else {
      io.setFailed(`Redline action failed: ${(error as Error).message}`);
    }
  } finally {
    clearTimeout(timer);
  }
}

function waitHint(error: RedlineApiError, inputs: ActionInputs): string {
  if (error.status !== 429 || error.retryAfterMs === undefined) return '';
  return `; the API asks to wait ${Math.ceil(error.retryAfterMs / 1000)} s, longer than timeout-seconds (${inputs.timeoutSeconds})`;
}

function verdictOf(review: SummaryReview, comments: ReviewComment[], inputs: ActionInputs) {
  if (review.status === 'failed') {
    const why = review.error ? `: ${review.error.message} (${review.error.code})` : '';
    return { passed: false, message: `Redline review ${review.id} failed${why}.` };
  }
  if (review.status === 'cancelled') {
    return { passed: false, message: `Redline review ${review.id} was cancelled before it completed.` };
  }
  const blocking = failOnMessage(comments, inputs.failOn);
  if (blocking) return { passed: false, message: blocking };
  const found = comments.length === 0 ? 'no comments' : countsBySeverity(comments);
  const gate = inputs.failOn === 'never' ? 'fail-on is "never"' : `none at or above fail-on "${inputs.failOn}"`;
  return { passed: true, message: `Redline found ${found}; ${gate}.` };
}

interface ReportContext {
  io: ActionIo;
  inputs: ActionInputs;
  target: PullRequestTarget;
}

/** Outputs, annotations, summary, then the verdict: the outputs are set even when the step fails. */
async function report(
  { io, inputs, target }: ReportContext,
  review: SummaryReview,
  comments: ReviewComment[],
  verdict: { passed: boolean; message: string },
  posting?: string,
) {
  const completed = review.status === 'completed';
  const count = (severity: string) => (completed ? String(comments.filter((c) => c.severity === severity).length) : '');
  const reviewUrl = `${inputs.apiUrl}/reviews/${review.id}`;
  io.setOutput('review-id', review.id);
  io.setOutput('status', review.status);
  io.setOutput('score', review.score === null || review.score === undefined ? '' : String(review.score));
  io.setOutput('critical-count', count('critical'));
  io.setOutput('important-count', count('important'));
  io.setOutput('comments-count', completed ? String(comments.length) : '');
  io.setOutput('review-url', reviewUrl);
  annotateComments(io, comments);
  try {
    await io.writeSummary(
      renderReviewSummary({ review, comments, reviewUrl, headSha: target.headSha, verdict, posting }),
    );
  } catch (error) {
    // A summary that cannot be written must not hide the verdict.
    io.warning(`Could not write the job summary: ${(error as Error).message}`);
  }
  if (verdict.passed) io.info(verdict.message);
  else io.setFailed(verdict.message);
}
