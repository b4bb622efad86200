import { describe, expect, it } from 'vitest';
import { COMPLEX_FUNCTION_THRESHOLD, reviewChange } from '../../../src/engine/review-change.js';
import type { ChangedFile } from '../../../src/engine/types.js';

const ALL_CHECKS = { checkSecurity: true, checkPerformance: true };

/** A function of cyclomatic complexity 1 + branches: one `if` per branch. */
function functionLines(name: string, branches: number): string[] {
  return [
    `function ${name}(a) {`,
    ...Array.from({ length: branches }, (_, k) => `  if (a === ${k}) return ${k};`),
    '  return -1;',
    '}',
  ];
}

function addedFile(path: string, lines: string[]): ChangedFile {
  return {
    path,
    status: 'added',
    additions: lines.length,
    deletions: 0,
    patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n'),
    content: `${lines.join('\n')}\n`,
  };
}

const complexComments = (file: ChangedFile) =>
  reviewChange({ files: [file] }, ALL_CHECKS).findings.filter((f) => f.ruleId === 'general.complex-function');

/** The file with `route` as it was and the lines at `changed` (0-based) rewritten by the change. */
function modifiedFile(lines: string[], changed: (i: number) => boolean): ChangedFile {
  const body = lines.flatMap((l, i) => (changed(i) ? [`-${l}_old`, `+${l}`] : [` ${l}`]));
  const count = lines.filter((_, i) => changed(i)).length;
  return {
    path: 'src/route.js',
    status: 'modified',
    additions: count,
    deletions: count,
    patch: [`@@ -1,${lines.length} +1,${lines.length} @@`, ...body].join('\n'),
    content: `${lines.join('\n')}\n`,
  };
}

describe('the complexity comment: strictly above the threshold, on a function the change wrote', () => {
  it('the threshold is 15', () => {
    expect(COMPLEX_FUNCTION_THRESHOLD).toBe(15);
  });

  it('a new function at exactly the threshold gets no comment', () => {
    expect(complexComments(addedFile('src/route.js', functionLines('route', 14)))).toEqual([]);
  });

  it('a new function one above it gets one, on its first line', () => {
    const found = complexComments(addedFile('src/route.js', functionLines('route', 15)));
    expect(found.map(({ fingerprint: _, ...rest }) => rest)).toEqual([
      {
        type: 'style',
        severity: 'info',
        message:
          'route has a cyclomatic complexity of 16 (threshold 15): split it so each part can be read and tested on its own.',
        file: 'src/route.js',
        line: 1,
        codeSnippet: 'function route(a) {',
        ruleId: 'general.complex-function',
      },
    ]);
  });

  it('a function the change only added a line to (its first line not added) gets none', () => {
    const lines = functionLines('route', 15);
    const inserted = 3;
    const file: ChangedFile = {
      path: 'src/route.js',
      status: 'modified',
      additions: 1,
      deletions: 0,
      patch: [
        `@@ -1,${lines.length - 1} +1,${lines.length} @@`,
        ...lines.map((l, i) => (i === inserted ? `+${l}` : ` ${l}`)),
      ].join('\n'),
      content: `${lines.join('\n')}\n`,
    };
    expect(complexComments(file)).toEqual([]);
  });

  it('a function whose body the change rewrote (half its lines) gets one, on the first added line', () => {
    const lines = functionLines('route', 15);
    // Lines 2..10 of 18 (the `if`s) rewritten: half of the function, its first line unchanged.
    const found = complexComments(modifiedFile(lines, (i) => i >= 1 && i <= 9));
    expect(found.map((f) => [f.line, f.severity])).toEqual([[2, 'info']]);
  });

  it('one whose body it changed below half (8 of 18 lines) gets none', () => {
    const lines = functionLines('route', 15);
    expect(complexComments(modifiedFile(lines, (i) => i >= 1 && i <= 8))).toEqual([]);
  });

  it('a complex function in a test file gets none: the comment is for production code', () => {
    expect(complexComments(addedFile('test/route.test.js', functionLines('route', 15)))).toEqual([]);
  });
});
