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
        severity: 'warning',
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
});
