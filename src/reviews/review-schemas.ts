import { z } from 'zod';
import { SEVERITIES } from '../common/severity.js';
import { FINDING_TYPES } from '../engine/finding-types.js';
import { PUBLICATIONS } from './review-publication.js';

const severityCounts = z.object({
  critical: z.number().int(),
  important: z.number().int(),
  warning: z.number().int(),
  suggestion: z.number().int(),
});

export const reviewSchema = z.object({
  id: z.string().describe('Prefix rev_.'),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']),
  score: z.number().int().nullable().describe('0-100 once completed; null before.'),
  summary: z.string().nullable(),
  pull_request: z.object({
    url: z.string(),
    number: z.number().int(),
    title: z.string(),
    repository: z.string().describe('owner/name'),
    branch: z.string(),
    author: z.string(),
  }),
  stats: z
    .object({
      files_changed: z.number().int(),
      lines_added: z.number().int(),
      lines_deleted: z.number().int(),
      comments_count: z.number().int(),
      issues: severityCounts,
    })
    .nullable()
    .describe('Null until the review completes.'),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  organization_id: z.string(),
  team_id: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe('Why a failed review failed.'),
  publication: z
    .enum(PUBLICATIONS)
    .describe(
      'Whether the GitHub App posted the review to the pull request: pending while it may still, published once it did, unpublished when it will not (decisions §20).',
    ),
});

export const createdReviewSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'in_progress']),
  pull_request: z.object({ url: z.string(), number: z.number().int() }),
  created_at: z.string(),
});

export const reviewStatusSchema = z.object({ id: z.string(), status: reviewSchema.shape.status });

export const commentSchema = z.object({
  id: z.string().describe('Prefix cmt_.'),
  type: z.enum(FINDING_TYPES),
  severity: z.enum(SEVERITIES),
  message: z.string(),
  file: z.string(),
  line: z.number().int(),
  rule_id: z.string().describe('The rule that found it.'),
  fingerprint: z
    .string()
    .describe('Stable across pushes: the same problem on the same code has the same one (decisions §20).'),
  suggestion: z.string().optional(),
  code_snippet: z.string().optional(),
});

export const statisticsSchema = z.object({
  files_analyzed: z.number().int(),
  lines_analyzed: z.number().int(),
  complexity_avg: z.number(),
  test_coverage: z.number().int().describe('Percentage of changed source files whose change comes with a test change.'),
  issues_by_type: z.object({
    security: z.number().int(),
    performance: z.number().int(),
    style: z.number().int(),
    bug: z.number().int(),
    suggestion: z.number().int(),
  }),
  issues_by_severity: z.object({
    critical: z.number().int(),
    important: z.number().int(),
    warning: z.number().int(),
    info: z.number().int(),
  }),
  processing_time_ms: z.number().int(),
  tokens_used: z.number().int(),
});

export const createReviewBody = z.strictObject({
  pull_request_url: z.string().max(2048),
  auto_review: z.boolean().optional(),
  inline_comments: z.boolean().optional(),
  check_security: z.boolean().optional(),
  check_performance: z.boolean().optional(),
  team_id: z.string().max(100).optional(),
});

const timestamp = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}/.test(v), 'must be an ISO 8601 timestamp')
  .transform((v) => new Date(v));

export const SORTS = ['created_at', '-created_at', 'score', '-score', 'completed_at', '-completed_at'] as const;

export const listReviewsQuery = z.object({
  limit: z.coerce
    .number({ message: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(100, 'must be a whole number from 1 to 100')
    .default(25),
  after: z.string().max(100).optional(),
  before: z.string().max(100).optional(),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']).optional(),
  team_id: z.string().max(100).optional(),
  repository: z
    .string()
    .regex(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/, 'must be owner/name')
    .optional(),
  created_after: timestamp.optional(),
  created_before: timestamp.optional(),
  sort: z.enum(SORTS, { message: `must be one of ${SORTS.join(', ')}` }).default('-created_at'),
});

export type ListReviewsQuery = z.infer<typeof listReviewsQuery>;
