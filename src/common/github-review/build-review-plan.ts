import type { CommentableLines } from '../diff/commentable-lines.js';
import { orderFindings } from '../order-findings.js';
import { atOrAbove, compareSeverity, type Severity } from '../severity.js';
import { countsSentence } from './counts-sentence.js';
import { fingerprintMarker } from './fingerprint-marker.js';

/** What a GitHub review needs of a finding (the App's from the database, the action's from the API). */
export interface ReviewFinding {
  file: string;
  line: number;
  /** Stable across pushes: the hidden marker that keeps a later review from posting it again. */
  fingerprint: string;
  severity: Severity;
  type: string;
  message: string;
  suggestion?: string | undefined;
  ruleId: string;
}

export type ReviewEvent = 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';

/** One inline comment as `POST /pulls/{n}/reviews` takes it: a line of the new side of the diff. */
export interface ReviewComment {
  path: string;
  line: number;
  side: 'RIGHT';
  body: string;
}

/**
 * The severity gate of decisions §7 and the inline-comment limit: the App reads them from
 * `.github/redline.yml`, the action takes the defaults.
 */
export interface ReviewGate {
  request_changes_on: Severity | 'never';
  approve: boolean;
  max_comments: number;
}

/** `.github/redline.yml`'s defaults for the gate. */
export const DEFAULT_REVIEW_GATE: Readonly<ReviewGate> = {
  request_changes_on: 'important',
  approve: true,
  max_comments: 30,
};

export interface ReviewPlanInput<F extends ReviewFinding> {
  /** The findings to publish, the configuration's filter already applied. */
  findings: readonly F[];
  /** The lines of the reviewed commit's diff (commentableLines of the pull request's files). */
  commentable: CommentableLines;
  gate: ReviewGate;
  /** Where every finding can be read when the body has no room for all: "annotated in the Redline check run". */
  listedIn: string;
  /** Fingerprints already posted on the pull request by earlier reviews (listPostedFingerprints). */
  posted: ReadonlySet<string>;
  /** The engine's (or the model's) summary of the change, shown in the review body. */
  summary?: string | undefined;
}

export interface ReviewPlan<F extends ReviewFinding> {
  event: ReviewEvent;
  body: string;
  comments: ReviewComment[];
  /** New findings listed in the body instead: outside the diff, or over `max_comments`. */
  summarised: F[];
  /** The body to send with no inline comments, every new finding listed in it (GitHub refused them). */
  fallbackBody: string;
  /** Every finding given, already posted or not, most severe first: the verdict's basis. */
  findings: F[];
  /** Of `findings`, how many were posted by an earlier review and are not repeated. */
  alreadyPosted: number;
}

/** GitHub takes 65,536 characters in a review body; the rest of the room is for the summary and headings. */
const MAX_LIST_CHARS = 50_000;
const MAX_SUMMARY_CHARS = 10_000;

/** Finding text is shown as written, except that it may not open an HTML comment (a forged marker). */
function escapeText(text: string): string {
  return text.replace(/<!--/g, '&lt;!--');
}

function inlineCode(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** A fence longer than any run of backticks in the code, so the code cannot close it. */
function fenced(info: string, code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${code}\n${fence}`;
}

function commentBody(f: ReviewFinding): string {
  const parts = [`**${f.severity}** · ${f.type} · ${inlineCode(f.ruleId)}`, escapeText(f.message)];
  // A rule's fix is the whole commented line rewritten: GitHub offers it as a one-click change.
  if (f.suggestion !== undefined && f.suggestion !== '') parts.push(fenced('suggestion', f.suggestion));
  parts.push(fingerprintMarker(f.fingerprint));
  return parts.join('\n\n');
}

function listLine(f: ReviewFinding): string {
  const message = escapeText(f.message).replace(/\s*\n\s*/g, ' ');
  return `- ${inlineCode(`${f.file}:${f.line}`)} **${f.severity}** ${f.type}: ${message} ${fingerprintMarker(f.fingerprint)}`;
}

/** A list that keeps the body within GitHub's limit, saying how many it left out. */
function list(findings: readonly ReviewFinding[], budget: { chars: number }, listedIn: string): string {
  const lines: string[] = [];
  for (const [i, f] of findings.entries()) {
    const line = listLine(f);
    if (line.length + 1 > budget.chars) {
      lines.push(`- … and ${findings.length - i} more (all of them are ${listedIn})`);
      break;
    }
    budget.chars -= line.length + 1;
    lines.push(line);
  }
  return lines.join('\n');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Decisions §7, the same gate for the App and the action. The verdict is taken on every finding kept, including those an
 * earlier review already posted: a critical problem still in the code after a push must keep the
 * request for changes (GitHub replaces our previous review state with the new one), and an
 * approval must mean nothing blocking remains, not that nothing new appeared.
 */
export function reviewEvent(findings: readonly Pick<ReviewFinding, 'severity'>[], gate: ReviewGate): ReviewEvent {
  const threshold = gate.request_changes_on;
  if (threshold !== 'never' && findings.some((f) => atOrAbove(f.severity, threshold))) return 'REQUEST_CHANGES';
  if (gate.approve && !findings.some((f) => atOrAbove(f.severity, 'warning'))) return 'APPROVE';
  return 'COMMENT';
}

/**
 * What one run publishes, decided without I/O: the review's event, its inline comments and its
 * body. Findings an earlier review posted (same
 * fingerprint) are not posted again; the most severe new findings on a line of the reviewed
 * commit's diff go inline, up to `max_comments`; the others are listed in the body, so a finding
 * outside the diff can never make GitHub refuse the review. Every comment and list entry carries
 * its fingerprint in a hidden marker, which the next run reads back.
 */
export function buildReviewPlan<F extends ReviewFinding>(input: ReviewPlanInput<F>): ReviewPlan<F> {
  const { gate, listedIn } = input;
  const findings = orderFindings(input.findings).sort((a, b) => compareSeverity(a.severity, b.severity));
  const fresh = findings.filter((f) => !input.posted.has(f.fingerprint));
  const inline: F[] = [];
  const outside: F[] = [];
  const overLimit: F[] = [];
  for (const f of fresh) {
    if (!input.commentable.get(f.file)?.has(f.line)) outside.push(f);
    else if (inline.length < gate.max_comments) inline.push(f);
    else overLimit.push(f);
  }

  const inlined = new Set(inline);

  const head = [`**Redline** ${countsSentence(findings)}.`];
  const summary = input.summary?.trim();
  if (summary) {
    head.push(escapeText(summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary));
  }
  const alreadyPosted = findings.length - fresh.length;
  if (alreadyPosted > 0) {
    head.push(
      alreadyPosted === 1
        ? '1 of them was reported by an earlier review and is not repeated.'
        : `${alreadyPosted} of them were reported by earlier reviews and are not repeated.`,
    );
  }

  const sections = [...head];
  const budget = { chars: MAX_LIST_CHARS };
  if (outside.length > 0) {
    sections.push(
      `**Outside the diff** (GitHub takes inline comments only on lines of the diff):\n${list(outside, budget, listedIn)}`,
    );
  }
  if (overLimit.length > 0) {
    sections.push(
      `**Over the limit of ${plural(gate.max_comments, 'inline comment')}:**\n${list(overLimit, budget, listedIn)}`,
    );
  }
  const fallback = [...head];
  if (fresh.length > 0) {
    fallback.push(
      `**Problems** (GitHub did not take them as inline comments):\n${list(fresh, { chars: MAX_LIST_CHARS }, listedIn)}`,
    );
  }

  return {
    event: reviewEvent(findings, gate),
    body: sections.join('\n\n'),
    comments: orderFindings(inline).map((f) => ({ path: f.file, line: f.line, side: 'RIGHT', body: commentBody(f) })),
    summarised: fresh.filter((f) => !inlined.has(f)),
    fallbackBody: fallback.join('\n\n'),
    findings,
    alreadyPosted,
  };
}
