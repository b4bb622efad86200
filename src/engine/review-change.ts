import { testCoverage } from './test-coverage.js';
import type { ChangeSet, EngineOptions, EngineResult } from './types.js';

/**
 * The engine's entry point: a change in, findings and measurements out, no I/O. Step 3 adds the
 * analyzers (rule packs, secrets, complexity, the optional model); until then it measures the
 * change and finds nothing, so reviews complete with honest statistics and no invented comments.
 */
export function reviewChange(change: ChangeSet, _options: EngineOptions): EngineResult {
  const files = change.files.filter((f) => f.patch !== undefined && f.status !== 'removed');
  const linesAnalyzed = files.reduce((sum, f) => sum + f.additions, 0);
  return {
    findings: [],
    analysis: {
      files_analyzed: files.length,
      lines_analyzed: linesAnalyzed,
      complexity_avg: 0,
      test_coverage: testCoverage(change.files),
      tokens_used: 0,
    },
    summary:
      `Reviewed ${files.length} of ${change.files.length} changed file(s), ${linesAnalyzed} added line(s). ` +
      'No issues found.',
  };
}
