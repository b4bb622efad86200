import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { toJson } from '../../src/engine/report/json.js';
import type { toSarif } from '../../src/engine/report/sarif.js';
import { captureIo, type Planted, plantProblems, type TempRepo } from './review-fixtures.js';
import { expectValidSarif, repo, useReviewHarness } from './review-harness.js';

useReviewHarness();

describe('redline review finds the planted problems (the real engine)', () => {
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
