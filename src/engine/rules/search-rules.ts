import type { SgNode } from '@ast-grep/napi';
import { findAll, type Query } from './ast-grep.js';
import { type CombinedPlan, combinedQuery } from './combined-query.js';
import type { AnchorText } from './rule-anchors.js';
import type { RuleLibrary } from './rule-library.js';
import { RulePruner } from './rule-pruner.js';
import type { Rule } from './rule-schema.js';

/** What one rule matched: the nodes in tree order, and the prefix its metavariables carry on them. */
export interface RuleNodes {
  nodes: SgNode[];
  /** Pass to `renderFix`/`suggestionFor`: the rule's `$A` is the node's `$<prefix>A` (prefix-metavars.ts). */
  prefix: string;
}

export interface SearchRulesInput {
  /** The parsed text: regexes are pruned to what can match in it. */
  text: AnchorText;
  /** The library of the rule list `rules` belong to, for the file's language and ASCII-ness (`ruleLibrary`). */
  library: RuleLibrary;
  /** Told when the combined query failed and the rules were searched one by one (tests assert it never is). */
  onFallback?: ((error: unknown) => void) | undefined;
}

function safeFind(root: SgNode, query: Query | null): SgNode[] {
  if (query === null) return [];
  try {
    return findAll(root, query);
  } catch {
    // A rule ast-grep cannot compile for this grammar finds nothing rather than failing the review.
    return [];
  }
}

/**
 * The nodes each rule matches in the tree, exactly as searching each rule alone would find them,
 * in far fewer searches: every rule the library can combine goes into one query (combined-query.ts),
 * the others get one query each; all of them pruned to the source text first (rule-pruner.ts). A
 * rule with constraints is combined without them (a superset): only when that finds something is
 * the rule searched alone, with its constraints. Should the combined query fail, each rule is
 * searched alone as written. A rule that does not compile for the grammar finds nothing.
 */
export function searchRules(root: SgNode, rules: readonly Rule[], input: SearchRulesInput): Map<Rule, RuleNodes> {
  const { library } = input;
  const pruner = new RulePruner(input.text, library.utils);
  const found = new Map<Rule, RuleNodes>();
  const combined: { rule: Rule; plan: CombinedPlan }[] = [];
  const utils: Record<string, unknown> = {};
  for (const rule of rules) {
    found.set(rule, { nodes: [], prefix: '' });
    const plan = library.plans.get(rule);
    if (plan === undefined || plan.mode === 'never') continue;
    if (plan.mode === 'alone') {
      found.set(rule, { nodes: safeFind(root, pruner.query(plan.query)), prefix: '' });
      continue;
    }
    const body = pruner.util(plan.util);
    if (body.rule === null) continue;
    utils[plan.util] = body.rule;
    for (const id of body.uses) utils[id] = pruner.util(id).rule;
    combined.push({ rule, plan });
  }
  if (combined.length === 0) return found;
  let nodes: SgNode[];
  try {
    nodes = findAll(
      root,
      combinedQuery(
        combined.map((c) => c.plan),
        utils,
      ),
    );
  } catch (error) {
    input.onFallback?.(error);
    for (const { rule } of combined) found.set(rule, { nodes: safeFind(root, rule), prefix: '' });
    return found;
  }
  const hits = new Map<Rule, SgNode[]>(combined.map(({ rule }) => [rule, []]));
  if (combined.length === 1) hits.set((combined[0] as { rule: Rule }).rule, nodes);
  else {
    for (const node of nodes) {
      for (const { rule, plan } of combined) {
        if (node.getMatch(plan.tag) !== null) hits.get(rule)?.push(node);
      }
    }
  }
  for (const { rule, plan } of combined) {
    const ruleHits = hits.get(rule) ?? [];
    if (plan.confirm === undefined) found.set(rule, { nodes: ruleHits, prefix: plan.prefix });
    else if (ruleHits.length > 0) found.set(rule, { nodes: safeFind(root, pruner.query(plan.confirm)), prefix: '' });
  }
  return found;
}
