import { chatCompletion } from '../chat-completions/chat-completion.js';
import { DiffIndex } from '../common/diff/diff-index.js';
import { orderFindings } from '../common/order-findings.js';
import { buildLlmPrompt } from '../engine/llm/build-llm-prompt.js';
import { llmFindings, parseLlmReview } from '../engine/llm/merge-llm-review.js';
import type { ChangedFile, EngineResult, Finding } from '../engine/types.js';

export interface LlmSettings {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

export interface Assisted {
  findings: Finding[];
  summary: string;
  tokensUsed: number;
  /** Why the model's answer was not used, when it was not. */
  warning?: string | undefined;
}

/**
 * The optional language model reads the reviewed diff and what the rules found, and adds its own
 * findings (only on added lines, never repeating a rule) and the summary. Whatever goes wrong with
 * it (time, status, shape), the rule engine's result stands, with a warning.
 */
export async function assistWithLlm(
  settings: LlmSettings,
  files: ChangedFile[],
  engine: EngineResult,
): Promise<Assisted> {
  const skipped = new Set(engine.skipped.map((s) => s.path));
  const reviewed = files.filter((f) => f.status !== 'removed' && !skipped.has(f.path));
  const answer = await chatCompletion({ ...settings, messages: buildLlmPrompt(reviewed, engine.findings) });
  const fallback = (warning: string, tokensUsed: number): Assisted => ({
    findings: engine.findings,
    summary: engine.summary,
    tokensUsed,
    warning,
  });
  if (!answer.ok) return fallback(answer.warning, answer.tokensUsed);
  const parsed = parseLlmReview(answer.content);
  if (!parsed.ok) return fallback(parsed.warning, answer.tokensUsed);

  const indexes = new Map(reviewed.map((f) => [f.path, DiffIndex.fromPatch(f.patch)]));
  const extra = llmFindings(parsed.review, engine.findings, (file, line) => indexes.get(file)?.addedLines.get(line));
  // What the rules' summary says of deleted and skipped files stays: the model saw neither.
  const notReviewed = /(?:Deleted \d+ files? \(−\d+\): |Not reviewed, \d+ files?: ).*$/.exec(engine.summary)?.[0];
  return {
    findings: orderFindings([...engine.findings, ...extra]),
    summary: notReviewed ? `${parsed.review.summary} ${notReviewed}` : parsed.review.summary,
    tokensUsed: answer.tokensUsed,
  };
}
