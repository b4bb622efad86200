import { compareSeverity, SEVERITIES } from './severity.js';
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
}): string {
  const parts: string[] = [];
  const languages = [...new Set(input.languages.map((l) => LABEL[l] ?? l))];
  parts.push(
    `Reviewed ${input.filesReviewed} file${input.filesReviewed === 1 ? '' : 's'} (+${input.linesAdded} −${input.linesDeleted})` +
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
  if (input.skipped.length > 0) {
    const shown = input.skipped.slice(0, 5).map((s) => `${s.path} (${s.reason})`);
    const more = input.skipped.length > 5 ? ` and ${input.skipped.length - 5} more` : '';
    parts.push(`Not reviewed: ${shown.join(', ')}${more}.`);
  }
  return parts.join(' ');
}
