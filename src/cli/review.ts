import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { atOrAbove, SEVERITIES, type Severity } from '../common/severity.js';
import { toJson } from '../engine/report/json.js';
import type { ReportInput } from '../engine/report/report-input.js';
import { type SarifOptions, toSarif } from '../engine/report/sarif.js';
import { toText } from '../engine/report/text.js';
import { reviewChange } from '../engine/review-change.js';
import { useCompileVerdicts } from '../engine/rules/compile-verdicts.js';
import type { Finding } from '../engine/types.js';
import { CompileCache } from './compile-cache.js';
import { readLocalChange } from './git-change.js';
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

/** The report in the chosen format, as printed on standard output. */
export function renderReview(format: ReviewFormat, input: ReportInput, sarif: SarifOptions = {}): string {
  switch (format) {
    case 'json':
      return JSON.stringify(toJson(input), null, 2);
    case 'sarif':
      return JSON.stringify(toSarif(input, sarif), null, 2);
    default:
      return toText(input);
  }
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
  const engine = deps.reviewChange ?? reviewChange;
  const cache = CompileCache.open(deps.env ?? process.env, astGrepVersions());
  useCompileVerdicts(cache);
  let result: Awaited<ReturnType<typeof reviewChange>>;
  try {
    result = await engine(local.change, { checkSecurity: true, checkPerformance: true });
  } finally {
    useCompileVerdicts(undefined);
    cache.writeBack();
  }
  const input: ReportInput = { files, findings: result.findings, summary: result.summary, analysis: result.analysis };
  io.out(renderReview(options.format, input, { toolVersion: redlineVersion() }));
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

/** The pinned versions of the ast-grep packages: what decides which queries compile. */
function astGrepVersions(): Record<string, string> {
  const { dependencies } = packageJson();
  if (typeof dependencies !== 'object' || dependencies === null) return {};
  return Object.fromEntries(
    Object.entries(dependencies).filter(
      (entry): entry is [string, string] => entry[0].startsWith('@ast-grep/') && typeof entry[1] === 'string',
    ),
  );
}
