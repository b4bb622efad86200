import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalChange } from '../../src/cli/git-change.js';
import { COMMAND_USAGE } from '../../src/cli/help.js';
import { main, USAGE } from '../../src/cli/main.js';
import { parseReviewArgs, renderReview, reviewCommand, reviewExitCode } from '../../src/cli/review.js';
import { toJson } from '../../src/engine/report/json.js';
import type { ReportInput } from '../../src/engine/report/report-input.js';
import { toSarif } from '../../src/engine/report/sarif.js';
import { toText } from '../../src/engine/report/text.js';
import type { Severity } from '../../src/engine/severity.js';
import type { EngineResult, Finding } from '../../src/engine/types.js';
import { captureIo, makeRepo, type Planted, plantProblems, type TempRepo } from './review-fixtures.js';

// Decisions §9, `redline review`: the git plumbing on real temporary repositories, the three
// output formats (SARIF checked against the official 2.1.0 schema) and the exit codes. The
// engine finds nothing until its rules are wired in, so findings here are synthetic; the planted
// problems for the real engine are in review-fixtures.ts (plantProblems).

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function repo(initial?: string): Promise<TempRepo> {
  const r = await makeRepo(initial);
  cleanups.push(() => r.remove());
  return r;
}

const APP_BASE = ['export function add(a, b) {', '  return a + b;', '}', ''].join('\n');
const APP_FEATURE = [
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
async function scenario(): Promise<TempRepo> {
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

function finding(overrides: Partial<Finding> = {}): Finding {
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

const SYNTHETIC: ReportInput = {
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

let validateSarif: ValidateFunction;
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

function expectValidSarif(log: unknown): void {
  const valid = validateSarif(log);
  expect(validateSarif.errors ?? [], JSON.stringify(validateSarif.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

describe('reading the local change', () => {
  let r: TempRepo;
  beforeAll(async () => {
    r = await scenario();
  });

  it('combines committed, staged, unstaged and untracked changes since the merge base with main', async () => {
    const local = await readLocalChange({ cwd: r.dir });
    expect(local.base.description).toMatch(/^main \(merge base [0-9a-f]{12}\)$/);
    const mergeBase = (await r.git('merge-base', 'main', 'HEAD')).trim();
    expect(local.base.base).toBe(mergeBase);
    const byPath = new Map(local.change.files.map((f) => [f.path, f]));
    expect([...byPath.keys()]).toEqual([
      'README.md',
      'assets/logo.bin',
      'notes/todo.txt',
      'src/app.js',
      'src/gone.js',
      'src/new-name.js',
      'src/staged.js',
    ]);
    // Not the commit main made after the branch point, not the ignored file.
    expect(byPath.has('MAIN_ONLY.md')).toBe(false);
    expect(byPath.has('debug.log')).toBe(false);

    expect(byPath.get('src/app.js')).toMatchObject({
      status: 'modified',
      additions: 4,
      deletions: 1,
      content: APP_FEATURE,
    });
    expect(byPath.get('src/app.js')?.patch).toMatch(/^@@ -1,3 \+1,6 @@/);
    expect(byPath.get('src/app.js')?.patch).toContain('+  return Number(a) + Number(b);');
    expect(byPath.get('README.md')).toMatchObject({ status: 'modified', additions: 2, deletions: 0 });
    expect(byPath.get('src/gone.js')).toMatchObject({ status: 'removed', additions: 0, deletions: 2 });
    expect(byPath.get('src/gone.js')?.content).toBeUndefined();
    expect(byPath.get('src/new-name.js')).toMatchObject({
      status: 'renamed',
      previousPath: 'src/old-name.js',
      additions: 0,
      deletions: 0,
      patch: undefined,
    });
    expect(byPath.get('src/staged.js')).toMatchObject({
      status: 'added',
      additions: 1,
      deletions: 0,
      patch: '@@ -0,0 +1 @@\n+export const staged = true;',
      content: 'export const staged = true;\n',
    });
    expect(byPath.get('notes/todo.txt')).toEqual({
      path: 'notes/todo.txt',
      status: 'added',
      additions: 3,
      deletions: 0,
      content: 'a\nb\nc',
      patch: '@@ -0,0 +1,3 @@\n+a\n+b\n+c\n\\ No newline at end of file',
    });
    expect(byPath.get('assets/logo.bin')).toEqual({
      path: 'assets/logo.bin',
      status: 'added',
      additions: 0,
      deletions: 0,
    });
  });

  it('an untracked file reads as git would show it once added', async () => {
    const local = await readLocalChange({ cwd: r.dir, base: 'HEAD' });
    const todo = local.change.files.find((f) => f.path === 'notes/todo.txt');
    await r.git('add', '-N', 'notes/todo.txt');
    try {
      const asGit = await readLocalChange({ cwd: r.dir, base: 'HEAD' });
      expect(asGit.change.files.find((f) => f.path === 'notes/todo.txt')).toEqual(todo);
    } finally {
      await r.git('reset', '-q', 'notes/todo.txt');
    }
  });

  it('--base REF compares with the merge base of REF, so HEAD leaves the uncommitted work', async () => {
    const local = await readLocalChange({ cwd: r.dir, base: 'HEAD' });
    expect(local.change.files.map((f) => f.path)).toEqual([
      'README.md',
      'assets/logo.bin',
      'notes/todo.txt',
      'src/staged.js',
    ]);
    const main = await readLocalChange({ cwd: r.dir, base: 'main' });
    expect(main.base.base).toBe((await readLocalChange({ cwd: r.dir })).base.base);
  });

  it('runs from a subdirectory and still names files from the repository root', async () => {
    const local = await readLocalChange({ cwd: path.join(r.dir, 'src') });
    expect(await realpath(local.root)).toBe(await realpath(r.dir));
    expect(local.change.files.map((f) => f.path)).toContain('notes/todo.txt');
  });

  it('prefers the branch origin/HEAD points at', async () => {
    const s = await scenario();
    const head = (await s.git('rev-parse', 'HEAD')).trim();
    await s.git('update-ref', 'refs/remotes/origin/trunk', head);
    await s.git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toMatch(/^origin\/trunk /);
    expect(local.base.base).toBe(head);
    expect(local.change.files.map((f) => f.path)).not.toContain('src/app.js');
  });

  it('falls back to master', async () => {
    const s = await repo('master');
    await s.write('a.txt', 'one\n');
    await s.git('add', '-A');
    await s.git('commit', '-q', '-m', 'base');
    await s.git('checkout', '-q', '-b', 'topic');
    await s.write('a.txt', 'one\ntwo\n');
    await s.git('commit', '-q', '-am', 'topic');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toMatch(/^master /);
    expect(local.change.files).toEqual([
      expect.objectContaining({ path: 'a.txt', status: 'modified', additions: 1, deletions: 0 }),
    ]);
  });

  it('without commits, everything is added against the empty tree', async () => {
    const s = await repo();
    await s.write('staged.txt', 'x\ny\n');
    await s.git('add', 'staged.txt');
    await s.write('loose.txt', 'z\n');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toBe('the empty tree (no commits yet)');
    expect(local.change.files).toEqual([
      expect.objectContaining({ path: 'loose.txt', status: 'added', additions: 1 }),
      expect.objectContaining({ path: 'staged.txt', status: 'added', additions: 2, content: 'x\ny\n' }),
    ]);
  });

  it('without a default branch, the whole tree is the change', async () => {
    const s = await repo('dev');
    await s.write('a.txt', 'one\n');
    await s.git('add', '-A');
    await s.git('commit', '-q', '-m', 'only');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toBe('the empty tree (no default branch)');
    expect(local.change.files).toEqual([expect.objectContaining({ path: 'a.txt', status: 'added', additions: 1 })]);
  });
});

describe('redline review (main)', () => {
  let r: TempRepo;
  beforeAll(async () => {
    r = await scenario();
  });

  it('--format json prints exactly score, summary, stats and comments', async () => {
    const io = captureIo();
    const code = await main(['review', '--format', 'json', '-C', r.dir], {}, io);
    expect(io.stderr()).toMatch(/reviewing 7 changed file\(s\) in .* against main \(merge base/);
    expect(code).toBe(0);
    const report = JSON.parse(io.stdout()) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['score', 'summary', 'stats', 'comments']);
    expect(report.stats).toEqual({
      files_changed: 7,
      lines_added: 2 + 3 + 4 + 1,
      lines_deleted: 1 + 2,
      comments_count: 0,
      issues: { critical: 0, important: 0, warning: 0, suggestion: 0 },
    });
    expect(report.score).toBe(100);
    expect(report.comments).toEqual([]);
    expect(typeof report.summary).toBe('string');
  });

  it('--format sarif prints a valid SARIF 2.1.0 log', async () => {
    const io = captureIo();
    expect(await main(['review', '--format', 'sarif', '--base', 'HEAD', `--cwd=${r.dir}`], {}, io)).toBe(0);
    const log = JSON.parse(io.stdout()) as ReturnType<typeof toSarif>;
    expectValidSarif(log);
    expect(log.runs[0]?.tool.driver.name).toBe('Redline');
    expect(log.runs[0]?.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('text is the default format', async () => {
    const io = captureIo();
    expect(await main(['review', '-C', r.dir], {}, io)).toBe(0);
    expect(io.stdout()).toMatch(/^Score 100\/100: 7 file\(s\) changed, \+10 -3, 0 comment\(s\)/);
  });

  it('exits 1 when a comment is at or above --fail-on (default critical), 0 otherwise', async () => {
    const engine = (findings: Finding[]) => (): EngineResult => ({
      findings,
      summary: 'synthetic',
      analysis: { files_analyzed: 1, lines_analyzed: 1, complexity_avg: 0, test_coverage: 0, tokens_used: 0 },
      skipped: [],
    });
    const run = async (args: string[], findings: Finding[]) => {
      const io = captureIo();
      const code = await reviewCommand(parseReviewArgs(['-C', r.dir, ...args]), io, {
        reviewChange: engine(findings),
      });
      return { code, io };
    };
    const warning = [finding({ severity: 'warning' })];
    expect((await run([], warning)).code).toBe(0);
    expect((await run(['--fail-on', 'warning'], warning)).code).toBe(1);
    expect((await run(['--fail-on', 'info'], warning)).code).toBe(1);
    expect((await run(['--fail-on', 'important'], warning)).code).toBe(0);
    expect((await run([], [finding()])).code).toBe(1);
    expect((await run(['--fail-on', 'never'], [finding()])).code).toBe(0);
    const { code, io } = await run(['--format', 'json', '--fail-on', 'important'], [finding(), finding({ line: 1 })]);
    expect(code).toBe(1);
    const report = JSON.parse(io.stdout()) as ReturnType<typeof toJson>;
    expect(report.comments.map((c) => c.line)).toEqual([1, 5]);
    expect(report.score).toBe(50);
  });

  it.each([
    [['review', '--format', 'xml'], /--format must be text, json or sarif/],
    [['review', '--fail-on', 'severe'], /--fail-on must be critical, important, warning, info or never/],
    [['review', '--bogus'], /Unknown option '--bogus'/],
    [['review', 'extra'], /review takes no arguments/],
    [['review', '--base'], /--base/],
    [['review', '--base', 'no-such-branch'], /--base: "no-such-branch" is not a commit/],
    [['review', '--base', '--oops'], /is not a revision|--base/],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const io = captureIo();
    expect(await main([...argv, '-C', r.dir], {}, io)).toBe(2);
    expect(io.stderr()).toMatch(message);
    expect(io.stderr()).toContain(COMMAND_USAGE.review);
    expect(io.stdout()).toBe('');
  });

  it('outside a git repository is a usage error (exit 2)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'redline-nogit-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const io = captureIo();
    expect(await main(['review', '-C', dir], {}, io)).toBe(2);
    expect(io.stderr()).toMatch(/is not in a git repository/);
  });

  it('lists review in the usage text', () => {
    expect(USAGE).toContain('review [--base REF] [--format text|json|sarif] [--fail-on LEVEL]');
  });
});

describe('the renderers (synthetic findings)', () => {
  it('toJson: the API shapes, comments by file then line, stable ids', () => {
    const report = toJson(SYNTHETIC);
    expect(Object.keys(report)).toEqual(['score', 'summary', 'stats', 'comments']);
    expect(report.stats).toEqual({
      files_changed: 2,
      lines_added: 15,
      lines_deleted: 2,
      comments_count: 5,
      issues: { critical: 1, important: 1, warning: 1, suggestion: 2 },
    });
    // 100 - (25 + 10 + 3 + 1 + 1) over 17 changed lines.
    expect(report.score).toBe(60);
    expect(report.summary).toBe('Two problems.');
    expect(report.comments.map((c) => [c.file, c.line])).toEqual([
      ['src/a.js', 7],
      ['src/a.js', 40],
      ['src/handler.js', 2],
      ['src/handler.js', 5],
      ['src/z dir/spaced name.js', 3],
    ]);
    expect(report.comments[3]).toEqual({
      id: 'cmt_0123456789abcdef',
      type: 'security',
      severity: 'critical',
      message: 'eval() on user input runs arbitrary code',
      file: 'src/handler.js',
      line: 5,
      suggestion: 'Parse the expression instead',
    });
    expect(report.comments.map((c) => c.id)).toEqual([
      'cmt_bbbb',
      'cmt_bbbbn2',
      'cmt_aaaa',
      'cmt_0123456789abcdef',
      'cmt_ffff000011112222',
    ]);
    for (const c of report.comments) expect(c.id).toMatch(/^cmt_[0-9A-Za-z]{1,64}$/);
    expect(toJson(SYNTHETIC)).toEqual(report);
  });

  it('toSarif: valid 2.1.0, levels by severity, Redline type and severity in properties', () => {
    const log = toSarif(SYNTHETIC, { toolVersion: '1.2.3', informationUri: 'https://redline.example/docs' });
    expectValidSarif(log);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-schema-2\.1\.0\.json$/);
    const run = log.runs[0];
    expect(run?.tool.driver).toMatchObject({
      name: 'Redline',
      version: '1.2.3',
      informationUri: 'https://redline.example/docs',
    });
    const rules = run?.tool.driver.rules ?? [];
    expect(rules.map((rule) => rule.id)).toEqual([
      'js.loop-allocation',
      'js.loose-equality',
      'js.eval-user-input',
      'js.prefer-const',
    ]);
    // A rule takes the highest severity of its findings.
    expect(rules[0]).toEqual({
      id: 'js.loop-allocation',
      shortDescription: { text: 'Allocation in a hot loop' },
      defaultConfiguration: { level: 'warning' },
      properties: { type: 'performance', severity: 'warning', tags: ['performance'] },
    });
    expect(rules[2]).toEqual({
      id: 'js.eval-user-input',
      shortDescription: { text: 'eval() on user input runs arbitrary code' },
      defaultConfiguration: { level: 'error' },
      properties: {
        type: 'security',
        severity: 'critical',
        tags: ['security', 'external/cwe/cwe-95'],
        'security-severity': '9.8',
      },
    });
    const results = run?.results ?? [];
    expect(results.map((x) => [x.level, x.properties.severity, x.properties.type])).toEqual([
      ['note', 'info', 'performance'],
      ['warning', 'warning', 'performance'],
      ['error', 'important', 'bug'],
      ['error', 'critical', 'security'],
      ['note', 'info', 'style'],
    ]);
    expect(results[3]).toEqual({
      ruleId: 'js.eval-user-input',
      ruleIndex: 2,
      level: 'error',
      message: { text: 'eval() on user input runs arbitrary code' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/handler.js', uriBaseId: '%SRCROOT%' },
            region: { startLine: 5 },
          },
        },
      ],
      partialFingerprints: { 'redline/v1': '0123456789abcdef' },
      properties: {
        type: 'security',
        severity: 'critical',
        suggestion: 'Parse the expression instead',
        cwe: 'CWE-95',
        cvss_score: 9.8,
      },
    });
    expect(results[4]?.locations[0]?.physicalLocation.artifactLocation.uri).toBe('src/z%20dir/spaced%20name.js');
    for (const x of results) expect(rules[x.ruleIndex]?.id).toBe(x.ruleId);
  });

  it('toSarif: an empty run is valid too, and line 0 becomes line 1', () => {
    expectValidSarif(toSarif({ findings: [] }));
    const log = toSarif({ findings: [finding({ line: 0, file: './lib/x.js' })] });
    expectValidSarif(log);
    expect(log.runs[0]?.results[0]?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'lib/x.js', uriBaseId: '%SRCROOT%' },
      region: { startLine: 1 },
    });
  });

  it('toText: per file, line, severity, type and message, then score and summary', () => {
    const text = toText(SYNTHETIC);
    expect(text.split('\n')).toEqual([
      'src/a.js',
      '   7  info       performance  Allocation in a hot loop [js.loop-allocation]',
      '  40  warning    performance  Allocation in a hot loop [js.loop-allocation]',
      '',
      'src/handler.js',
      '   2  important  bug          Use === [js.loose-equality]',
      '   5  critical   security     eval() on user input runs arbitrary code [js.eval-user-input]',
      '      suggestion: Parse the expression instead',
      '',
      'src/z dir/spaced name.js',
      '   3  info       style        Prefer const [js.prefer-const]',
      '',
      'Score 60/100: 2 file(s) changed, +15 -2, 5 comment(s) (1 critical, 1 important, 1 warning, 2 info)',
      'Two problems.',
    ]);
  });

  it('renderReview picks the format', () => {
    expect(JSON.parse(renderReview('json', SYNTHETIC))).toEqual(toJson(SYNTHETIC));
    expect(JSON.parse(renderReview('sarif', SYNTHETIC))).toEqual(toSarif(SYNTHETIC));
    expect(renderReview('text', SYNTHETIC)).toBe(toText(SYNTHETIC));
  });

  it.each<[Severity | 'never', Severity[], 0 | 1]>([
    ['critical', ['important', 'warning'], 0],
    ['critical', ['critical'], 1],
    ['important', ['important'], 1],
    ['important', ['warning', 'info'], 0],
    ['warning', ['warning'], 1],
    ['info', ['info'], 1],
    ['info', [], 0],
    ['never', ['critical'], 0],
  ])('--fail-on %s with %j exits %i', (failOn, severities, code) => {
    expect(
      reviewExitCode(
        severities.map((severity) => ({ severity })),
        failOn,
      ),
    ).toBe(code);
  });
});

describe('redline review finds the planted problems (issue 4, the real engine)', () => {
  let r: TempRepo;
  let planted: Planted;
  beforeAll(async () => {
    r = await repo();
    await r.write('README.md', '# planted\n');
    await r.git('add', '-A');
    await r.git('commit', '-q', '-m', 'base');
    planted = await plantProblems(r);
  });

  it('--format json: the eval and the secret on their lines, exit 1 at the default --fail-on critical', async () => {
    const io = captureIo();
    const code = await main(['review', '--format', 'json', '-C', r.dir], {}, io);
    expect(code).toBe(1);
    const report = JSON.parse(io.stdout()) as ReturnType<typeof toJson>;
    const at = (p: { file: string; line: number }) =>
      report.comments.filter((c) => c.file === p.file && c.line === p.line);
    expect(at(planted.eval)).toEqual([
      expect.objectContaining({ type: 'security', severity: 'critical', message: expect.stringMatching(/eval/i) }),
    ]);
    expect(at(planted.secret)).toEqual([expect.objectContaining({ type: 'security', severity: 'critical' })]);
    // Nothing elsewhere, and the key itself is never printed.
    expect(report.comments.map((c) => `${c.file}:${c.line}`)).toEqual([
      `${planted.secret.file}:${planted.secret.line}`,
      `${planted.eval.file}:${planted.eval.line}`,
    ]);
    expect(io.stdout()).not.toContain(planted.secret.accessKeyId);
    expect(report.stats).toMatchObject({
      files_changed: 2,
      comments_count: 2,
      issues: { critical: 2, important: 0, warning: 0, suggestion: 0 },
    });
    expect(report.score).toBe(50);
    expect(report.summary).toMatch(/Found 2 critical issues\. Most severe: /);
  });

  it('--fail-on never exits 0 with the same findings', async () => {
    const io = captureIo();
    expect(await main(['review', '--format', 'json', '--fail-on', 'never', '-C', r.dir], {}, io)).toBe(0);
    expect((JSON.parse(io.stdout()) as ReturnType<typeof toJson>).comments).toHaveLength(2);
  });

  it('--format sarif: valid, one error-level result per planted problem at its line', async () => {
    const io = captureIo();
    expect(await main(['review', '--format', 'sarif', '-C', r.dir], {}, io)).toBe(1);
    const log = JSON.parse(io.stdout()) as ReturnType<typeof toSarif>;
    expectValidSarif(log);
    const results = log.runs[0]?.results ?? [];
    expect(
      results.map((x) => ({
        ruleId: x.ruleId,
        level: x.level,
        uri: x.locations[0]?.physicalLocation.artifactLocation.uri,
        line: x.locations[0]?.physicalLocation.region.startLine,
        severity: x.properties.severity,
      })),
    ).toEqual([
      {
        ruleId: 'secrets.aws-access-key-id',
        level: 'error',
        uri: planted.secret.file,
        line: planted.secret.line,
        severity: 'critical',
      },
      { ruleId: 'js.eval', level: 'error', uri: planted.eval.file, line: planted.eval.line, severity: 'critical' },
    ]);
    expect(io.stdout()).not.toContain(planted.secret.accessKeyId);
  });
});
