import type { Insertable } from 'kysely';
import { newId } from '../../src/common/ids.js';
import type { ReviewsTable } from '../../src/db/schema.js';

/**
 * A `reviews` row as the review service stores one, for a test that sets reviews up in the
 * database directly (a quota window, a state the API reaches only through GitHub or a worker).
 * The test says whose it is and when it was made; `fields` holds what the test is about. The
 * pull request and options are a plain default; the URL follows `repository` and `pr_number`.
 */
export function reviewRow(
  owner: { userId: string; organizationId: string },
  createdAt: Date,
  fields: Partial<Insertable<ReviewsTable>> = {},
): Insertable<ReviewsTable> {
  const repository = fields.repository ?? 'acme/shop';
  const prNumber = fields.pr_number ?? 7;
  return {
    id: newId('rev'),
    user_id: owner.userId,
    organization_id: owner.organizationId,
    mode: 'live',
    status: 'pending',
    pr_url: `https://github.com/${repository}/pull/${prNumber}`,
    pr_number: prNumber,
    pr_title: 'A pull request',
    repository,
    repository_id: '123',
    branch: 'main',
    author: 'someone',
    head_sha: null,
    options: JSON.stringify({
      auto_review: true,
      inline_comments: true,
      check_security: true,
      check_performance: true,
    }),
    created_at: createdAt,
    updated_at: createdAt,
    ...fields,
  };
}
