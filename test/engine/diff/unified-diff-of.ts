/** One step of an edit script turning old lines into new ones. */
export type Edit = { op: 'keep' | 'del' | 'add'; text: string };

/**
 * A unified diff of an edit script, written the way git writes one (context lines around each
 * change, hunks merged when their context meets, `-k,0` for insertions after line k), so the
 * parser is checked against an independent writer, not against itself.
 */
export function unifiedDiffOf(edits: readonly Edit[], context: number): string {
  const changed = edits.map((e, i) => (e.op === 'keep' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  // Ranges of edit indices to show: each change widened by `context` keeps, merged on overlap.
  const ranges: [number, number][] = [];
  for (const i of changed) {
    const from = Math.max(0, i - context);
    const to = Math.min(edits.length - 1, i + context);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  const out: string[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  let cursor = 0;
  for (const [from, to] of ranges) {
    for (; cursor < from; cursor++) {
      const e = edits[cursor] as Edit;
      if (e.op !== 'add') oldSeen++;
      if (e.op !== 'del') newSeen++;
    }
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (; cursor <= to; cursor++) {
      const e = edits[cursor] as Edit;
      body.push(`${e.op === 'keep' ? ' ' : e.op === 'add' ? '+' : '-'}${e.text}`);
      if (e.op !== 'add') oldCount++;
      if (e.op !== 'del') newCount++;
    }
    const oldStart = oldCount === 0 ? oldSeen : oldSeen + 1;
    const newStart = newCount === 0 ? newSeen : newSeen + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`, ...body);
    oldSeen += oldCount;
    newSeen += newCount;
  }
  return out.join('\n');
}
