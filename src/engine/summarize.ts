import { compareSeverity, SEVERITIES } from '../common/severity.js';
import type { Finding } from './types.js';

export interface SkippedFile {
  path: string;
  reason: string;
}

const LABEL: Record<string, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  tsx: 'TypeScript',
  python: 'Python',
  go: 'Go',
  java: 'Java',
  ruby: 'Ruby',
};

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;

/** The first five, then how many more: a summary is read at a glance, the list is in the result. */
function shortList(items: string[]): string {
  const more = items.length > 5 ? ` and ${items.length - 5} more` : '';
  return `${items.slice(0, 5).join(', ')}${more}`;
}

function firstSentence(message: string): string {
  const end = message.search(/[.:](\s|$)/);
  return end === -1 ? message : message.slice(0, end);
}

/**
 * A summary that says something about this change: its size and languages, the most severe
 * findings with where they are, and what was not reviewed and why.
 */
export function summarize(input: {
  filesReviewed: number;
  linesAdded: number;
  linesDeleted: number;
  languages: string[];
  findings: readonly Finding[];
  skipped: readonly SkippedFile[];
  /** Files the change removes, with the lines they held: not reviewed, but part of what changed. */
  deleted?: readonly { path: string; deletions: number }[];
}): string {
  const parts: string[] = [];
  const languages = [...new Set(input.languages.map((l) => LABEL[l] ?? l))];
  parts.push(
    `Reviewed ${files(input.filesReviewed)} (+${input.linesAdded} −${input.linesDeleted})` +
      (languages.length > 0 ? ` in ${list(languages)}.` : '.'),
  );
  if (input.findings.length === 0) {
    parts.push('No issues found.');
  } else {
    const counts = SEVERITIES.map((s) => [s, input.findings.filter((f) => f.severity === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s === 'info' ? 'minor' : s}`);
    const top = [...input.findings]
      .sort((a, b) => compareSeverity(a.severity, b.severity))
      .slice(0, 3)
      .map((f) => `${firstSentence(f.message)} (${f.file}:${f.line})`);
    parts.push(`Found ${list(counts)} issue${input.findings.length === 1 ? '' : 's'}. Most severe: ${top.join('; ')}.`);
  }
  const deleted = input.deleted ?? [];
  if (deleted.length > 0) {
    const lines = deleted.reduce((sum, f) => sum + f.deletions, 0);
    parts.push(`Deleted ${files(deleted.length)} (−${lines}): ${shortList(deleted.map((f) => f.path))}.`);
  }
  if (input.skipped.length > 0) {
    const shown = input.skipped.map((s) => `${s.path} (${s.reason})`);
    parts.push(`Not reviewed, ${files(input.skipped.length)}: ${shortList(shown)}.`);
  }
  return parts.join(' ');
}
