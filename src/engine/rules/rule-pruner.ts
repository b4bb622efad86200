import type { Query } from './ast-grep.js';
import type { RuleObject } from './map-rule.js';
import { pruneRegex } from './prune-regex.js';
import { type AnchorGroups, type AnchorText, patternRequirement } from './rule-anchors.js';

/** A rule that matches nothing (an empty `any`), and one that matches everything. */
const NEVER = (): RuleObject => ({ any: [] });
const ALWAYS = (): RuleObject => ({ not: { any: [] } });

function isAlways(rule: RuleObject): boolean {
  const keys = Object.keys(rule);
  if (keys.length !== 1 || keys[0] !== 'not') return false;
  const inner = rule.not as RuleObject;
  return Object.keys(inner).length === 1 && Array.isArray(inner.any) && inner.any.length === 0;
}

const RELATIONAL = new Set(['inside', 'has', 'precedes', 'follows']);

/** Each pattern's words, derived once (patterns are immutable once loaded). */
const PATTERN_WORDS = new Map<string, AnchorGroups>();

function patternWords(pattern: string): AnchorGroups {
  let words = PATTERN_WORDS.get(pattern);
  if (words === undefined) {
    words = patternRequirement(pattern);
    PATTERN_WORDS.set(pattern, words);
  }
  return words;
}

/**
 * Rules specialised to one source text: every regex pruned to the alternatives that can match in
 * it (prune-regex.ts), every pattern whose words are not all in it made false, and what can then
 * never match removed. Smaller queries compile faster, and a rule that cannot match in the file is
 * not compiled at all.
 *
 * Why the matches stay the same: a regex that cannot match any slice of the source is false on
 * every node of the file (so is a pattern that needs a word the source lacks), and the simplifications are those of logic, which ast-grep's matching
 * follows: an object (a conjunction) with a false key is false; an `any` alternative that is false
 * fails without binding anything, so dropping it changes nothing; `not` of false is true and binds
 * nothing, so the key can go; a relation (`has`, `inside`, ...) whose sub-rule is false finds
 * nothing; `matches` of a false utility rule is false. A `stopBy` rule that is false never stops
 * the search, exactly as before. `null` stands for false.
 */
export class RulePruner {
  readonly #regexes = new Map<string, string | null>();
  readonly #utils = new Map<string, { rule: RuleObject | null; uses: ReadonlySet<string> }>();

  /** `utils`: the library's utility rules, which the rules refer to with `matches`. */
  constructor(
    readonly text: AnchorText,
    readonly utils: ReadonlyMap<string, RuleObject>,
  ) {}

  #regex(regex: string): string | null {
    let pruned = this.#regexes.get(regex);
    if (pruned === undefined && !this.#regexes.has(regex)) {
      const result = pruneRegex(regex, (text, ci) => this.text.contains(text, ci));
      pruned = result === undefined ? regex : result;
      this.#regexes.set(regex, pruned);
    }
    return pruned ?? null;
  }

  /** The utility rule `id` pruned, with the utility rules it refers to (transitively). */
  util(id: string): { rule: RuleObject | null; uses: ReadonlySet<string> } {
    let pruned = this.#utils.get(id);
    if (pruned === undefined) {
      const uses = new Set<string>();
      const body = this.utils.get(id);
      pruned = { rule: body === undefined ? null : this.rule(body, uses), uses };
      this.#utils.set(id, pruned);
    }
    return pruned;
  }

  /** A rule object pruned (`null`: it can match nothing here); the utility rules it refers to go in `uses`. */
  rule(rule: RuleObject, uses: Set<string>): RuleObject | null {
    const out: RuleObject = {};
    for (const [key, value] of Object.entries(rule)) {
      if (key === 'regex') {
        const regex = this.#regex(value as string);
        if (regex === null) return null;
        out.regex = regex;
      } else if (key === 'pattern') {
        // The pattern's identifiers and keywords must all be in the text of a node it matches
        // (the reasoning of the rule-level prefilter, rule-anchors.ts).
        if (typeof value === 'string' && !this.text.satisfies(patternWords(value))) return null;
        out.pattern = value;
      } else if (key === 'all') {
        const items: RuleObject[] = [];
        for (const item of value as RuleObject[]) {
          const pruned = this.rule(item, uses);
          if (pruned === null) return null;
          if (!isAlways(pruned)) items.push(pruned);
        }
        if (items.length > 0) out.all = items;
      } else if (key === 'any') {
        const items: RuleObject[] = [];
        for (const item of value as RuleObject[]) {
          const pruned = this.rule(item, uses);
          if (pruned !== null) items.push(pruned);
        }
        if (items.length === 0) return null;
        out.any = items;
      } else if (key === 'not') {
        const pruned = this.rule(value as RuleObject, uses);
        if (pruned !== null) {
          if (isAlways(pruned)) return null;
          out.not = pruned;
        }
      } else if (key === 'matches') {
        const util = this.util(value as string);
        if (util.rule === null) return null;
        uses.add(value as string);
        for (const u of util.uses) uses.add(u);
        out.matches = value;
      } else if (RELATIONAL.has(key)) {
        const { stopBy, field, ...sub } = value as RuleObject;
        const pruned = this.rule(sub, uses);
        if (pruned === null) return null;
        const relation: RuleObject = {};
        if (typeof stopBy === 'object' && stopBy !== null) {
          relation.stopBy = this.rule(stopBy as RuleObject, uses) ?? NEVER();
        } else if (stopBy !== undefined) relation.stopBy = stopBy;
        if (field !== undefined) relation.field = field;
        out[key] = { ...relation, ...pruned };
      } else out[key] = value;
    }
    return Object.keys(out).length === 0 ? ALWAYS() : out;
  }

  /** A whole query pruned; `null` when its rule can match nothing here. A false constraint stays, as never. */
  query(query: Query): Query | null {
    const uses = new Set<string>();
    const rule = this.rule(query.rule, uses);
    if (rule === null) return null;
    const constraints =
      query.constraints &&
      Object.fromEntries(
        Object.entries(query.constraints).map(([k, v]) => [k, this.rule(v as RuleObject, uses) ?? NEVER()]),
      );
    return { rule, constraints, utils: query.utils };
  }
}
