import { describe, expect, it } from 'vitest';
import { buildLlmPrompt, MAX_PROMPT_CHARS } from '../../src/engine/llm/build-llm-prompt.js';
import { llmFindings, parseLlmReview } from '../../src/engine/llm/merge-llm-review.js';
import type { Finding } from '../../src/engine/types.js';

const added = new Map([
  ['src/a.ts', new Map([[10, '  const total = items.reduce((s, i) => s + i.price, 0)']])],
  ['src/b.py', new Map([[3, 'query = "SELECT * FROM t WHERE id=" + user_id']])],
]);
const lineText = (file: string, line: number) => added.get(file)?.get(line);

const rule: Finding = {
  type: 'security',
  severity: 'critical',
  message: 'SQL built by concatenation.',
  file: 'src/b.py',
  line: 3,
  ruleId: 'py.sql-injection',
  fingerprint: 'f',
};

describe('the language model as an extra reviewer', () => {
  it('keeps comments on added lines, drops those outside the diff and repeats of a rule', () => {
    const outcome = parseLlmReview(
      JSON.stringify({
        summary: 'Adds a price total and a lookup.',
        comments: [
          {
            file: 'src/a.ts',
            line: 10,
            type: 'bug',
            severity: 'warning',
            message: 'Prices in floating point lose cents.',
          },
          {
            file: 'src/a.ts',
            line: 11,
            type: 'bug',
            severity: 'warning',
            message: 'This line is not part of the change.',
          },
          {
            file: 'src/b.py',
            line: 3,
            type: 'security',
            severity: 'critical',
            message: 'Repeats the SQL rule finding.',
          },
          { file: 'nope.ts', line: 1, type: 'style', severity: 'info', message: 'A file that is not in the change.' },
        ],
      }),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const findings = llmFindings(outcome.review, [rule], lineText);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      file: 'src/a.ts',
      line: 10,
      type: 'bug',
      severity: 'warning',
      ruleId: 'llm.bug',
    });
    expect(findings[0]?.codeSnippet).toBe('const total = items.reduce((s, i) => s + i.price, 0)');
  });

  it('reads JSON in a code fence, and refuses what is not the promised shape', () => {
    expect(parseLlmReview('```json\n{"summary":"s","comments":[]}\n```')).toEqual({
      ok: true,
      review: { summary: 's', comments: [] },
    });
    expect(parseLlmReview('Sure! Here is my review.')).toEqual({
      ok: false,
      warning: 'the language model answered something that is not JSON',
    });
    const wrong = parseLlmReview(JSON.stringify({ summary: 's', comments: [{ file: 'a', line: 0 }] }));
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.warning).toMatch(/^the language model's answer is invalid \(comments\.0\.line: /);
  });

  it('puts the diff and the known findings in the prompt, within its budget', () => {
    const files = [
      {
        path: 'src/a.ts',
        status: 'modified' as const,
        additions: 1,
        deletions: 0,
        patch: '@@ -9,0 +10 @@\n+const x = 1',
      },
      {
        path: 'big.ts',
        status: 'added' as const,
        additions: 1,
        deletions: 0,
        patch: `@@ -0,0 +1 @@\n+${'x'.repeat(MAX_PROMPT_CHARS)}`,
      },
    ];
    const [system, user] = buildLlmPrompt(files, [rule]);
    expect(system?.role).toBe('system');
    expect(user?.content).toContain('--- src/a.ts\n@@ -9,0 +10 @@\n+const x = 1');
    expect(user?.content).not.toContain('big.ts');
    expect(user?.content).toContain('- src/b.py:3 critical security: SQL built by concatenation.');
  });
});
