import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import { AppError } from '../common/errors.js';
import { newId } from '../common/ids.js';
import { orderFindings } from '../common/order-findings.js';
import type { Analysis, Database, JobRow, ReviewRow } from '../db/schema.js';
import { reportScore, reportStats } from '../engine/report/report-input.js';
import type { ChangedFile, Finding } from '../engine/types.js';
import { assistWithLlm, type LlmSettings } from './llm-assist.js';
import { insertReviewComments } from './repository/review-comments.js';
import { findReview, overdueReviews, updateReviewAttempt } from './repository/review-rows.js';
import { eventSummary, type ReviewEventType, recordEvents, reviewEventData } from './review-events.js';
import { enqueuePublish } from './review-publisher.js';
import { testModeOutcome } from './test-mode-outcome.js';

export interface ReviewProcessorDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  /** The optional language model (LLM_*); without it the rule engine works alone. */
  llm?: LlmSettings | undefined;
  logger?: { warn(obj: object, msg: string): void } | undefined;
  /** Live mode: the pull request's changed files, read as the review's creator. */
  readChangedFiles(review: ReviewRow): Promise<ChangedFile[]>;
}

interface Result {
  files: ChangedFile[];
  findings: Finding[];
  analysis: Analysis;
  summary: string;
}

/** Errors worth another attempt: GitHub or the network failing, not the pull request being gone. */
function isTransient(error: unknown): boolean {
  return !(error instanceof AppError) || error.status >= 500;
}

/**
 * The job that runs a review. It reads the review as queued (status and attempt), computes the
 * result without holding a transaction, then publishes it only if the review is still that same
 * in-progress attempt: a cancel or a retry that happened meanwhile wins and the result is dropped.
 */
export function makeReviewProcessor(deps: ReviewProcessorDeps) {
  return async (job: JobRow): Promise<void> => {
    const payload = job.payload as unknown as { review_id: string; attempt: number };
    const review = await findReview(deps.db, payload.review_id);
    if (review === undefined || review.status !== 'in_progress' || review.attempt !== payload.attempt) return;

    const started = Date.now();
    let result: Result;
    if (review.mode === 'test') {
      const outcome = testModeOutcome(review.pr_url, review.pr_number);
      if (outcome.kind === 'fail') return fail(deps, review, outcome.code, outcome.message);
      result = outcome;
    } else {
      try {
        const files = await deps.readChangedFiles(review);
        // Loaded by the first review a process runs, not at start: the rule packs, the grammars
        // and the flow analysis are most of an idle server's memory that a review alone uses.
        const { reviewChange } = await import('../engine/review-change.js');
        const engine = reviewChange(
          { files },
          { checkSecurity: review.options.check_security, checkPerformance: review.options.check_performance },
        );
        const assisted = deps.llm ? await assistWithLlm(deps.llm, files, engine) : undefined;
        if (assisted?.warning)
          deps.logger?.warn({ review_id: review.id, warning: assisted.warning }, 'language model skipped');
        result = {
          files,
          findings: assisted?.findings ?? engine.findings,
          summary: assisted?.summary ?? engine.summary,
          analysis: {
            ...engine.analysis,
            tokens_used: assisted?.tokensUsed ?? 0,
            processing_time_ms: Date.now() - started,
          },
        };
      } catch (error) {
        if (isTransient(error) && job.attempts < job.max_attempts) throw error;
        const code =
          error instanceof AppError && error.status === 404 ? 'pull_request_unavailable' : 'processing_error';
        const message =
          error instanceof AppError && error.status < 500
            ? error.message
            : 'The pull request could not be read from GitHub';
        return fail(deps, review, code, message);
      }
    }
    await publish(deps, review, result);
  };
}

/** One transaction: comments, the completed review and its events; nothing if the review moved on. */
async function publish(deps: ReviewProcessorDeps, queued: ReviewRow, result: Result): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const stats = reportStats(result);
    const review = await updateReviewAttempt(trx, queued, {
      status: 'completed',
      score: reportScore(result),
      summary: result.summary,
      stats: JSON.stringify(stats),
      analysis: JSON.stringify(result.analysis),
      completed_at: now,
      updated_at: now,
    });
    if (review === undefined) return;
    const comments = orderFindings(result.findings).map((f) => ({
      id: newId('cmt'),
      review_id: review.id,
      type: f.type,
      severity: f.severity,
      message: f.message,
      file: f.file,
      line: f.line,
      suggestion: f.suggestion ?? null,
      code_snippet: f.codeSnippet ?? null,
      rule_id: f.ruleId,
      fingerprint: f.fingerprint,
      cwe: f.cwe ?? null,
      cvss_score: f.cvssScore ?? null,
      created_at: now,
    }));
    await insertReviewComments(trx, comments);
    const base = reviewEventData(review, deps.publicUrl);
    const events: { type: ReviewEventType; data: Record<string, unknown> }[] = [
      { type: 'review.completed', data: { ...base, summary: eventSummary(comments) } },
    ];
    for (const c of comments) {
      if (c.type !== 'security' || (c.severity !== 'critical' && c.severity !== 'important')) continue;
      events.push({
        type: 'security.alert',
        data: {
          alert_id: c.id,
          severity: c.severity,
          type: c.rule_id,
          repository: { id: review.repository_id, name: review.repository },
          file: c.file,
          line: c.line,
          description: c.message,
          recommendation: c.suggestion ?? c.message,
          cwe: c.cwe,
          cvss_score: c.cvss_score,
        },
      });
    }
    await recordEvents(trx, review, events, now);
    await enqueuePublish(trx, review, now);
  });
}

async function fail(deps: ReviewProcessorDeps, queued: ReviewRow, code: string, message: string): Promise<void> {
  await failReview(deps.db, queued, code, message, deps.clock.now(), deps.publicUrl);
}

/** in_progress → failed for that same attempt, with its event; a no-op if the review moved on. */
export async function failReview(
  db: Kysely<Database>,
  queued: Pick<ReviewRow, 'id' | 'attempt'>,
  code: string,
  message: string,
  now: Date,
  publicUrl: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const review = await updateReviewAttempt(trx, queued, {
      status: 'failed',
      error_code: code,
      error_message: message,
      updated_at: now,
    });
    if (review === undefined) return false;
    await recordEvents(
      trx,
      review,
      [{ type: 'review.failed', data: { ...reviewEventData(review, publicUrl), error: { code, message } } }],
      now,
    );
    await enqueuePublish(trx, review, now);
    return true;
  });
}

/** Decisions: a review never stays in progress forever. Fails those past their deadline. */
export async function failOverdueReviews(db: Kysely<Database>, now: Date, publicUrl: string): Promise<number> {
  const overdue = await overdueReviews(db, now, 100);
  let failed = 0;
  for (const review of overdue) {
    if (await failReview(db, review, 'deadline_exceeded', 'The review did not finish in time', now, publicUrl))
      failed++;
  }
  return failed;
}
