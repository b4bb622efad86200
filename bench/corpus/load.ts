import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEVERITIES, type Severity } from '../../src/common/severity.js';
import type { FindingType } from '../../src/engine/finding-types.js';
import type { ChangedFile } from '../../src/engine/types.js';
import { isKind, KINDS, type Kind } from './kinds.js';
import { FORBIDDEN_LITERALS, isPlaceholder, PLACEHOLDER } from './placeholders.js';

/**
 * The labelled corpus: one `<language>.cases` file per language. See bench/README.md for the format.
 * Each case is written as its whole new file in diff notation (every line prefixed with ' ', '+'
 * or '-'), with labels as `«kind»` markers at the end of added lines. The loader derives the new
 * file's content, a GitHub-style patch (3 lines of context, `@@` hunks only) and the labels' line
 * numbers, then checks every case with an independent patch reader.
 */

export const LANGUAGES = ['javascript', 'typescript', 'python', 'go', 'java', 'ruby'] as const;
export type CorpusLanguage = (typeof LANGUAGES)[number];

const EXTENSIONS: Record<CorpusLanguage, readonly string[]> = {
  javascript: ['js', 'mjs', 'cjs', 'jsx'],
  typescript: ['ts', 'mts', 'cts', 'tsx'],
  python: ['py'],
  go: ['go'],
  java: ['java'],
  ruby: ['rb'],
};

export interface Label {
  /** Line number in the new file; always an added line. */
  line: number;
  kind: Kind;
  type: FindingType;
  severity: Severity;
}

export interface CorpusCase {
  id: string;
  language: CorpusLanguage;
  /** Where the case is written, for error messages: `python.cases:120`. */
  source: string;
  note?: string | undefined;
  path: string;
  status: 'added' | 'modified';
  /** The whole new file, `\n`-terminated; may hold `{{PLACEHOLDER}}`s. */
  content: string;
  /** GitHub's `patch`: hunks only, 3 lines of context. */
  patch: string;
  additions: number;
  deletions: number;
  /** Empty for a clean case. */
  labels: Label[];
}

const CONTEXT = 3;
const MARKER = /\s*«([^»]*)»/g;

interface RawCase {
  id: string;
  source: string;
  header: Map<string, string>;
  body: { text: string; lineNo: number }[];
}

function parseCasesFile(text: string, fileName: string): RawCase[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const cases: RawCase[] = [];
  let current: RawCase | undefined;
  let inBody = false;
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (line.startsWith('=== ')) {
      current = { id: line.slice(4).trim(), source: `${fileName}:${lineNo}`, header: new Map(), body: [] };
      cases.push(current);
      inBody = false;
      return;
    }
    if (!current) {
      if (line.trim() === '' || line.startsWith('#')) return;
      throw new Error(`${fileName}:${lineNo}: text before the first case`);
    }
    if (!inBody) {
      if (line === '---') {
        inBody = true;
        return;
      }
      if (line.trim() === '' || line.startsWith('#')) return;
      const match = /^([a-z]+):\s*(.*)$/.exec(line);
      if (!match?.[1]) throw new Error(`${fileName}:${lineNo}: expected "key: value" or "---" in case header`);
      current.header.set(match[1], match[2] ?? '');
      return;
    }
    // A '#' in the first column is a comment (code lines always carry a ' ', '+' or '-' first).
    if (line.startsWith('#')) return;
    current.body.push({ text: line, lineNo });
  });
  for (const c of cases) {
    while (c.body.length > 0 && c.body.at(-1)?.text.trim() === '') c.body.pop();
  }
  return cases;
}

interface Op {
  op: ' ' | '+' | '-';
  text: string;
  oldLine: number;
  newLine: number;
}

function formatRange(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** Hunks with CONTEXT lines around each run of changes, as `git diff` and GitHub make them. */
function makePatch(ops: Op[]): string {
  const changed = ops.flatMap((o, i) => (o.op === ' ' ? [] : [i]));
  const groups: { from: number; to: number }[] = [];
  for (const i of changed) {
    const last = groups.at(-1);
    if (last && i - last.to <= 2 * CONTEXT + 1) last.to = i;
    else groups.push({ from: i, to: i });
  }
  const out: string[] = [];
  for (const g of groups) {
    const from = Math.max(0, g.from - CONTEXT);
    const to = Math.min(ops.length - 1, g.to + CONTEXT);
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((o) => o.op !== '+').length;
    const newCount = slice.filter((o) => o.op !== '-').length;
    const first = slice[0] as Op;
    // A side with no lines names the line before the hunk (0 for an empty file), as git does.
    const oldStart = oldCount === 0 ? first.oldLine - 1 : first.oldLine;
    const newStart = newCount === 0 ? first.newLine - 1 : first.newLine;
    out.push(`@@ -${formatRange(oldStart, oldCount)} +${formatRange(newStart, newCount)} @@`);
    for (const o of slice) out.push(`${o.op}${o.text}`);
  }
  return out.join('\n');
}

function buildCase(raw: RawCase, language: CorpusLanguage): CorpusCase {
  const where = (lineNo: number) => `${raw.source.split(':')[0]}:${lineNo} (case ${raw.id})`;
  const path = raw.header.get('path');
  if (!path) throw new Error(`${raw.source}: case ${raw.id} has no path`);
  const ops: Op[] = [];
  const labels: Label[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const { text, lineNo } of raw.body) {
    const prefix = text === '' ? ' ' : text[0];
    if (prefix !== ' ' && prefix !== '+' && prefix !== '-') {
      throw new Error(`${where(lineNo)}: a body line must start with ' ', '+' or '-'`);
    }
    let code = text.slice(1);
    const markers = [...code.matchAll(MARKER)].map((m) => m[1] ?? '');
    if (markers.length > 0) {
      if (prefix !== '+') throw new Error(`${where(lineNo)}: labels go on added lines only`);
      code = code.replace(MARKER, '');
      for (const marker of markers) {
        const [kind = '', severity] = marker.split(':');
        if (!isKind(kind)) throw new Error(`${where(lineNo)}: unknown kind «${marker}»`);
        if (severity !== undefined && !(SEVERITIES as readonly string[]).includes(severity)) {
          throw new Error(`${where(lineNo)}: unknown severity «${marker}»`);
        }
        labels.push({
          line: newLine,
          kind,
          type: KINDS[kind].type,
          severity: (severity as Severity | undefined) ?? KINDS[kind].severity,
        });
      }
    }
    ops.push({ op: prefix, text: code, oldLine, newLine });
    if (prefix !== '+') oldLine++;
    if (prefix !== '-') newLine++;
  }
  const additions = ops.filter((o) => o.op === '+').length;
  const deletions = ops.filter((o) => o.op === '-').length;
  const status = ops.every((o) => o.op === '+') ? 'added' : 'modified';
  const declared = raw.header.get('status');
  if (declared !== undefined && declared !== status) {
    throw new Error(`${raw.source}: case ${raw.id} says status ${declared} but its body makes it ${status}`);
  }
  const content = ops
    .filter((o) => o.op !== '-')
    .map((o) => `${o.text}\n`)
    .join('');
  return {
    id: raw.id,
    language,
    source: raw.source,
    note: raw.header.get('note'),
    path,
    status,
    content,
    patch: makePatch(ops),
    additions,
    deletions,
    labels,
  };
}

/**
 * An independent check of one case: reads the patch as a reviewer's tool would and confirms that
 * the hunk headers' ranges and counts are right, that every added and context line equals the
 * content's line at that number, that the counts match, and that every label sits on an added line.
 * Returns the problems found (none for a good case).
 */
export function checkCase(c: CorpusCase): string[] {
  const problems: string[] = [];
  const content = c.content.endsWith('\n') ? c.content.slice(0, -1).split('\n') : c.content.split('\n');
  const lines = c.patch.split('\n');
  const added = new Set<number>();
  let additions = 0;
  let deletions = 0;
  let i = 0;
  let lastNewEnd = 0;
  if (lines.length === 0 || !lines[0]?.startsWith('@@')) problems.push('patch does not start with a hunk header');
  while (i < lines.length) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[i] ?? '');
    if (!header) {
      problems.push(`patch line ${i + 1}: expected a hunk header, got ${JSON.stringify(lines[i])}`);
      break;
    }
    const oldCount = header[2] === undefined ? 1 : Number(header[2]);
    const newStart = Number(header[3]);
    const newCount = header[4] === undefined ? 1 : Number(header[4]);
    if (newStart <= lastNewEnd) problems.push(`hunk at new line ${newStart} overlaps the previous hunk`);
    let seenOld = 0;
    let seenNew = 0;
    let newLine = newCount === 0 ? newStart + 1 : newStart;
    i++;
    while (i < lines.length && !lines[i]?.startsWith('@@')) {
      const line = lines[i] ?? '';
      const kind = line[0];
      const text = line.slice(1);
      if (kind === '+' || kind === ' ') {
        if (content[newLine - 1] !== text) {
          problems.push(
            `new line ${newLine}: patch has ${JSON.stringify(text)}, content has ${JSON.stringify(content[newLine - 1])}`,
          );
        }
        if (kind === '+') {
          added.add(newLine);
          additions++;
        } else seenOld++;
        seenNew++;
        newLine++;
      } else if (kind === '-') {
        seenOld++;
        deletions++;
      } else if (line !== '\\ No newline at end of file') {
        problems.push(`patch line ${i + 1}: unexpected ${JSON.stringify(line)}`);
      }
      i++;
    }
    if (seenOld !== oldCount || seenNew !== newCount) {
      problems.push(`hunk ${header[0]} declares -${oldCount} +${newCount} lines but holds -${seenOld} +${seenNew}`);
    }
    lastNewEnd = newStart + newCount - 1;
    if (newLine - 1 > content.length) problems.push(`hunk ${header[0]} runs past the end of the content`);
  }
  if (additions !== c.additions) problems.push(`additions ${c.additions} but the patch adds ${additions} lines`);
  if (deletions !== c.deletions) problems.push(`deletions ${c.deletions} but the patch deletes ${deletions} lines`);
  if (c.status === 'added' && (deletions > 0 || additions !== content.length)) {
    problems.push('an added file must consist of added lines only');
  }
  for (const label of c.labels) {
    if (!added.has(label.line)) problems.push(`label ${label.kind} on line ${label.line}, which is not an added line`);
  }
  const ext = /\.([A-Za-z0-9]+)$/.exec(c.path)?.[1]?.toLowerCase() ?? '';
  if (!EXTENSIONS[c.language].includes(ext)) problems.push(`path ${c.path} is not a ${c.language} file`);
  for (const m of c.content.matchAll(PLACEHOLDER)) {
    if (!isPlaceholder(m[1] ?? '')) problems.push(`unknown placeholder ${m[0]}`);
  }
  if (c.content.includes('«') || c.content.includes('»')) problems.push('a label marker was left in the content');
  if (c.additions === 0) problems.push('the change adds no lines');
  return problems;
}

/**
 * The corpora: `corpus` (bench/corpus, the labelled corpus the rules were tuned on, the default),
 * `holdout` (bench/holdout, written without reading the rules; same format, same checks) and
 * `holdout-2` to `holdout-10` (bench/holdout-N: further held-out corpora, each written without
 * reading the rules or the other corpora).
 */
export const CORPORA = [
  'corpus',
  'holdout',
  'holdout-2',
  'holdout-3',
  'holdout-4',
  'holdout-5',
  'holdout-6',
  'holdout-7',
  'holdout-8',
  'holdout-9',
  'holdout-10',
] as const;
export type CorpusName = (typeof CORPORA)[number];

/** The directory holding a corpus's `.cases` files, whether run from source or from build-bench/. */
export function corpusDir(name: CorpusName = 'corpus'): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const candidates = [
    name === 'corpus' ? here : join(here, '..', name),
    join(here, '..', '..', '..', 'bench', name),
    join(process.cwd(), 'bench', name),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'javascript.cases')));
  if (!found) throw new Error(`corpus not found; looked in ${candidates.join(', ')}`);
  return found;
}

/** Loads and checks the whole corpus; throws with every problem found if any case is wrong. */
export function loadCorpus(dir: string = corpusDir()): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const problems: string[] = [];
  for (const language of LANGUAGES) {
    const fileName = `${language}.cases`;
    const text = readFileSync(join(dir, fileName), 'utf8');
    for (const pattern of FORBIDDEN_LITERALS) {
      if (pattern.test(text)) problems.push(`${fileName}: holds a literal secret (${pattern}); use a placeholder`);
    }
    for (const raw of parseCasesFile(text, fileName)) {
      try {
        const c = buildCase(raw, language);
        for (const p of checkCase(c)) problems.push(`${c.source} (case ${c.id}): ${p}`);
        cases.push(c);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) problems.push(`${c.source}: duplicate case id ${c.id}`);
    seen.add(c.id);
  }
  if (problems.length > 0) throw new Error(`the corpus has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  return cases;
}

/** The case as the engine receives it. */
export function toChangedFile(c: CorpusCase, fill: (text: string) => string = (t) => t): ChangedFile {
  return {
    path: c.path,
    status: c.status,
    additions: c.additions,
    deletions: c.deletions,
    patch: fill(c.patch),
    content: fill(c.content),
  };
}
