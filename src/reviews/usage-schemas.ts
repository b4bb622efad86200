import { z } from 'zod';
import { listReviewsQuery } from './review-schemas.js';

const DAYS_ISSUE = 'must be a whole number from 1 to 90';

/** GET /v1/usage: the window in days and the review list's own filters, validated the same way. */
export const usageQuery = z.object({
  days: z.coerce
    .number({ message: DAYS_ISSUE })
    .int(DAYS_ISSUE)
    .min(1, DAYS_ISSUE)
    .max(90, DAYS_ISSUE)
    .default(30)
    .describe('How many UTC days, today included: 1 to 90 (default 30).'),
  organization_id: z.string().max(100).optional(),
  team_id: listReviewsQuery.shape.team_id,
  repository: listReviewsQuery.shape.repository,
});

export type UsageQuery = z.infer<typeof usageQuery>;

const count = z.number().int();

export const usageSchema = z.object({
  from: z.string().describe('ISO 8601: 00:00 UTC of the first day.'),
  until: z.string().describe('ISO 8601: the moment of the answer, the end of the window.'),
  days: z
    .array(
      z.object({
        date: z.string().describe('YYYY-MM-DD (UTC).'),
        created: count,
        completed: count.describe('Of the reviews created that day, how many are completed now.'),
        failed: count.describe('Of the reviews created that day, how many are failed now.'),
      }),
    )
    .describe('One entry per day, oldest first; days without reviews are zeros.'),
  scores: z
    .array(z.object({ min: count, max: count, count }))
    .describe("Ten buckets of the completed reviews' scores: 0-9, 10-19, ..., 90-100."),
  total: z.object({
    created: count,
    completed: count,
    failed: count,
    average_score: z.number().nullable().describe('Of the completed reviews, to one decimal; null when none.'),
  }),
});

export type Usage = z.infer<typeof usageSchema>;
