import { analyzeSource } from './analyze-source.js';
import { COMPLEX_FUNCTION_THRESHOLD } from './complexity/index.js';
import { REVIEW_TIME_BUDGET_MS, reviewFiles } from './review-files.js';
import type { ChangeSet, EngineOptions, EngineResult } from './types.js';

export { COMPLEX_FUNCTION_THRESHOLD, REVIEW_TIME_BUDGET_MS };

/**
 * The engine's entry point: a change in, findings and measurements out, no I/O. `reviewFiles`
 * with every part: secrets on every file, and rules, flow analysis and complexity on each file in
 * a language we read (analyze-source.ts).
 */
export function reviewChange(change: ChangeSet, options: EngineOptions): EngineResult {
  return reviewFiles(change, options, analyzeSource);
}
