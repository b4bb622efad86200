/** An ast-grep rule object (`pattern`, `kind`, `regex`, `has`, `all`, ...), as the packs write it. */
export type RuleObject = Record<string, unknown>;

const ATOMIC = new Set(['pattern', 'kind', 'regex', 'nthChild']);
const RELATIONAL = new Set(['has', 'inside', 'follows', 'precedes']);

function isObject(value: unknown): value is RuleObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `fn` applied to every rule object of a rule, innermost first: the rule itself, the items of
 * `all` and `any`, `not`, the sub-rule of `has`/`inside`/`follows`/`precedes` (their `stopBy` and
 * `field` stay on the relation) and a `stopBy` rule. `fn` gets the object with its sub-rules
 * already mapped.
 *
 * Undefined when the rule holds anything else (a pattern object, `nthChild.ofRule`, `matches`,
 * `range`, an unknown key): a caller that rewrites rules must then leave the rule as it is, since
 * it cannot tell which strings of it are patterns.
 */
export function mapRule(rule: unknown, fn: (rule: RuleObject) => RuleObject): RuleObject | undefined {
  if (!isObject(rule)) return undefined;
  const out: RuleObject = {};
  for (const [key, value] of Object.entries(rule)) {
    if (ATOMIC.has(key)) {
      if (typeof value !== 'string' && !(key === 'nthChild' && typeof value === 'number')) return undefined;
      out[key] = value;
    } else if (key === 'all' || key === 'any') {
      if (!Array.isArray(value)) return undefined;
      const items: RuleObject[] = [];
      for (const item of value) {
        const mapped = mapRule(item, fn);
        if (mapped === undefined) return undefined;
        items.push(mapped);
      }
      out[key] = items;
    } else if (key === 'not') {
      const mapped = mapRule(value, fn);
      if (mapped === undefined) return undefined;
      out[key] = mapped;
    } else if (RELATIONAL.has(key)) {
      if (!isObject(value)) return undefined;
      const { stopBy, field, ...sub } = value;
      const relation: RuleObject = {};
      if (stopBy !== undefined) {
        if (stopBy === 'end' || stopBy === 'neighbor') relation.stopBy = stopBy;
        else {
          const mapped = mapRule(stopBy, fn);
          if (mapped === undefined) return undefined;
          relation.stopBy = mapped;
        }
      }
      if (field !== undefined) {
        if (typeof field !== 'string') return undefined;
        relation.field = field;
      }
      const mapped = mapRule(sub, fn);
      if (mapped === undefined) return undefined;
      out[key] = { ...relation, ...mapped };
    } else return undefined;
  }
  return fn(out);
}
