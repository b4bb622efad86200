import type { Query } from './ast-grep.js';
import type { RulePlan } from './rule-library.js';

export type CombinedPlan = Extract<RulePlan, { mode: 'combined' }>;

/** The utility rule that is true on every node (an empty regex matches any text). */
const ALWAYS = 'always';

/**
 * One ast-grep query for several rules, and from each node it returns, which of the rules matched
 * it. Each rule is the utility rule `plan.util` of `utils` (which holds every utility rule they
 * refer to). The query is
 *
 *   all: [ any: [r1, r2, ...],  any: [all: [r1, $TAG1], always],  any: [all: [r2, $TAG2], always], ... ]
 *
 * The first item keeps exactly the nodes some rule matches (and lets ast-grep skip the others by
 * node kind); each following item is true on every node, and binds the rule's tag metavariable to
 * the node when the rule matches it. Rules never share a metavariable (prefix-metavars.ts) and
 * matching is deterministic, so a rule matched again in its own item binds what it bound in the
 * first; a node therefore carries the tag of every rule that matches it, and only of those. One
 * search of the tree and one compilation instead of one of each per rule. A single rule needs no
 * tag: every node found is its.
 */
export function combinedQuery(plans: readonly CombinedPlan[], utils: Record<string, unknown>): Query {
  if (plans.length === 1) return { rule: { matches: (plans[0] as CombinedPlan).util }, utils };
  return {
    rule: {
      all: [
        { any: plans.map((p) => ({ matches: p.util })) },
        ...plans.map((p) => ({ any: [{ all: [{ matches: p.util }, { pattern: `$${p.tag}` }] }, { matches: ALWAYS }] })),
      ],
    },
    utils: { ...utils, [ALWAYS]: { regex: '' } },
  };
}
