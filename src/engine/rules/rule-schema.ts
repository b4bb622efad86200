import { z } from 'zod';
import { SEVERITIES } from '../../common/severity.js';
import { FINDING_TYPES } from '../finding-types.js';

/**
 * A rule is data: validated at load, so a malformed pack fails at start, not mid-review. `rule`
 * is an ast-grep rule object (pattern, kind, has, inside, not, any, all, regex, ...), matched on
 * the file's syntax tree; a finding is reported only when the match touches an added line.
 */
export const ruleSchema = z
  .object({
    id: z.string().regex(/^[a-z]+\.[a-z0-9-]+$/, 'must look like <pack>.<name>, e.g. js.eval'),
    languages: z.array(z.enum(['javascript', 'typescript', 'python', 'go', 'java', 'ruby'])).min(1),
    type: z.enum(FINDING_TYPES),
    severity: z.enum(SEVERITIES),
    /** What is wrong and why, in one or two sentences. */
    message: z.string().min(20),
    /** ast-grep rule (https://ast-grep.github.io/reference/rule.html). */
    rule: z.record(z.string(), z.unknown()),
    constraints: z.record(z.string(), z.unknown()).optional(),
    /** Replacement for the matched node, with $METAVARS: rendered as a GitHub suggestion. */
    fix: z.string().optional(),
    /** Required for security rules. */
    cwe: z
      .string()
      .regex(/^CWE-\d+$/)
      .optional(),
    cvss: z.number().min(0).max(10).optional(),
  })
  .refine((r) => r.type !== 'security' || r.cwe !== undefined, { message: 'security rules need a cwe', path: ['cwe'] });

export type Rule = z.infer<typeof ruleSchema>;
