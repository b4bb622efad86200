import { describe, expect, it } from 'vitest';
import { renderReview, reviewExitCode } from '../../src/cli/review.js';
import type { Severity } from '../../src/common/severity.js';
import { toJson } from '../../src/engine/report/json.js';
import { toSarif } from '../../src/engine/report/sarif.js';
import { toText } from '../../src/engine/report/text.js';
import { expectValidSarif, finding, SYNTHETIC, useReviewHarness } from './review-harness.js';

useReviewHarness();

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
      rule_id: 'js.eval-user-input',
      suggestion: 'Parse the expression instead',
    });
    // The exact text printed for that comment: `rule_id` after `line`, as the engine named the rule.
    expect(JSON.stringify(report.comments[3])).toBe(
      '{"id":"cmt_0123456789abcdef","type":"security","severity":"critical",' +
        '"message":"eval() on user input runs arbitrary code","file":"src/handler.js","line":5,' +
        '"rule_id":"js.eval-user-input","suggestion":"Parse the expression instead"}',
    );
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
    // A rule takes the highest severity of its findings. These ids are made up: the engine has no
    // such rule to describe, so the description is the id, never a finding's message.
    expect(rules[0]).toEqual({
      id: 'js.loop-allocation',
      shortDescription: { text: 'js.loop-allocation' },
      defaultConfiguration: { level: 'warning' },
      properties: { type: 'performance', severity: 'warning', tags: ['performance'] },
    });
    expect(rules[2]).toEqual({
      id: 'js.eval-user-input',
      shortDescription: { text: 'js.eval-user-input' },
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

  it("toSarif: a rule's shortDescription says what the rule detects; each result keeps its finding's message", () => {
    const db = finding({
      ruleId: 'secrets.url-credentials',
      message: 'A password in a URL for db.acme.io is committed: rotate it.',
      file: 'src/db.js',
      line: 3,
      fingerprint: 'aaaa',
    });
    const cache = finding({
      ruleId: 'secrets.url-credentials',
      message: 'A password in a URL for cache.acme.io is committed: rotate it.',
      file: 'src/cache.js',
      line: 8,
      fingerprint: 'bbbb',
    });
    const sql = finding({
      ruleId: 'js.sql-injection',
      message: 'Query built from `req.query.id`.',
      fingerprint: 'cccc',
    });
    const log = toSarif({ findings: [db, cache, sql] });
    expectValidSarif(log);
    const run = log.runs[0];
    expect(run?.tool.driver.rules.map((rule) => [rule.id, rule.shortDescription.text])).toEqual([
      ['secrets.url-credentials', 'A password written into a URL or connection string.'],
      [
        'js.sql-injection',
        expect.stringMatching(/^SQL built by interpolating or concatenating values is open to SQL injection: /),
      ],
    ]);
    expect(run?.results.map((x) => [x.ruleId, x.message.text])).toEqual([
      ['secrets.url-credentials', 'A password in a URL for cache.acme.io is committed: rotate it.'],
      ['secrets.url-credentials', 'A password in a URL for db.acme.io is committed: rotate it.'],
      ['js.sql-injection', 'Query built from `req.query.id`.'],
    ]);
    // A caller's own description still wins.
    const custom = toSarif(
      { findings: [db] },
      { ruleDescriptions: { 'secrets.url-credentials': 'Passwords in URLs' } },
    );
    expect(custom.runs[0]?.tool.driver.rules[0]?.shortDescription).toEqual({ text: 'Passwords in URLs' });
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

  it('renderReview picks the format', async () => {
    expect(JSON.parse(await renderReview('json', SYNTHETIC))).toEqual(toJson(SYNTHETIC));
    expect(JSON.parse(await renderReview('sarif', SYNTHETIC))).toEqual(toSarif(SYNTHETIC));
    expect(await renderReview('text', SYNTHETIC)).toBe(toText(SYNTHETIC));
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
