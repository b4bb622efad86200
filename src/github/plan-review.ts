import {
  buildReviewPlan,
  type ReviewFinding,
  type ReviewPlan,
  type ReviewPlanInput,
} from '../common/github-review/build-review-plan.js';
import { atOrAbove } from '../common/severity.js';
import type { Finding } from '../engine/types.js';
import { compileGlob } from './compile-glob.js';
import type { RepositoryConfig } from './repository-config.js';

/** A finding as the App has it: the engine's finding types, which the configuration's `checks` name. */
export type AppReviewFinding = ReviewFinding & Pick<Finding, 'type'>;

/** The configuration's filter: checks per type, min_severity, ignore_rules, paths. */
function keptBy(config: RepositoryConfig): (f: AppReviewFinding) => boolean {
  const ignored = config.ignore_rules.map(compileGlob);
  const included = config.paths.include.map(compileGlob);
  const excluded = config.paths.exclude.map(compileGlob);
  return (f) =>
    config.checks[f.type] &&
    atOrAbove(f.severity, config.min_severity) &&
    !ignored.some((matches) => matches(f.ruleId)) &&
    (included.length === 0 || included.some((matches) => matches(f.file))) &&
    !excluded.some((matches) => matches(f.file));
}

/**
 * The App's review plan: the repository configuration's filter (findings it drops are gone, from
 * the verdict too), then the plan every Redline review is published by (buildReviewPlan) under
 * the configuration's gate.
 */
export function planReview<F extends AppReviewFinding>(
  input: Omit<ReviewPlanInput<F>, 'gate' | 'listedIn'> & { config: RepositoryConfig },
): ReviewPlan<F> {
  const { config, ...rest } = input;
  return buildReviewPlan({
    ...rest,
    findings: input.findings.filter(keptBy(config)),
    gate: config,
    listedIn: 'annotated in the Redline check run',
  });
}
