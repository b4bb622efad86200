import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareSeverity } from '../../src/common/severity.js';
import { splitUnifiedDiff } from '../../src/engine/diff/split-unified-diff.js';
import { reviewChange } from '../../src/engine/review-change.js';
import type { ChangedFile, EngineOptions, EngineResult } from '../../src/engine/types.js';
import { fakes } from './secrets/fake-secrets.js';

// Golden tests: real `git diff` output per language, made in a temporary
// repository (base commit, then the head change, `git diff --cached -M HEAD`), with the comments
// a reviewer expects, compared exactly as { file, line, type, severity, ruleId }. Clean fixtures
// expect none. Secrets are not in the fixtures: a {{NAME}} placeholder there is replaced here by
// a credential-shaped value made at run time.

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const LANGUAGES = ['javascript', 'typescript', 'python', 'go', 'java', 'ruby'] as const;
const ALL_CHECKS: EngineOptions = { checkSecurity: true, checkPerformance: true };

interface Expected {
  file: string;
  line: number;
  type: string;
  severity: string;
  ruleId: string;
}

const fake = fakes(4);
/** Values for the placeholders of the fixtures, made now (seeded: the same every run). */
const SECRETS: Record<string, string> = {
  AWS_ACCESS_KEY_ID: fake.awsAccessKeyId(),
  GITHUB_TOKEN: fake.github('p'),
};

function readGolden(relative: string): string {
  const text = readFileSync(new URL(relative, GOLDEN), 'utf8');
  return text.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => SECRETS[name] ?? whole);
}

/**
 * A `git diff` as the engine's change: GitHub's file entries, each with its whole text at the head
 * commit (as the live reader fetches it) when `head` gives it; without, the engine parses the hunks.
 */
function changeOf(diff: string, head: Record<string, string> = {}): ChangedFile[] {
  return splitUnifiedDiff(diff).map((f) => ({
    path: f.path,
    previousPath: f.previousPath,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    patch: f.patch,
    content: head[f.path],
  }));
}

interface GoldenCase {
  diff: string;
  head: Record<string, string>;
  expected: Expected[];
}

function loadCase(language: string, name: string): GoldenCase {
  return {
    diff: readGolden(`${language}/${name}.diff`),
    head: JSON.parse(readGolden(`${language}/${name}.head.json`)) as Record<string, string>,
    expected: JSON.parse(readGolden(`${language}/${name}.expected.json`)) as Expected[],
  };
}

const brief = (result: EngineResult): Expected[] =>
  result.findings.map((f) => ({ file: f.file, line: f.line, type: f.type, severity: f.severity, ruleId: f.ruleId }));

const casesOf = (language: string) =>
  readdirSync(new URL(`${language}/`, GOLDEN))
    .filter((name) => name.endsWith('.diff'))
    .map((name) => name.slice(0, -'.diff'.length))
    .sort();

const GOLDEN_CASES = LANGUAGES.flatMap((language) => casesOf(language).map((name) => [language, name] as const));

describe('golden diffs: exact comments per language', () => {
  it('has at least two dirty and one clean fixture for every language', () => {
    for (const language of LANGUAGES) {
      const expected = casesOf(language).map((name) => loadCase(language, name).expected);
      expect(expected.filter((e) => e.length > 0).length, language).toBeGreaterThanOrEqual(2);
      expect(expected.filter((e) => e.length === 0).length, language).toBeGreaterThanOrEqual(1);
    }
  });

  it.each(GOLDEN_CASES)('%s/%s', (language, name) => {
    const { diff, head, expected } = loadCase(language, name);
    const files = changeOf(diff, head);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file.content, `${file.path} has its head text`).toBeDefined();
    const result = reviewChange({ files }, ALL_CHECKS);
    expect(brief(result)).toEqual(expected);
    expect(result.skipped).toEqual([]);
    expect(result.analysis.files_analyzed).toBe(files.length);

    // Every finding sits on an added line of its file, and a secret never appears in clear.
    for (const f of result.findings) {
      const hunks = splitUnifiedDiff(diff).find((x) => x.path === f.file)?.hunks ?? [];
      const added = hunks.flatMap((h) => h.lines.filter((l) => l.kind === 'add').map((l) => l.newLine));
      expect(added, `${f.ruleId} at ${f.file}:${f.line}`).toContain(f.line);
      for (const secret of Object.values(SECRETS)) {
        expect(f.message).not.toContain(secret);
        expect(f.codeSnippet ?? '').not.toContain(secret);
      }
    }
    // The summary names the most severe finding, or says there is none.
    if (expected.length === 0) {
      expect(result.summary).toContain('No issues found.');
    } else {
      const top = [...result.findings].sort((x, y) => compareSeverity(x.severity, y.severity))[0];
      expect(result.summary).toContain(`Most severe: `);
      expect(result.summary).toContain(`(${top?.file}:${top?.line})`);
    }
  });

  // A new file's head text is exactly its added lines: the engine finds the same from the hunks.
  it.each(GOLDEN_CASES.filter(([language, name]) => /^new file mode/m.test(loadCase(language, name).diff)))(
    '%s/%s: the same comments from the patch alone (no content)',
    (language, name) => {
      const { diff, expected } = loadCase(language, name);
      expect(brief(reviewChange({ files: changeOf(diff) }, ALL_CHECKS))).toEqual(expected);
    },
  );

  it('check_security off drops the security comments and keeps the others', () => {
    for (const [language, name] of GOLDEN_CASES) {
      const { diff, head, expected } = loadCase(language, name);
      const result = reviewChange({ files: changeOf(diff, head) }, { checkSecurity: false, checkPerformance: true });
      expect(brief(result), `${language}/${name}`).toEqual(expected.filter((e) => e.type !== 'security'));
    }
  });

  it('check_performance off drops the performance comments and keeps the others', () => {
    for (const [language, name] of GOLDEN_CASES) {
      const { diff, head, expected } = loadCase(language, name);
      const result = reviewChange({ files: changeOf(diff, head) }, { checkSecurity: true, checkPerformance: false });
      expect(brief(result), `${language}/${name}`).toEqual(expected.filter((e) => e.type !== 'performance'));
    }
  });
});

describe('findings only on added lines', () => {
  it('a problem in unchanged context lines gives nothing; the same line added is flagged', () => {
    const { diff, head } = loadCase('javascript', 'clean-problem-in-context');
    // The fixture's context holds `eval(formula)` on line 3; only line 4 is added.
    expect(diff).toContain('\n   const result = eval(formula);\n');
    const files = changeOf(diff);
    expect(brief(reviewChange({ files }, ALL_CHECKS))).toEqual([]);
    // With the whole head file as content (full context for the rules): still nothing.
    expect(brief(reviewChange({ files: changeOf(diff, head) }, ALL_CHECKS))).toEqual([]);

    // The same eval as an added line is a critical comment on that line.
    const added = diff.replace('\n   const result = eval(formula);\n', '\n+  const result = eval(formula);\n');
    const flagged = changeOf(added.replace('@@ -1,6 +1,7 @@', '@@ -1,5 +1,7 @@'), head);
    expect(brief(reviewChange({ files: flagged }, ALL_CHECKS))).toEqual([
      { file: 'src/legacy/calculator.js', line: 3, type: 'security', severity: 'critical', ruleId: 'js.eval' },
    ]);
  });

  it('a secret in a context or deleted line gives nothing', () => {
    const key = SECRETS.AWS_ACCESS_KEY_ID;
    const diff = [
      'diff --git a/config/aws.js b/config/aws.js',
      'index 1111111..2222222 100644',
      '--- a/config/aws.js',
      '+++ b/config/aws.js',
      '@@ -1,3 +1,3 @@',
      `-const legacyKey = '${key}';`,
      `+const legacyKey = process.env.AWS_ACCESS_KEY_ID;`,
      ` const region = 'us-east-1'; // was ${key}`,
      ' module.exports = { legacyKey, region };',
      '',
    ].join('\n');
    expect(brief(reviewChange({ files: changeOf(diff) }, ALL_CHECKS))).toEqual([]);
  });
});

/** Each kind of file the engine does not review, with a problem in it that must not be reported. */
const SKIPPED: [kind: string, fixture: string, expected: { path: string; reason: string }[]][] = [
  ['lock', 'lock.diff', [{ path: 'package-lock.json', reason: 'lock file' }]],
  ['minified', 'minified.diff', [{ path: 'public/js/app.min.js', reason: 'minified' }]],
  ['generated', 'generated.diff', [{ path: 'internal/api/server.gen.go', reason: 'generated' }]],
  [
    'vendored',
    'vendored.diff',
    [
      { path: 'vendor/github.com/acme/tinyyaml/decode.go', reason: 'vendored' },
      { path: 'node_modules/left-pad/index.js', reason: 'vendored' },
    ],
  ],
  [
    'binary',
    'binary.diff',
    [
      { path: 'assets/logo.png', reason: 'binary' },
      { path: 'fonts/inter.woff2', reason: 'binary' },
    ],
  ],
];

/**
 * Too large: 20,001 added lines is past the per-file budget (MAX_CHANGED_LINES), so this one is
 * built here, from the committed header, rather than committed whole (half a megabyte).
 */
function tooLargeDiff(): string {
  const header = readFileSync(new URL('skipped/too-large.diff', GOLDEN), 'utf8').trimEnd();
  const lines = Array.from({ length: 20_001 }, (_, i) => `+  [${i}, eval(rows[${i}])],`);
  return `${header.replace('{{LINES}}', String(lines.length))}\n${lines.join('\n')}\n`;
}

describe('skipped files: listed with their reason, never reviewed', () => {
  it.each(SKIPPED)('%s', (_kind, fixture, expected) => {
    const result = reviewChange({ files: changeOf(readGolden(`skipped/${fixture}`)) }, ALL_CHECKS);
    expect(result.skipped).toEqual(expected);
    expect(result.findings).toEqual([]);
    expect(result.analysis.files_analyzed).toBe(0);
    expect(result.summary).toContain(
      `Not reviewed, ${expected.length} file${expected.length === 1 ? '' : 's'}: ${expected.map((s) => `${s.path} (${s.reason})`).join(', ')}.`,
    );
  });

  it('too large', () => {
    const files = changeOf(tooLargeDiff());
    expect(files).toHaveLength(1);
    expect(files[0]?.additions).toBe(20_001);
    const result = reviewChange({ files }, ALL_CHECKS);
    expect(result.skipped).toEqual([{ path: 'data/seed-rows.js', reason: 'too large to review' }]);
    expect(result.findings).toEqual([]);
    expect(result.summary).toContain('Not reviewed, 1 file: data/seed-rows.js (too large to review).');
  });

  it('skipped files next to reviewed ones: the reviewed one is commented, every skipped one is listed', () => {
    const diff = [
      readGolden('javascript/sql-injection-route.diff'),
      ...SKIPPED.map(([, fixture]) => readGolden(`skipped/${fixture}`)),
    ].join('');
    const result = reviewChange({ files: changeOf(diff) }, ALL_CHECKS);
    expect(brief(result)).toEqual(loadCase('javascript', 'sql-injection-route').expected);
    expect(result.skipped).toEqual(SKIPPED.flatMap(([, , expected]) => expected));
    expect(result.analysis.files_analyzed).toBe(1);
    expect(result.summary).toMatch(/^Reviewed 1 file \(\+6 −0\) in JavaScript\. /);
    expect(result.summary).toContain(
      'Not reviewed, 7 files: package-lock.json (lock file), public/js/app.min.js (minified), internal/api/server.gen.go (generated), vendor/github.com/acme/tinyyaml/decode.go (vendored), node_modules/left-pad/index.js (vendored) and 2 more.',
    );
  });
});
