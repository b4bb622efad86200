import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_USAGE } from '../../src/cli/help.js';
import { main, USAGE } from '../../src/cli/main.js';
import { parseReviewArgs, reviewCommand } from '../../src/cli/review.js';
import type { toJson } from '../../src/engine/report/json.js';
import type { toSarif } from '../../src/engine/report/sarif.js';
import type { EngineResult, Finding } from '../../src/engine/types.js';
import { captureIo, type TempRepo } from './review-fixtures.js';
import { cleanups, expectValidSarif, finding, scenario, useReviewHarness } from './review-harness.js';

useReviewHarness();

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
