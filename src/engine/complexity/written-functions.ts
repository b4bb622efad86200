import type { FunctionComplexity } from './function-complexities.js';

/**
 * The share of a function's lines a change must add for the function to count as the change's
 * own: a new function has all its lines added; an old one rewritten has at least half. A renamed
 * parameter, a new branch or a fix of a few lines in a long function leaves it the author's
 * predecessor's to split.
 */
export const MATERIAL_CHANGE_SHARE = 0.5;

/** The functions a change wrote or changed materially (`MATERIAL_CHANGE_SHARE` of their lines added). */
export function writtenFunctions(
  list: readonly FunctionComplexity[],
  addedLines: ReadonlySet<number>,
): FunctionComplexity[] {
  return list.filter((fn) => {
    const lines = fn.endLine - fn.startLine + 1;
    let added = 0;
    for (let line = fn.startLine; line <= fn.endLine; line++) if (addedLines.has(line)) added++;
    return added >= lines * MATERIAL_CHANGE_SHARE;
  });
}
