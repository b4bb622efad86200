import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ReportInput } from '../../src/engine/report/report-input.js';
import type { Finding } from '../../src/engine/types.js';
import { makeRepo, type TempRepo } from './review-fixtures.js';

// Decisions §9, `redline review`: the git plumbing on real temporary repositories, the three
// output formats (SARIF checked against the official 2.1.0 schema) and the exit codes. The
// engine finds nothing until its rules are wired in, so findings here are synthetic; the planted
// problems for the real engine are in review-fixtures.ts (plantProblems).

/** Run, newest first, after the file: every temporary repository or directory a test made. */
export const cleanups: (() => Promise<unknown>)[] = [];

export async function repo(initial?: string): Promise<TempRepo> {
  const r = await makeRepo(initial);
  cleanups.push(() => r.remove());
  return r;
}

export const APP_BASE = ['export function add(a, b) {', '  return a + b;', '}', ''].join('\n');
export const APP_FEATURE = [
  'export function add(a, b) {',
  '  return Number(a) + Number(b);',
  '}',
  'export function sub(a, b) {',
  '  return a - b;',
  '}',
  '',
].join('\n');

/**
 * main: base commit (README, app, a file to rename, a file to delete, .gitignore), then one more
 * commit on main after the branch point; feature: app changed, a rename, a deletion; then on top,
 * uncommitted: a staged new file, an unstaged README edit, an untracked text file (no final
 * newline), an untracked binary and an ignored file.
 */
export async function scenario(): Promise<TempRepo> {
  const r = await repo();
  await r.write('README.md', '# demo\n');
  await r.write('src/app.js', APP_BASE);
  await r.write('src/old-name.js', 'export const name = "kept";\nexport const size = 2;\n');
  await r.write('src/gone.js', 'export const gone = 1;\nexport const also = 2;\n');
  await r.write('.gitignore', '*.log\n');
  await r.git('add', '-A');
  await r.git('commit', '-q', '-m', 'base');
  await r.git('checkout', '-q', '-b', 'feature');
  await r.write('src/app.js', APP_FEATURE);
  await r.git('mv', 'src/old-name.js', 'src/new-name.js');
  await r.git('rm', '-q', 'src/gone.js');
  await r.git('commit', '-q', '-am', 'feature');
  await r.git('checkout', '-q', 'main');
  await r.write('MAIN_ONLY.md', 'on main after the branch point\n');
  await r.git('add', 'MAIN_ONLY.md');
  await r.git('commit', '-q', '-m', 'main moves on');
  await r.git('checkout', '-q', 'feature');
  await r.write('src/staged.js', 'export const staged = true;\n');
  await r.git('add', 'src/staged.js');
  await r.write('README.md', '# demo\n\nMore words.\n');
  await r.write('notes/todo.txt', 'a\nb\nc');
  await r.write('assets/logo.bin', '\u0000\u0001\u0002binary\u0000');
  await r.write('debug.log', 'ignored\n');
  return r;
}

export function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    type: 'security',
    severity: 'critical',
    message: 'eval() on user input runs arbitrary code',
    file: 'src/handler.js',
    line: 5,
    ruleId: 'js.eval-user-input',
    fingerprint: '0123456789abcdef',
    ...overrides,
  };
}

export const SYNTHETIC: ReportInput = {
  files: [
    { additions: 10, deletions: 2 },
    { additions: 5, deletions: 0 },
  ],
  summary: 'Two problems.',
  findings: [
    finding({
      file: 'src/z dir/spaced name.js',
      line: 3,
      type: 'style',
      severity: 'info',
      message: 'Prefer const',
      ruleId: 'js.prefer-const',
      fingerprint: 'ffff000011112222',
    }),
    finding({ cwe: 'CWE-95', cvssScore: 9.8, suggestion: 'Parse the expression instead' }),
    finding({
      line: 2,
      severity: 'important',
      type: 'bug',
      ruleId: 'js.loose-equality',
      message: 'Use ===',
      fingerprint: 'aaaa',
    }),
    ...[40, 7].map((line) =>
      finding({
        file: 'src/a.js',
        line,
        severity: line === 7 ? 'info' : 'warning',
        type: 'performance',
        ruleId: 'js.loop-allocation',
        message: 'Allocation in a hot loop',
        fingerprint: 'bbbb',
      }),
    ),
  ],
};

export let validateSarif: ValidateFunction;

export function expectValidSarif(log: unknown): void {
  const valid = validateSarif(log);
  expect(validateSarif.errors ?? [], JSON.stringify(validateSarif.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

/** Removes the file's temporary repositories after it; compiles the SARIF 2.1.0 schema before it. */
export function useReviewHarness(): void {
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  beforeAll(() => {
    // The official SARIF 2.1.0 schema (rtm.5, draft-04), as shipped by @microsoft/jest-sarif.
    const require = createRequire(import.meta.url);
    const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
    // CommonJS modules: module.exports is the export and carries itself as `default`.
    const Ajv04 = Ajv04Module.default;
    const addFormats = addFormatsModule.default;
    // unicodeRegExp off: the schema's `language` pattern has a stray "]" that the u flag rejects.
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    validateSarif = ajv.compile(schema);
  });
}
