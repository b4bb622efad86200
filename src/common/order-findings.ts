/** Code-unit order, the same on every machine and locale (localeCompare is not). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Decisions §4: comments by file, then line (then rule, so equal places keep one order). */
export function orderFindings<T extends { file: string; line: number; ruleId?: string | null }>(
  findings: readonly T[],
): T[] {
  return [...findings].sort(
    (a, b) => compareText(a.file, b.file) || a.line - b.line || compareText(a.ruleId ?? '', b.ruleId ?? ''),
  );
}
