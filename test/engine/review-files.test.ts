import { describe, expect, it } from 'vitest';
import { analyzeSource } from '../../src/engine/analyze-source.js';
import { reviewChange } from '../../src/engine/review-change.js';
import { needsSourceAnalysis, reviewFiles } from '../../src/engine/review-files.js';
import type { ChangedFile } from '../../src/engine/types.js';
import { fakes } from './secrets/fake-secrets.js';

const OPTIONS = { checkSecurity: true, checkPerformance: true };

function added(path: string, lines: string[], status: ChangedFile['status'] = 'added'): ChangedFile {
  return {
    path,
    status,
    additions: lines.length,
    deletions: 0,
    patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}`,
  };
}

const GO = added('src/run.go', [
  'package run',
  '',
  'import "os/exec"',
  '',
  'func Run(name string) error {',
  '\treturn exec.Command("sh", "-c", "ls "+name).Run()',
  '}',
]);

describe('reviewFiles: the review with the source analyzer as a part', () => {
  it('needs no analyzer for a change without source files, and finds what the whole engine finds there', () => {
    const token = fakes(7).github('p');
    const docs = {
      files: [
        added('docs/setup.md', ['# Setup', '', `export GITHUB_TOKEN=${token}`]),
        added('package-lock.json', ['{}']),
      ],
    };
    expect(needsSourceAnalysis(docs)).toBe(false);
    const alone = reviewFiles(docs, OPTIONS);
    expect(alone.findings.map((f) => [f.file, f.line, f.ruleId])).toEqual([
      ['docs/setup.md', 3, 'secrets.github-token'],
    ]);
    expect(alone).toEqual(reviewChange(docs, OPTIONS));
  });

  it('needs the analyzer for a file in a language we read, and refuses to review it without one', () => {
    const change = { files: [added('README.md', ['hi']), GO] };
    expect(needsSourceAnalysis(change)).toBe(true);
    expect(() => reviewFiles(change, OPTIONS)).toThrow(/src\/run\.go is in go/);
    expect(reviewFiles(change, OPTIONS, analyzeSource).findings.map((f) => f.ruleId)).toEqual(['go.command-injection']);
  });

  it('counts a removed, skipped or diff-less source file as needing nothing', () => {
    const removed = { ...GO, status: 'removed' as const };
    const noDiff = { ...GO, patch: undefined };
    const vendored = { ...GO, path: 'vendor/github.com/x/run.go' };
    expect(needsSourceAnalysis({ files: [removed, noDiff, vendored] })).toBe(false);
    expect(reviewFiles({ files: [removed, noDiff, vendored] }, OPTIONS).findings).toEqual([]);
  });
});
