import { z } from 'zod';
import { SEVERITIES } from '../../common/severity.js';
import { FINDING_TYPES } from '../finding-types.js';

/** What we ask the model to answer, validated before a word of it is used. */
export const llmReviewSchema = z.object({
  summary: z.string().min(1).max(2000),
  comments: z
    .array(
      z.object({
        file: z.string().min(1).max(1000),
        line: z.number().int().positive(),
        type: z.enum(FINDING_TYPES),
        severity: z.enum(SEVERITIES),
        message: z.string().min(10).max(2000),
        suggestion: z.string().max(2000).optional(),
      }),
    )
    .max(50),
});

export type LlmReview = z.infer<typeof llmReviewSchema>;
