import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiffIndex } from '../../../src/common/diff/diff-index.js';
import { parsePatch } from '../../../src/common/diff/parse-patch.js';
import type { Hunk } from '../../../src/common/diff/types.js';
import { reconstructNewSide } from '../../../src/engine/diff/reconstruct-new-side.js';
import { splitUnifiedDiff } from '../../../src/engine/diff/split-unified-diff.js';
import { type Edit, unifiedDiffOf } from './unified-diff-of.js';

// Texts that look like diff syntax once prefixed are the interesting ones; CR is a terminator.
const lineText = fc.oneof(
  fc.constantFrom('', ' ', '-- x', '++ y', '--- a/f', '+++ b/f', '@@ -1 +1 @@', '\\ No newline', 'diff --git a/x b/x'),
  fc.string({ maxLength: 12 }).filter((s) => !s.includes('\n') && !s.includes('\r')),
);
const edits = fc.array(fc.record({ op: fc.constantFrom<Edit['op']>('keep', 'keep', 'del', 'add'), text: lineText }), {
  maxLength: 60,
});

const oldOf = (script: Edit[]) => script.filter((e) => e.op !== 'add').map((e) => e.text);
const newOf = (script: Edit[]) => script.filter((e) => e.op !== 'del').map((e) => e.text);

/** Applies hunks to the old lines, checking every context and deleted line against them. */
function apply(old: string[], hunks: Hunk[]): string[] {
  const out: string[] = [];
  let next = 0;
  for (const hunk of hunks) {
    const start = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    while (next < start) out.push(old[next++] as string);
    for (const line of hunk.lines) {
      if (line.kind === 'add') {
        out.push(line.text);
        continue;
      }
      expect(line.oldLine).toBe(next + 1);
      expect(old[next]).toBe(line.text);
      next++;
      if (line.kind === 'context') out.push(line.text);
    }
  }
  while (next < old.length) out.push(old[next++] as string);
  return out;
}

describe('diff round trip (property)', () => {
  it('applying the parsed hunks to old gives new; line numbers index the new text', () => {
    fc.assert(
      fc.property(edits, fc.integer({ min: 0, max: 4 }), (script, context) => {
        const [oldLines, newLines] = [oldOf(script), newOf(script)];
        const hunks = parsePatch(unifiedDiffOf(script, context));
        expect(apply(oldLines, hunks)).toEqual(newLines);

        const index = new DiffIndex(hunks);
        expect(index.addedLines.size).toBe(script.filter((e) => e.op === 'add').length);
        for (const [line, text] of index.addedLines) expect(newLines[line - 1]).toBe(text);
        for (const line of index.commentableLines) expect(line >= 1 && line <= newLines.length).toBe(true);

        const side = reconstructNewSide(hunks);
        expect(side.aligned).toBe(true);
        const sideLines = side.text.split('\n');
        side.realLines.forEach((real, i) => {
          if (real > 0) expect(sideLines[i]).toBe(newLines[real - 1]);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('a whole git diff of the same change gives the same hunks', () => {
    fc.assert(
      fc.property(edits, fc.integer({ min: 0, max: 3 }), (script, context) => {
        const patch = unifiedDiffOf(script, context);
        const text = `diff --git a/f.ts b/f.ts\nindex 1..2 100644\n--- a/f.ts\n+++ b/f.ts\n${patch}\n`;
        const [file, ...rest] = splitUnifiedDiff(text);
        expect(rest).toEqual([]);
        expect(file?.hunks).toEqual(parsePatch(patch));
        expect(file?.patch).toBe(patch === '' ? undefined : patch);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text', () => {
    const noise = fc.array(
      fc.oneof(lineText, fc.constantFrom('@@ -1,3 +1 @@', '@@ -0,0 +1,2 @@ x', 'new file mode 100644', 'rename to ')),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(noise, (lines) => {
        const text = lines.join('\n');
        parsePatch(text);
        for (const file of splitUnifiedDiff(text)) new DiffIndex(file.hunks).nearestCommentable(1);
      }),
      { numRuns: 500 },
    );
  });
});
