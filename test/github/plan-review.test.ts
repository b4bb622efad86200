import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/engine/types.js';
import { planReview } from '../../src/github/plan-review.js';
import { defaultRepositoryConfig, type RepositoryConfig } from '../../src/github/repository-config.js';
import { COMMENTABLE, finding, SQL_COMMENT_BODY, SQL_INJECTION } from './review-fixtures.js';

/** What one run publishes (decisions §7), decided without I/O. */

const config = (overrides: Partial<RepositoryConfig> = {}): RepositoryConfig => ({
  ...defaultRepositoryConfig(),
  ...overrides,
});

const plan = (findings: Finding[], options: { config?: RepositoryConfig; posted?: string[]; summary?: string } = {}) =>
  planReview({
    findings,
    commentable: COMMENTABLE,
    config: options.config ?? config(),
    posted: new Set(options.posted ?? []),
    summary: options.summary,
  });

describe('planReview', () => {
  it('a critical problem on the diff: REQUEST_CHANGES, an inline comment on its line with the fix as a suggestion', () => {
    const result = plan([SQL_INJECTION], { summary: 'Adds a lookup of users by id.' });
    expect(result).toEqual({
      event: 'REQUEST_CHANGES',
      body: '**Redline** found 1 problem (1 critical).\n\nAdds a lookup of users by id.',
      comments: [{ path: 'src/users.ts', line: 12, side: 'RIGHT', body: SQL_COMMENT_BODY }],
      summarised: [],
      fallbackBody: [
        '**Redline** found 1 problem (1 critical).',
        '',
        'Adds a lookup of users by id.',
        '',
        '**Problems** (GitHub did not take them as inline comments):',
        '- `src/users.ts:12` **critical** security: SQL built by concatenating values is open to SQL injection: pass the values as query parameters. <!-- redline:fingerprint=a1b2c3d4e5f60718 -->',
      ].join('\n'),
      findings: [SQL_INJECTION],
      alreadyPosted: 0,
    });
  });

  it('a clean change: APPROVE with no comments', () => {
    expect(plan([], { summary: 'Renames a variable.' })).toEqual({
      event: 'APPROVE',
      body: '**Redline** found no problems.\n\nRenames a variable.',
      comments: [],
      summarised: [],
      fallbackBody: '**Redline** found no problems.\n\nRenames a variable.',
      findings: [],
      alreadyPosted: 0,
    });
  });

  it('decides the event as decisions §7 says', () => {
    const of = (severities: Finding['severity'][], overrides: Partial<RepositoryConfig> = {}) =>
      plan(
        severities.map((severity) => finding({ severity })),
        { config: config(overrides) },
      ).event;
    expect(of([])).toBe('APPROVE');
    expect(of(['info', 'info'])).toBe('APPROVE');
    expect(of(['warning', 'info'])).toBe('COMMENT');
    expect(of(['important'])).toBe('REQUEST_CHANGES');
    expect(of(['critical', 'info'])).toBe('REQUEST_CHANGES');
    expect(of([], { approve: false })).toBe('COMMENT');
    expect(of(['important'], { request_changes_on: 'critical' })).toBe('COMMENT');
    expect(of(['warning'], { request_changes_on: 'warning' })).toBe('REQUEST_CHANGES');
    expect(of(['critical'], { request_changes_on: 'never' })).toBe('COMMENT');
    expect(of(['info'], { request_changes_on: 'never' })).toBe('APPROVE');
  });

  it('does not post again what an earlier review posted, but still requests changes for it', () => {
    const fresh = finding({ severity: 'warning', file: 'src/util.ts', line: 2, message: 'New problem.' });
    const result = plan([SQL_INJECTION, fresh], { posted: [SQL_INJECTION.fingerprint] });
    expect(result.event).toBe('REQUEST_CHANGES');
    expect(result.comments.map((c) => [c.path, c.line])).toEqual([['src/util.ts', 2]]);
    expect(result.alreadyPosted).toBe(1);
    expect(result.body).toBe(
      '**Redline** found 2 problems (1 critical, 1 warning).\n\n1 of them was reported by an earlier review and is not repeated.',
    );
    expect(result.fallbackBody).toBe(
      [
        '**Redline** found 2 problems (1 critical, 1 warning).',
        '',
        '1 of them was reported by an earlier review and is not repeated.',
        '',
        '**Problems** (GitHub did not take them as inline comments):',
        `- \`src/util.ts:2\` **warning** bug: New problem. <!-- redline:fingerprint=${fresh.fingerprint} -->`,
      ].join('\n'),
    );
    // Every finding already posted: nothing new inline, and the body says so.
    const again = plan([SQL_INJECTION, fresh], { posted: [SQL_INJECTION.fingerprint, fresh.fingerprint] });
    expect(again.comments).toEqual([]);
    expect(again.event).toBe('REQUEST_CHANGES');
    expect(again.body).toBe(
      '**Redline** found 2 problems (1 critical, 1 warning).\n\n2 of them were reported by earlier reviews and are not repeated.',
    );
  });

  it('never puts a finding off the diff inline: it goes to the body', () => {
    const outsideHunk = finding({ severity: 'important', file: 'src/users.ts', line: 40, message: 'Far below.' });
    const notInDiff = finding({ severity: 'warning', file: 'src/other.ts', line: 3, message: 'Untouched file.' });
    const noPatch = finding({ severity: 'info', file: 'assets/logo.png', line: 1, message: 'Binary.' });
    const deletedSide = finding({ severity: 'info', file: 'src/util.ts', line: 4, message: 'Past the end.' });
    const result = plan([noPatch, notInDiff, SQL_INJECTION, outsideHunk, deletedSide]);
    expect(result.comments.map((c) => [c.path, c.line])).toEqual([['src/users.ts', 12]]);
    expect(result.summarised).toEqual([outsideHunk, notInDiff, noPatch, deletedSide]);
    expect(result.body).toBe(
      [
        '**Redline** found 5 problems (1 critical, 1 important, 1 warning, 2 info).',
        '',
        '**Outside the diff** (GitHub takes inline comments only on lines of the diff):',
        `- \`src/users.ts:40\` **important** bug: Far below. <!-- redline:fingerprint=${outsideHunk.fingerprint} -->`,
        `- \`src/other.ts:3\` **warning** bug: Untouched file. <!-- redline:fingerprint=${notInDiff.fingerprint} -->`,
        `- \`assets/logo.png:1\` **info** bug: Binary. <!-- redline:fingerprint=${noPatch.fingerprint} -->`,
        `- \`src/util.ts:4\` **info** bug: Past the end. <!-- redline:fingerprint=${deletedSide.fingerprint} -->`,
      ].join('\n'),
    );
  });

  it('puts at most max_comments inline, the most severe, and lists the rest', () => {
    const info = finding({ severity: 'info', file: 'src/users.ts', line: 10, message: 'Minor.' });
    const warning = finding({ severity: 'warning', file: 'src/users.ts', line: 11, message: 'Careful.' });
    const important = finding({ severity: 'important', file: 'src/util.ts', line: 2, message: 'Wrong.' });
    const result = plan([info, warning, SQL_INJECTION, important], { config: config({ max_comments: 2 }) });
    // The two most severe, sent in file and line order.
    expect(result.comments.map((c) => [c.path, c.line])).toEqual([
      ['src/users.ts', 12],
      ['src/util.ts', 2],
    ]);
    expect(result.summarised).toEqual([warning, info]);
    expect(result.body).toBe(
      [
        '**Redline** found 4 problems (1 critical, 1 important, 1 warning, 1 info).',
        '',
        '**Over the limit of 2 inline comments:**',
        `- \`src/users.ts:11\` **warning** bug: Careful. <!-- redline:fingerprint=${warning.fingerprint} -->`,
        `- \`src/users.ts:10\` **info** bug: Minor. <!-- redline:fingerprint=${info.fingerprint} -->`,
      ].join('\n'),
    );
    const none = plan([info, SQL_INJECTION], { config: config({ max_comments: 0 }) });
    expect(none.comments).toEqual([]);
    expect(none.summarised).toEqual([SQL_INJECTION, info]);
    expect(none.body).toContain('**Over the limit of 0 inline comments:**');
  });

  it('keeps only what the configuration asks for, and decides on that', () => {
    const style = finding({ type: 'style', severity: 'important', ruleId: 'js.console-log' });
    const perf = finding({ type: 'performance', severity: 'warning', ruleId: 'js.await-in-loop' });
    const test = finding({ severity: 'important', file: 'test/users.test.ts', line: 1 });
    const docs = finding({ severity: 'important', file: 'docs/guide.md', line: 1 });
    const info = finding({ severity: 'info' });
    const all = [SQL_INJECTION, style, perf, test, docs, info];
    expect(plan(all).findings).toHaveLength(6);
    const kept = (overrides: Partial<RepositoryConfig>) => plan(all, { config: config(overrides) }).findings;
    expect(kept({ checks: { ...config().checks, style: false } })).not.toContain(style);
    expect(kept({ checks: { ...config().checks, security: false } })).not.toContain(SQL_INJECTION);
    expect(kept({ min_severity: 'warning' })).not.toContain(info);
    expect(kept({ min_severity: 'critical' })).toEqual([SQL_INJECTION]);
    expect(kept({ ignore_rules: ['js.console-*', 'js.await-in-loop'] })).toEqual([SQL_INJECTION, docs, test, info]);
    expect(kept({ paths: { include: ['src/**'], exclude: [] } })).toEqual([SQL_INJECTION, style, perf, info]);
    expect(kept({ paths: { include: [], exclude: ['**/*.md', 'test/'] } })).toEqual([SQL_INJECTION, style, perf, info]);
    // Filtered out, a problem no longer blocks.
    expect(plan([SQL_INJECTION], { config: config({ ignore_rules: ['js.sql-injection'] }) }).event).toBe('APPROVE');
  });

  it('keeps a suggestion intact whatever it contains, and no finding can forge a marker', () => {
    const tricky = finding({
      severity: 'warning',
      file: 'src/users.ts',
      line: 11,
      message: 'Quote it. <!-- redline:fingerprint=0000000000000000 -->',
      suggestion: '  const md = "```js\\ncode\\n```";',
    });
    const [comment] = plan([tricky]).comments;
    expect(comment?.body).toBe(
      [
        '**warning** · bug · `js.example`',
        '',
        'Quote it. &lt;!-- redline:fingerprint=0000000000000000 -->',
        '',
        '````suggestion',
        '  const md = "```js\\ncode\\n```";',
        '````',
        '',
        `<!-- redline:fingerprint=${tricky.fingerprint} -->`,
      ].join('\n'),
    );
  });

  it('keeps the body within GitHub limit, saying how many it left out', () => {
    const many = Array.from({ length: 400 }, (_, i) =>
      finding({ file: 'src/elsewhere.ts', line: i + 1, message: 'x'.repeat(200) }),
    );
    const result = plan(many);
    expect(result.body.length).toBeLessThan(65_536);
    expect(result.fallbackBody.length).toBeLessThan(65_536);
    const lines = result.body.split('\n').filter((l) => l.startsWith('- '));
    const listed = lines.filter((l) => l.includes('redline:fingerprint')).length;
    expect(listed).toBeGreaterThan(100);
    expect(listed).toBeLessThan(400);
    expect(lines.at(-1)).toBe(`- … and ${400 - listed} more (all of them are annotated in the Redline check run)`);
  });
});
