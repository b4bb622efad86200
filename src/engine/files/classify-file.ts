import { type Language, languageOf } from '../languages.js';
import { isBinaryPath } from './binary-path.js';
import {
  MAX_CHANGED_LINES,
  MAX_PATCH_BYTES,
  MINIFIED_AVERAGE_MIN_CHARS,
  MINIFIED_MAX_AVERAGE_LINE_LENGTH,
  MINIFIED_MAX_LINE_LENGTH,
} from './budgets.js';
import { generatedMarker } from './generated-marker.js';
import { generatedPathPattern } from './generated-path-pattern.js';
import { lockFileName } from './lock-file-name.js';
import { minifiedPathPattern } from './minified-path-pattern.js';
import { textStats } from './text-stats.js';
import { utf8LengthExceeds } from './utf8-length-exceeds.js';
import { vendoredDir } from './vendored-dir.js';

export type SkipReason = 'lock' | 'minified' | 'generated' | 'vendored' | 'binary' | 'too_large';

export type FileClass =
  | { skip: false; language: Language | undefined }
  | { skip: true; reason: SkipReason; detail: string };

export interface ClassifyInput {
  path: string;
  patch?: string | undefined;
  content?: string | undefined;
  binary?: boolean | undefined;
  /** GitHub's counts: the only measure of a file whose patch it omitted for size. */
  additions?: number | undefined;
  deletions?: number | undefined;
}

/** Prose is written with one paragraph per line: long lines there are not minification. */
const PROSE = /\.(md|markdown|mdx|rst|txt|adoc|asciidoc|textile|org)$/i;

/**
 * Whether the engine analyses a file, and in which language. Files in other languages are kept
 * (language undefined): the secrets scan reads every text file. Skips carry a reason and a
 * detail for the summary, which lists every skipped file. Path checks come first (cheapest and
 * most telling: a minified file under node_modules/ is reported as vendored), then size, then
 * one linear scan of the text.
 */
export function classifyFile(file: ClassifyInput): FileClass {
  const { path, patch, content } = file;
  const lock = lockFileName(path);
  if (lock) return skip('lock', `lock file ${lock}`);
  const vendored = vendoredDir(path);
  if (vendored) return skip('vendored', `vendored code under ${vendored}/`);
  const generatedPath = generatedPathPattern(path);
  if (generatedPath) return skip('generated', `generated or build output (${generatedPath})`);
  const minifiedPath = minifiedPathPattern(path);
  if (minifiedPath) return skip('minified', `minified or source map (${minifiedPath})`);

  if (isBinary(file)) return skip('binary', 'binary file');

  if (patch !== undefined && utf8LengthExceeds(patch, MAX_PATCH_BYTES)) {
    return skip('too_large', `patch over ${MAX_PATCH_BYTES.toLocaleString('en-US')} bytes`);
  }
  const patchStats = patch === undefined ? undefined : textStats(patch, 'patch');
  const changed = patchStats?.changedLines ?? (file.additions ?? 0) + (file.deletions ?? 0);
  if (changed > MAX_CHANGED_LINES) {
    return skip(
      'too_large',
      `${changed.toLocaleString('en-US')} changed lines, over the budget of ${MAX_CHANGED_LINES.toLocaleString('en-US')}`,
    );
  }

  const contentStats = content === undefined ? undefined : textStats(content, 'content');
  const marker = generatedMarker(contentStats?.head ?? patchStats?.head ?? []);
  if (marker) return skip('generated', `generated (header says "${marker}")`);

  // The added text is what would be analysed; the whole content only stands in without a patch.
  const added = patchStats ?? contentStats;
  if (added && !PROSE.test(path)) {
    if (added.maxLineLength > MINIFIED_MAX_LINE_LENGTH) {
      return skip('minified', `a line of ${added.maxLineLength.toLocaleString('en-US')} characters`);
    }
    const average = added.lines === 0 ? 0 : added.chars / added.lines;
    if (added.chars >= MINIFIED_AVERAGE_MIN_CHARS && average > MINIFIED_MAX_AVERAGE_LINE_LENGTH) {
      return skip('minified', `lines of ${Math.round(average)} characters on average`);
    }
  }
  return { skip: false, language: languageOf(path) };
}

function isBinary(file: ClassifyInput): boolean {
  if (file.binary) return true;
  const { patch, content } = file;
  if (patch !== undefined) return patch.startsWith('Binary files ') || patch.startsWith('GIT binary patch');
  // Git's own test: a NUL byte early in the file.
  if (content !== undefined) return content.slice(0, 8000).includes('\0');
  return isBinaryPath(file.path);
}

function skip(reason: SkipReason, detail: string): FileClass {
  return { skip: true, reason, detail };
}
