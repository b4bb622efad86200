import type { Octokit } from '@octokit/rest';
import { AppError, upstreamError } from '../common/errors.js';
import type { ReviewEvent, ReviewFinding, ReviewPlan } from '../common/github-review/build-review-plan.js';
import { countsSentence } from '../common/github-review/counts-sentence.js';
import type { Severity } from '../common/severity.js';
import { httpStatusOf } from './octokit.js';
import { REPOSITORY_CONFIG_PATH } from './repository-config.js';

/** The check run's name on every commit (decisions §7). */
export const CHECK_RUN_NAME = 'Redline';

/** GitHub takes at most 50 annotations per request; more are appended by further updates. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** Annotations per check run, bounding a huge change to 20 requests; the text says when some were left out. */
export const MAX_ANNOTATIONS = 1000;

/** GitHub's limit on `output.summary` and `output.text` is 65,535 characters. */
const MAX_OUTPUT_CHARS = 65_000;

export type CheckConclusion = 'success' | 'failure' | 'neutral';

/**
 * How a run ended. Only a review that ran can succeed or fail, and its conclusion follows from its
 * plan; a skipped or failed run is always neutral, with the reason: a check run never reports
 * success for a review that did not run.
 */
export type CheckRunOutcome =
  | {
      kind: 'reviewed';
      plan: Pick<ReviewPlan<ReviewFinding>, 'event' | 'findings'>;
      /** The engine's (or the model's) summary of the change. */
      summary?: string | undefined;
    }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

export interface CheckRunRef {
  owner: string;
  repo: string;
  checkRunId: number;
}

export interface CompletedCheckRun {
  conclusion: CheckConclusion;
  /** Annotations GitHub took. */
  annotations: number;
  /** Annotations of batches GitHub refused after the first request (the conclusion stands). */
  failedAnnotations: number;
}

const LEVEL: Record<Severity, 'failure' | 'warning' | 'notice'> = {
  critical: 'failure',
  important: 'failure',
  warning: 'warning',
  info: 'notice',
};

const VERDICT: Record<ReviewEvent, string> = {
  REQUEST_CHANGES: 'changes requested',
  APPROVE: 'approved',
  COMMENT: 'commented',
};

function failure(what: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = httpStatusOf(error);
  return upstreamError(
    `GitHub refused the check run (${what}${status !== undefined ? `: HTTP ${status}` : ''})`,
    error,
  );
}

function clip(text: string): string {
  return text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS - 1)}…` : text;
}

/** The `Redline` check run on the commit under review, in progress from now (decisions §7). Returns its id. */
export async function startCheckRun(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  headSha: string,
  options: { now: Date; detailsUrl?: string | undefined; externalId?: string | undefined },
): Promise<number> {
  try {
    const { data } = await octokit.checks.create({
      owner: repo.owner,
      repo: repo.repo,
      name: CHECK_RUN_NAME,
      head_sha: headSha,
      status: 'in_progress',
      started_at: options.now.toISOString(),
      ...(options.detailsUrl !== undefined ? { details_url: options.detailsUrl } : {}),
      ...(options.externalId !== undefined ? { external_id: options.externalId } : {}),
    });
    return data.id;
  } catch (error) {
    throw failure('create', error);
  }
}

function outputOf(outcome: CheckRunOutcome, configErrors: readonly string[]) {
  const notes: string[] = [];
  if (configErrors.length > 0) {
    notes.push(
      `**\`${REPOSITORY_CONFIG_PATH}\` could not be used; the defaults were used instead:**\n${configErrors.map((e) => `- ${e}`).join('\n')}`,
    );
  }
  if (outcome.kind !== 'reviewed') {
    return {
      conclusion: 'neutral' as const,
      title: outcome.kind === 'skipped' ? 'Review skipped' : 'Review failed',
      summary: outcome.reason,
      notes,
      findings: [],
    };
  }
  const { plan } = outcome;
  const counts = countsSentence(plan.findings);
  const summary = [`**Redline** ${counts}: ${VERDICT[plan.event]}.`];
  if (outcome.summary?.trim()) summary.push(outcome.summary.trim());
  if (plan.findings.length > MAX_ANNOTATIONS) {
    notes.push(`Only the ${MAX_ANNOTATIONS} most severe problems are annotated; the review lists the others.`);
  }
  return {
    conclusion: plan.event === 'REQUEST_CHANGES' ? ('failure' as const) : ('success' as const),
    title: `${counts[0]?.toUpperCase()}${counts.slice(1)}`,
    summary: summary.join('\n\n'),
    notes,
    findings: plan.findings.slice(0, MAX_ANNOTATIONS),
  };
}

/**
 * Completes the check run: conclusion (failure when the review requests changes, success when it
 * ran and does not, neutral with the reason when it was skipped or failed), output, and one
 * annotation per finding (failure for critical and important, warning, notice for info). The
 * first request carries the conclusion and the first 50 annotations; each further request carries
 * the next 50 with the same title and summary, and GitHub appends them. A later batch GitHub
 * refuses is counted, not thrown: the conclusion is already in place.
 */
export async function completeCheckRun(
  octokit: Octokit,
  run: CheckRunRef,
  outcome: CheckRunOutcome,
  options: { now: Date; configErrors?: readonly string[] | undefined },
): Promise<CompletedCheckRun> {
  const output = outputOf(outcome, options.configErrors ?? []);
  const annotations = output.findings.map((f) => ({
    path: f.file,
    start_line: f.line,
    end_line: f.line,
    annotation_level: LEVEL[f.severity],
    title: `${f.severity} ${f.type} (${f.ruleId})`,
    message: f.message,
  }));
  const batches: (typeof annotations)[] = [];
  for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  }
  const text = output.notes.length > 0 ? clip(output.notes.join('\n\n')) : undefined;
  const outputWith = (batch: typeof annotations | undefined) => ({
    title: output.title,
    summary: clip(output.summary),
    ...(text !== undefined ? { text } : {}),
    ...(batch !== undefined && batch.length > 0 ? { annotations: batch } : {}),
  });
  const target = { owner: run.owner, repo: run.repo, check_run_id: run.checkRunId };

  try {
    await octokit.checks.update({
      ...target,
      status: 'completed',
      conclusion: output.conclusion,
      completed_at: options.now.toISOString(),
      output: outputWith(batches[0]),
    });
  } catch (error) {
    throw failure('complete', error);
  }
  let posted = batches[0]?.length ?? 0;
  let failed = 0;
  for (const batch of batches.slice(1)) {
    try {
      await octokit.checks.update({ ...target, output: outputWith(batch) });
      posted += batch.length;
    } catch {
      failed += batch.length;
    }
  }
  return { conclusion: output.conclusion, annotations: posted, failedAnnotations: failed };
}
