import type { FunctionComplexity } from './function-complexities.js';

/** The functions a change touches: those with at least one added line inside them. */
export function touchedFunctions(list: FunctionComplexity[], addedLines: Set<number>): FunctionComplexity[] {
  if (addedLines.size === 0) return [];
  const sorted = [...addedLines].sort((a, b) => a - b);
  return list.filter((fn) => {
    // First added line at or after the function's start: touched when it is inside.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < fn.startLine) lo = mid + 1;
      else hi = mid;
    }
    const line = sorted[lo];
    return line !== undefined && line <= fn.endLine;
  });
}
