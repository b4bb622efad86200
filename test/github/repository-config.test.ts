import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOctokit } from '../../src/github/octokit.js';
import { readRepositoryConfig } from '../../src/github/read-repository-config.js';
import { defaultRepositoryConfig, parseRepositoryConfig } from '../../src/github/repository-config.js';
import { TEST_OCTOKIT_OPTIONS } from '../helpers/test-app.js';

/**
 * `.github/redline.yml` (decisions §7): validated, every problem named with where it is,
 * and the defaults used whole when anything is wrong; read from the default branch.
 */

const DEFAULTS = {
  enabled: true,
  auto_review: true,
  drafts: false,
  base_branches: [],
  paths: { include: [], exclude: [] },
  checks: { security: true, performance: true, bug: true, style: true, suggestion: true },
  min_severity: 'info',
  request_changes_on: 'important',
  approve: true,
  max_comments: 30,
  ignore_rules: [],
};

describe('parseRepositoryConfig', () => {
  it('has the documented defaults', () => {
    expect(defaultRepositoryConfig()).toEqual(DEFAULTS);
  });

  it('reads every option', () => {
    const text = [
      'enabled: true',
      'auto_review: false',
      'drafts: true',
      'base_branches: [main, "release/*"]',
      'paths:',
      '  include: ["src/**"]',
      '  exclude:',
      '    - "**/*.test.ts"',
      'checks:',
      '  style: false',
      '  suggestion: false',
      'min_severity: warning',
      'request_changes_on: critical',
      'approve: false',
      'max_comments: 5',
      'ignore_rules: [js.console-log]',
    ].join('\n');
    expect(parseRepositoryConfig(text)).toEqual({
      config: {
        enabled: true,
        auto_review: false,
        drafts: true,
        base_branches: ['main', 'release/*'],
        paths: { include: ['src/**'], exclude: ['**/*.test.ts'] },
        checks: { security: true, performance: true, bug: true, style: false, suggestion: false },
        min_severity: 'warning',
        request_changes_on: 'critical',
        approve: false,
        max_comments: 5,
        ignore_rules: ['js.console-log'],
      },
      errors: [],
    });
  });

  it('takes an empty file, a file of comments, and empty values as the defaults', () => {
    expect(parseRepositoryConfig('')).toEqual({ config: DEFAULTS, errors: [] });
    expect(parseRepositoryConfig('# nothing yet\n')).toEqual({ config: DEFAULTS, errors: [] });
    expect(parseRepositoryConfig('paths:\n  exclude:\nchecks:\nmax_comments:\n')).toEqual({
      config: DEFAULTS,
      errors: [],
    });
  });

  it('accepts request_changes_on: never and max_comments 0 and 100', () => {
    expect(parseRepositoryConfig('request_changes_on: never\nmax_comments: 0').config).toMatchObject({
      request_changes_on: 'never',
      max_comments: 0,
    });
    expect(parseRepositoryConfig('max_comments: 100').errors).toEqual([]);
  });

  it('lists every problem with its path and uses the defaults whole', () => {
    const text = [
      'enabled: false', // valid, but the file as a whole is not: defaults (enabled) apply
      'request_changes_on: high',
      'min_severity: 3',
      'checks:',
      '  secrity: false',
      '  bug: maybe',
      'paths:',
      '  include: src/**',
      '  exclude: [1, ""]',
      'max_comments: 200',
      'approve: yes',
      'colour: red',
    ].join('\n');
    const { config, errors } = parseRepositoryConfig(text);
    expect(config).toEqual(DEFAULTS);
    expect(errors).toEqual([
      'request_changes_on (line 2): must be one of critical, important, warning, info or never (got "high")',
      'min_severity (line 3): must be one of critical, important, warning, info (got 3)',
      'checks.secrity (line 5): unknown option (known: security, performance, style, bug, suggestion)',
      'checks.bug (line 6): must be true or false (got "maybe")',
      'paths.include (line 8): must be a list of path patterns (got "src/**")',
      'paths.exclude[0] (line 9): must be a path pattern (got 1)',
      'paths.exclude[1] (line 9): must be a path pattern, not empty (got "")',
      'max_comments (line 10): must be a whole number from 0 to 100 (got 200)',
      'approve (line 11): must be true or false (got "yes")',
      'colour (line 12): unknown option (known: enabled, auto_review, drafts, base_branches, paths, checks, min_severity, request_changes_on, approve, max_comments, ignore_rules)',
    ]);
  });

  it('names a whole-number problem and a wrong shape', () => {
    expect(parseRepositoryConfig('max_comments: 2.5').errors).toEqual([
      'max_comments (line 1): must be a whole number from 0 to 100 (got 2.5)',
    ]);
    expect(parseRepositoryConfig('checks: [security]').errors).toEqual([
      'checks (line 1): must be a mapping of finding types to true or false (got a list)',
    ]);
    expect(parseRepositoryConfig('- enabled').errors).toEqual(['(file): must be a mapping of options (got a list)']);
    expect(parseRepositoryConfig('just words').errors).toEqual([
      '(file): must be a mapping of options (got "just words")',
    ]);
  });

  it('reports YAML that does not parse with its line and column', () => {
    expect(parseRepositoryConfig('enabled: true\nenabled: false\n')).toEqual({
      config: DEFAULTS,
      errors: ['line 2, column 1: Map keys must be unique'],
    });
    expect(parseRepositoryConfig('paths:\n\tinclude: []\n').errors).toEqual([
      'line 2, column 1: Tabs are not allowed as indentation',
    ]);
    expect(parseRepositoryConfig('a: *nowhere\n').errors).toHaveLength(1);
  });

  it('refuses alias bombs and very large files instead of expanding them', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      bomb.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const result = parseRepositoryConfig(bomb.join('\n'));
    expect(result.config).toEqual(DEFAULTS);
    expect(result.errors).toHaveLength(1);
    expect(parseRepositoryConfig(`# ${'x'.repeat(70_000)}`).errors).toEqual(['(file): larger than 64 KiB']);
  });
});

const API = 'https://api.github.test';
const CONTENTS = '/repos/octo/shop/contents/.github%2Fredline.yml';
let seq = 0;
const octokit = () =>
  createOctokit({
    apiUrl: API,
    token: ['cfg', 'token', ++seq].join('-'),
    fetch: (input, init) => globalThis.fetch(input, init),
    ...TEST_OCTOKIT_OPTIONS,
  });
const REPO = { owner: 'octo', repo: 'shop' };

describe('readRepositoryConfig', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  it('reads the raw file from the default branch (no ref)', async () => {
    const scope = nock(API, { reqheaders: { accept: 'application/vnd.github.v3.raw' } })
      .get(CONTENTS)
      .reply(200, 'max_comments: 3\n', { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
    const read = await readRepositoryConfig(octokit(), REPO);
    expect(read).toEqual({ config: { ...DEFAULTS, max_comments: 3 }, errors: [], found: true });
    scope.done();
  });

  it('reads at a given commit', async () => {
    const scope = nock(API)
      .get(CONTENTS)
      .query({ ref: 'c'.repeat(40) })
      .reply(200, 'colour: red\n', { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
    const read = await readRepositoryConfig(octokit(), REPO, { ref: 'c'.repeat(40) });
    expect(read.found).toBe(true);
    expect(read.config).toEqual(DEFAULTS);
    expect(read.errors).toEqual([
      'colour (line 1): unknown option (known: enabled, auto_review, drafts, base_branches, paths, checks, min_severity, request_changes_on, approve, max_comments, ignore_rules)',
    ]);
    scope.done();
  });

  it('a missing file is the defaults, without an error', async () => {
    const scope = nock(API).get(CONTENTS).reply(404, { message: 'Not Found' });
    expect(await readRepositoryConfig(octokit(), REPO)).toEqual({ config: DEFAULTS, errors: [], found: false });
    scope.done();
  });

  it('a GitHub failure (after the retries) is the defaults with the reason', async () => {
    const scope = nock(API).get(CONTENTS).times(3).reply(503, { message: 'unavailable' });
    expect(await readRepositoryConfig(octokit(), REPO)).toEqual({
      config: DEFAULTS,
      errors: ['the file could not be read: GitHub answered 503'],
      found: false,
    });
    scope.done();
  });

  it('a refusal (403) is the defaults with the reason', async () => {
    const scope = nock(API).get(CONTENTS).reply(403, { message: 'Resource not accessible by integration' });
    expect((await readRepositoryConfig(octokit(), REPO)).errors).toEqual([
      'the file could not be read: GitHub answered 403',
    ]);
    scope.done();
  });

  it('a directory in its place is reported', async () => {
    const scope = nock(API)
      .get(CONTENTS)
      .reply(200, [{ type: 'file', name: 'x.yml', path: '.github/redline.yml/x.yml' }]);
    expect(await readRepositoryConfig(octokit(), REPO)).toEqual({
      config: DEFAULTS,
      errors: ['.github/redline.yml is not a file'],
      found: true,
    });
    scope.done();
  });
});
