import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/engine/review-change.js';
import { planReview } from '../../src/github/plan-review.js';
import { defaultRepositoryConfig } from '../../src/github/repository-config.js';
import {
  CREATE_CHECK,
  firstRunScript,
  HEAD_1,
  recorder,
  reviewRun,
  SQL_ANNOTATION,
  SQL_COMMENT,
  useNockOnly,
} from './publish-review-harness.js';
import { COMMENTABLE, FILES, SQL_INJECTION } from './review-fixtures.js';

useNockOnly();

describe('a pull request with a critical problem', () => {
  it('gets REQUEST_CHANGES with the inline comment on its line, and a failing check run', async () => {
    const { sent, keep } = recorder();
    const scope = firstRunScript(keep, 77, { id: 901, state: 'CHANGES_REQUESTED' });

    const { review, check } = await reviewRun({
      head: HEAD_1,
      findings: [SQL_INJECTION],
      summary: 'Adds a lookup of users by id.',
    });

    scope.done();
    expect(sent.create).toEqual([CREATE_CHECK(HEAD_1)]);
    expect(sent.review).toEqual([
      {
        commit_id: HEAD_1,
        event: 'REQUEST_CHANGES',
        body: '**Redline** found 1 problem (1 critical).\n\nAdds a lookup of users by id.',
        comments: [SQL_COMMENT],
      },
    ]);
    expect(sent.complete).toEqual([
      {
        status: 'completed',
        conclusion: 'failure',
        completed_at: '2030-01-02T03:04:09.250Z',
        output: {
          title: 'Found 1 problem (1 critical)',
          summary: '**Redline** found 1 problem (1 critical): changes requested.\n\nAdds a lookup of users by id.',
          annotations: [SQL_ANNOTATION],
        },
      },
    ]);
    expect(review).toEqual({ reviewId: 901, event: 'REQUEST_CHANGES', inlineComments: 1, fallback: false });
    expect(check).toEqual({ conclusion: 'failure', annotations: 1, failedAnnotations: 0 });
  });

  it('found by the engine in a real change, is commented on the line that has it', async () => {
    const result = reviewChange(
      { files: FILES.map((f) => ({ ...f, additions: 3, deletions: 0 })) },
      { checkSecurity: true, checkPerformance: true },
    );
    const plan = planReview({
      findings: result.findings,
      commentable: COMMENTABLE,
      config: defaultRepositoryConfig(),
      posted: new Set(),
    });
    expect(plan.event).toBe('REQUEST_CHANGES');
    expect(plan.comments.map((c) => [c.path, c.line, c.side])).toContainEqual(['src/users.ts', 12, 'RIGHT']);
    const sql = plan.comments.find((c) => c.line === 12);
    expect(sql?.body).toMatch(/^\*\*critical\*\* · security · `js\.sql-injection`/);
  });
});

describe('a clean pull request', () => {
  it('gets APPROVE and a successful check run', async () => {
    const { sent, keep } = recorder();
    const scope = firstRunScript(keep, 78, { id: 902, state: 'APPROVED' });

    const { review, check } = await reviewRun({ head: HEAD_1, findings: [], summary: 'Renames a variable.' });

    scope.done();
    expect(sent.review).toEqual([
      {
        commit_id: HEAD_1,
        event: 'APPROVE',
        body: '**Redline** found no problems.\n\nRenames a variable.',
        comments: [],
      },
    ]);
    expect(sent.complete).toEqual([
      {
        status: 'completed',
        conclusion: 'success',
        completed_at: '2030-01-02T03:04:09.250Z',
        output: {
          title: 'Found no problems',
          summary: '**Redline** found no problems: approved.\n\nRenames a variable.',
        },
      },
    ]);
    expect(review.event).toBe('APPROVE');
    expect(check).toEqual({ conclusion: 'success', annotations: 0, failedAnnotations: 0 });
  });
});
