import type { RuleObject } from './map-rule.js';

/**
 * A rule object with its conditions in an order that is cheaper to evaluate, and the same matches.
 *
 * ast-grep checks the keys of a rule object in a fixed order: `pattern`, `kind`, `regex` (and
 * `nthChild`), then `all`, `any`, `not`, `matches`, then `inside`, `has`, `precedes`, `follows`,
 * stopping at the first that fails. So `{ kind: call_expression, has: { field: function, ... },
 * not: { inside: { stopBy: end, ... } } }` walks up to the root for every call of the file before
 * looking at the callee, which would have ruled out nearly all of them.
 *
 * Why reordering keeps the matches: a rule object is the conjunction of its keys, and the items of
 * `all` are evaluated in order too. A condition without metavariables ("pure") neither reads nor
 * binds any, so its result does not depend on when it runs and it changes nothing for the others:
 * pure conditions may move freely, while the others keep their order among themselves, so that
 * every metavariable is bound by the same condition as before. The atomic keys stay where they
 * are (first). Sub-rules are expected to be reordered already (the caller maps innermost first).
 */
const ATOMIC = ['pattern', 'kind', 'regex', 'nthChild'];
/** ast-grep's order of the other keys (after the atomic ones). */
const ORDER = ['all', 'any', 'not', 'matches', 'inside', 'has', 'precedes', 'follows'];
const RELATIONAL = new Set(['inside', 'has', 'precedes', 'follows']);

/** Whether the condition uses no metavariable: a `$` in any of its patterns makes it impure. */
function isPure(condition: unknown): boolean {
  if (Array.isArray(condition)) return condition.every(isPure);
  if (typeof condition !== 'object' || condition === null) return true;
  for (const [key, value] of Object.entries(condition)) {
    if (key === 'pattern' && (typeof value !== 'string' || value.includes('$'))) return false;
    if (key === 'matches') return false;
    if (!isPure(value)) return false;
  }
  return true;
}

/**
 * A rough cost of evaluating a condition on one node: only the order it gives matters. A kind is
 * an integer comparison; a regex reads the node's text; `inside`, `follows` and `precedes` need
 * the parent (tree-sitter finds it from the root down); a search that may visit the whole subtree
 * or every ancestor (`stopBy` other than `neighbor`) costs most. A field is one child lookup.
 */
function costOf(condition: unknown): number {
  if (Array.isArray(condition)) return condition.reduce((sum: number, item) => sum + costOf(item), 0);
  if (typeof condition !== 'object' || condition === null) return 0;
  let cost = 0;
  for (const [key, value] of Object.entries(condition as RuleObject)) {
    if (key === 'kind') cost += 0.5;
    else if (key === 'nthChild') cost += 1;
    else if (key === 'pattern') cost += 2;
    else if (key === 'regex') cost += 4;
    else if (key === 'all' || key === 'any' || key === 'not') cost += costOf(value);
    else if (key === 'matches') cost += 10;
    else if (RELATIONAL.has(key)) {
      const relation = value as RuleObject;
      const inner = costOf(
        Object.fromEntries(Object.entries(relation).filter(([k]) => k !== 'stopBy' && k !== 'field')),
      );
      const far = relation.stopBy !== undefined && relation.stopBy !== 'neighbor';
      if (key === 'has') cost += far ? 60 + 8 * inner : relation.field !== undefined ? 2 + inner : 6 + 3 * inner;
      else if (key === 'inside') cost += far ? 30 + 4 * inner : 10 + inner;
      else cost += far ? 40 + 6 * inner : 10 + inner;
    }
  }
  return cost;
}

export function cheapFirst(rule: RuleObject): RuleObject {
  // The conditions after the atomic keys, in ast-grep's order, `all` items flattened.
  const conditions: RuleObject[] = [];
  for (const key of ORDER) {
    const value = rule[key];
    if (value === undefined) continue;
    if (key === 'all' && Array.isArray(value)) conditions.push(...(value as RuleObject[]));
    else conditions.push({ [key]: value });
  }
  if (conditions.length < 2) return rule;
  // Merge: pure conditions cheapest first, each placed before the first impure one that costs more.
  const pure = conditions.filter(isPure).sort((a, b) => costOf(a) - costOf(b));
  const impure = conditions.filter((c) => !isPure(c));
  const ordered: RuleObject[] = [];
  let p = 0;
  for (const condition of impure) {
    const cost = costOf(condition);
    while (p < pure.length && costOf(pure[p]) <= cost) ordered.push(pure[p++] as RuleObject);
    ordered.push(condition);
  }
  ordered.push(...pure.slice(p));
  if (ordered.every((c, i) => c === conditions[i])) return rule;
  const out: RuleObject = {};
  for (const key of ATOMIC) if (rule[key] !== undefined) out[key] = rule[key];
  out.all = ordered;
  return out;
}
