import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { atOrAbove, SEVERITIES, type Severity } from '../common/severity.js';
import type { ReportInput } from '../engine/report/report-input.js';
import type { SarifOptions } from '../engine/report/sarif.js';
import type { reviewChange } from '../engine/review-change.js';
import { useCompileVerdicts } from '../engine/rules/compile-verdicts.js';
import { useLibraryStore } from '../engine/rules/library-store.js';
import type { ChangeSet, Finding } from '../engine/types.js';
import { CompileCache } from './compile-cache.js';
import { readLocalChange } from './git-change.js';
import { LibraryCache } from './library-cache.js';
import { UsageError } from './usage-error.js';

export const REVIEW_FORMATS = ['text', 'json', 'sarif'] as const;
export type ReviewFormat = (typeof REVIEW_FORMATS)[number];
export type FailOn = Severity | 'never';

export interface ReviewCommandOptions {
  /** The revision to compare with; default: the merge base with the default branch. */
  base?: string | undefined;
  format: ReviewFormat;
  failOn: FailOn;
  /** Where to look for the repository (`-C DIR`); default: the process's working directory. */
  cwd: string;
}

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** `review [--base REF] [--format text|json|sarif] [--fail-on LEVEL] [-C DIR]`; a UsageError otherwise. */
export function parseReviewArgs(args: readonly string[], cwd: string = process.cwd()): ReviewCommandOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`review takes no arguments (got ${positionals.join(' ')})`);
  const format = values.format ?? 'text';
  if (!(REVIEW_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be text, json or sarif (got "${format}")`);
  }
  const failOn = values['fail-on'] ?? 'critical';
  if (failOn !== 'never' && !(SEVERITIES as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be ${SEVERITIES.join(', ')} or never (got "${failOn}")`);
  }
  if (values.base !== undefined && (values.base === '' || values.base.startsWith('-'))) {
    throw new UsageError(`--base: "${values.base}" is not a revision`);
  }
  return {
    base: values.base,
    format: format as ReviewFormat,
    failOn: failOn as FailOn,
    cwd: values.cwd === undefined ? cwd : path.resolve(cwd, values.cwd),
  };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    options: {
      base: { type: 'string' },
      format: { type: 'string' },
      'fail-on': { type: 'string' },
      cwd: { type: 'string', short: 'C' },
    },
    allowPositionals: true,
    strict: true,
  });
}

/** Decisions §9: 1 when any comment is at or above `--fail-on`, 0 otherwise (always 0 for `never`). */
export function reviewExitCode(findings: readonly Pick<Finding, 'severity'>[], failOn: FailOn): 0 | 1 {
  if (failOn === 'never') return 0;
  return findings.some((f) => atOrAbove(f.severity, failOn)) ? 1 : 0;
}

/**
 * The report in the chosen format, as printed on standard output. Only that format's renderer is
 * loaded: SARIF's names every rule, which loads the rule packs.
 */
export async function renderReview(
  format: ReviewFormat,
  input: ReportInput,
  sarif: SarifOptions = {},
): Promise<string> {
  switch (format) {
    case 'json': {
      const { toJson } = await import('../engine/report/json.js');
      return JSON.stringify(toJson(input), null, 2);
    }
    case 'sarif': {
      const { toSarif } = await import('../engine/report/sarif.js');
      return JSON.stringify(toSarif(input, sarif), null, 2);
    }
    default: {
      const { toText } = await import('../engine/report/text.js');
      return toText(input);
    }
  }
}

/**
 * The engine as `reviewChange` runs it, loading the source analyzer (rule packs, grammars, flow
 * analysis: most of the engine's load time) only when the change has a file in a language we read.
 */
async function loadEngine(change: ChangeSet): Promise<typeof reviewChange> {
  const { needsSourceAnalysis, reviewFiles } = await import('../engine/review-files.js');
  if (!needsSourceAnalysis(change)) return (files, options) => reviewFiles(files, options);
  const { analyzeSource } = await import('../engine/analyze-source.js');
  return (files, options) => reviewFiles(files, options, analyzeSource);
}

/**
 * `redline review`: the local change (committed since the base, staged, unstaged and untracked)
 * through the same engine as the service, offline; the report goes to standard output, a line
 * about what was compared to standard error. The answer is the exit code.
 */
export async function reviewCommand(
  options: ReviewCommandOptions,
  io: Io,
  deps: { reviewChange?: typeof reviewChange; env?: Record<string, string | undefined> } = {},
): Promise<number> {
  const local = await readLocalChange({ cwd: options.cwd, base: options.base });
  const { files } = local.change;
  io.err(`redline: reviewing ${files.length} changed file(s) in ${local.root} against ${local.base.description}`);
  const engine = deps.reviewChange ?? (await loadEngine(local.change));
  const env = deps.env ?? process.env;
  const versions = astGrepVersions();
  const verdicts = CompileCache.open(env, versions);
  const libraries = LibraryCache.open(env, versions);
  useCompileVerdicts(verdicts);
  useLibraryStore(libraries);
  let result: Awaited<ReturnType<typeof reviewChange>>;
  try {
    result = await engine(local.change, { checkSecurity: true, checkPerformance: true });
  } finally {
    useCompileVerdicts(undefined);
    useLibraryStore(undefined);
    verdicts.writeBack();
    libraries.writeBack();
  }
  const input: ReportInput = { files, findings: result.findings, summary: result.summary, analysis: result.analysis };
  io.out(await renderReview(options.format, input, { toolVersion: redlineVersion() }));
  return reviewExitCode(result.findings, options.failOn);
}

/** Our package.json, beside src/ or build/ (empty if it cannot be read). */
function packageJson(): { version?: unknown; dependencies?: unknown } {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  } catch {
    return {};
  }
}

/** The package's version (undefined if package.json cannot be read). */
export function redlineVersion(): string | undefined {
  const { version } = packageJson();
  return typeof version === 'string' ? version : undefined;
}

/** The pinned versions of the ast-grep packages (`name@version,...`, sorted): what decides which queries compile. */
function astGrepVersions(): string {
  const { dependencies } = packageJson();
  if (typeof dependencies !== 'object' || dependencies === null) return '';
  return Object.entries(dependencies)
    .filter((entry): entry is [string, string] => entry[0].startsWith('@ast-grep/') && typeof entry[1] === 'string')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, version]) => `${name}@${version}`)
    .join(',');
}
