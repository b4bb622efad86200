import { parseHunkHeader } from './parse-hunk-header.js';
import type { DiffLine, Hunk } from './types.js';

/**
 * Reads the hunk whose header is `lines[start]`. The header's counts decide where the hunk ends:
 * a deleted line `-- x` reads `--- x`, so prefixes alone cannot tell a body line from the next
 * file's header. Malformed bodies end the hunk early instead of throwing: a review must not fail
 * on one odd patch. Returns undefined when `lines[start]` is not a hunk header.
 */
export function readHunk(lines: readonly string[], start: number): { hunk: Hunk; next: number } | undefined {
  const header = parseHunkHeader(lines[start] ?? '');
  if (!header) return undefined;
  const body: DiffLine[] = [];
  let oldLeft = header.oldLines;
  let newLeft = header.newLines;
  let oldLine = header.oldStart;
  let newLine = header.newStart;
  let i = start + 1;
  for (; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const marker = raw[0];
    if (marker === '\\') {
      // `\ No newline at end of file` belongs to the line before it, whichever side that is.
      const last = body[body.length - 1];
      if (last) last.noNewlineAtEnd = true;
      continue;
    }
    if (oldLeft <= 0 && newLeft <= 0) break;
    const text = raw.endsWith('\r') ? raw.slice(1, -1) : raw.slice(1);
    if (marker === '+') {
      body.push({ kind: 'add', text, newLine: newLine++ });
      newLeft--;
    } else if (marker === '-') {
      body.push({ kind: 'del', text, oldLine: oldLine++ });
      oldLeft--;
    } else if (marker === ' ' || raw === '' || raw === '\r') {
      // An empty line is a context line whose leading space an editor or mail client trimmed.
      body.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ });
      oldLeft--;
      newLeft--;
    } else {
      break;
    }
  }
  return { hunk: { ...header, lines: body }, next: i };
}
