import type { SecretMatch } from './secret-match.js';

const KEEP = 4;
const MAX_SNIPPET = 240;
const CONTEXT_BEFORE = 80;
/** Above this many secrets on one line the belt-and-braces pass is skipped to stay linear. */
const MAX_RESCAN = 16;
/** Characters a token is made of: redaction runs on over them so no tail of a secret survives. */
const TOKEN_CHAR = /[A-Za-z0-9_\-+/=]/;

export interface RedactedLine {
  /** Redacted and trimmed. */
  text: string;
  /** Where each match's redacted form starts in `text`. */
  at: Map<SecretMatch, number>;
}

/**
 * The line with every secret on it replaced by its first characters and '…' (at most four, and
 * never more than a quarter of the secret). Built once per line, in linear time.
 */
export function redactLine(text: string, matches: readonly SecretMatch[]): RedactedLine {
  const sorted = [...matches].sort((a, b) => a.start - b.start);
  const at = new Map<SecretMatch, number>();
  let out = '';
  let cursor = 0;
  for (const m of sorted) {
    const start = Math.max(m.start, cursor);
    out += text.slice(cursor, start);
    at.set(m, out.length);
    if (m.end <= m.start) {
      cursor = start;
      continue;
    }
    let end = Math.max(m.end, start);
    while (end < text.length && TOKEN_CHAR.test(text[end] ?? '')) end++;
    const keep = Math.min(m.keep ?? KEEP, Math.floor((end - start) / 4));
    out += `${text.slice(start, start + keep)}…`;
    cursor = end;
  }
  out += text.slice(cursor);
  // Belt and braces: the same secret written again elsewhere on the line goes too.
  if (sorted.length <= MAX_RESCAN) {
    for (const m of sorted) {
      const raw = text.slice(m.start, m.end);
      if (raw.length >= 8 && out.includes(raw)) out = out.split(raw).join('…');
    }
  }
  const lead = out.length - out.trimStart().length;
  for (const [m, offset] of at) at.set(m, Math.max(0, offset - lead));
  return { text: out.trim(), at };
}

/** The redacted line, cut to a window around one secret when it is long. */
export function snippetOf(line: RedactedLine, match: SecretMatch): string {
  const { text } = line;
  if (text.length <= MAX_SNIPPET) return text;
  const focus = line.at.get(match) ?? 0;
  const start = Math.max(0, Math.min(focus - CONTEXT_BEFORE, text.length - MAX_SNIPPET));
  const end = Math.min(text.length, start + MAX_SNIPPET);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
