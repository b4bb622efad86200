import { defaultCvss } from '../default-cvss.js';
import { fingerprintOf } from '../fingerprint.js';
import type { Finding } from '../types.js';
import { type LlmReview, llmReviewSchema } from './llm-review-schema.js';

export type LlmOutcome = { ok: true; review: LlmReview } | { ok: false; warning: string };

/** The model's text as a validated review, or why it cannot be used (then the rules stand alone). */
export function parseLlmReview(content: string): LlmOutcome {
  const json = content.replace(/^\s*```(?:json)?\s*/i, '').replace(/\s*```\s*$/, '');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, warning: 'the language model answered something that is not JSON' };
  }
  const parsed = llmReviewSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      warning: `the language model's answer is invalid (${issue?.path.join('.')}: ${issue?.message})`,
    };
  }
  return { ok: true, review: parsed.data };
}

/**
 * The model's comments that land on an added line of the change and do not repeat a rule's
 * finding on the same line; everything else is dropped (a comment outside the diff would be
 * rejected by GitHub, and a repeat is noise).
 */
export function llmFindings(
  review: LlmReview,
  ruleFindings: readonly Finding[],
  lineText: (file: string, line: number) => string | undefined,
): Finding[] {
  const taken = new Set(ruleFindings.map((f) => `${f.file}:${f.line}`));
  const out: Finding[] = [];
  for (const c of review.comments) {
    const text = lineText(c.file, c.line);
    if (text === undefined || taken.has(`${c.file}:${c.line}`)) continue;
    taken.add(`${c.file}:${c.line}`);
    out.push({
      type: c.type,
      severity: c.severity,
      message: c.message,
      file: c.file,
      line: c.line,
      suggestion: c.suggestion,
      codeSnippet: text.trim().slice(0, 200),
      ruleId: `llm.${c.type}`,
      fingerprint: fingerprintOf(`llm.${c.type}`, c.file, text),
      cvssScore: c.type === 'security' ? defaultCvss(c.severity) : undefined,
    });
  }
  return out;
}
