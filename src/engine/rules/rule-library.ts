import { createHash } from 'node:crypto';
import type { SgNode } from '@ast-grep/napi';
import { type Language, ruleLanguagesFor } from '../languages.js';
import { asciiRegex } from './ascii-regex.js';
import { findAll, parseSource, type Query } from './ast-grep.js';
import { cheapFirst } from './cheap-first.js';
import { compileKey, compileVerdicts } from './compile-verdicts.js';
import { libraryStore } from './library-store.js';
import { mapRule, type RuleObject } from './map-rule.js';
import { prefixMetavars } from './prefix-metavars.js';
import { type AnchorGroups, ruleAnchors } from './rule-anchors.js';
import type { Rule } from './rule-schema.js';

/**
 * How one rule is searched in the files of a language:
 * - `combined`: with the other combined rules of the file, in one ast-grep query, as the local
 *   utility rule `util` (its metavariables renamed with `prefix`; `tag` is the metavariable that
 *   marks the nodes it matched). With `confirm`,
 *   the body is the rule without its constraints, which a query applies to the whole query, so
 *   they cannot be shared: the body then only tells whether the rule can match in the file, and
 *   when it does, the rule is searched alone with `confirm`, its query as written;
 * - `alone`: in a query of its own, as written (a rule of a shape `mapRule` does not read);
 * - `never`: it does not compile for this grammar (a JSX kind in plain TypeScript) and finds nothing.
 */
export type RulePlan =
  | { mode: 'combined'; util: string; prefix: string; tag: string; confirm?: Query }
  | { mode: 'alone'; query: Query }
  | { mode: 'never' };

/** A sub-rule this long (as JSON) that occurs twice or more is compiled once, as a utility rule. */
const SHARE_MIN_LENGTH = 48;

const MARK = '#';

interface Body {
  rule: Rule;
  util: string;
  prefix: string;
  tag: string;
  body: RuleObject;
  confirm: Query | undefined;
}

function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as RuleObject).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A library as JSON, for a caller that keeps it between processes (library-store.ts); rules by index. */
export interface PreparedLibrary {
  plans: [number, RulePlan][];
  utils: [string, RuleObject][];
  anchors: [number, AnchorGroups][];
}

/**
 * The rules of one rule list prepared for one language, once per process: which rules compile,
 * each rule's body renamed for the combined query, and the sub-rules repeated across (or within)
 * rules made utility rules, so that one query compiles each of them once. A local utility rule is
 * matched with the caller's metavariable environment, exactly as if it were written inline. Each
 * rule's anchors (rule-anchors.ts) are derived here too, the other cost of a first review.
 *
 * `ascii`: the library for sources that are pure ASCII, whose regexes use ASCII classes
 * (ascii-regex.ts); a rule whose rewritten form does not compile keeps its original regexes.
 */
export class RuleLibrary {
  readonly plans = new Map<Rule, RulePlan>();
  /** Utility rules by id: every combined rule's body and every shared sub-rule. */
  readonly utils = new Map<string, RuleObject>();
  /** The anchors of each rule of the language (rules of other languages have none here). */
  readonly anchors = new Map<Rule, AnchorGroups>();

  private constructor(readonly rules: readonly Rule[]) {}

  static build(rules: readonly Rule[], language: Language, ascii: boolean): RuleLibrary {
    const library = new RuleLibrary(rules);
    const empty = parseSource(language, '').root();
    const families = ruleLanguagesFor(language);
    const bodies: Body[] = [];
    rules.forEach((rule, index) => {
      if (!rule.languages.some((l) => families.includes(l))) return;
      library.anchors.set(rule, ruleAnchors(rule.rule));
      const query = preparedQuery(rule, ascii, empty, language) ?? preparedQuery(rule, false, empty, language);
      if (query === undefined) {
        library.plans.set(rule, { mode: 'never' });
        return;
      }
      const prefix = `R${index}_`;
      // Without its constraints, the rule matches a superset of what it matches with them.
      const body = mapRule(query.rule, (o) =>
        typeof o.pattern === 'string' ? { ...o, pattern: prefixMetavars(o.pattern, prefix) } : o,
      );
      if (body === undefined || !compiles(empty, language, { rule: body })) {
        library.plans.set(rule, { mode: 'alone', query });
        return;
      }
      const confirm = query.constraints === undefined ? undefined : query;
      // Every renamed metavariable starts with `R<index>_` (or `_`): `TAG<index>` is never one of them.
      bodies.push({ rule, util: `r${index}`, prefix, tag: `TAG${index}`, body, confirm });
    });
    library.#share(bodies);
    return library;
  }

  /** The library as JSON (`restore` reads it back). */
  prepared(): PreparedLibrary {
    const index = new Map(this.rules.map((rule, i) => [rule, i]));
    const indexed = <T>(map: Map<Rule, T>): [number, T][] =>
      [...map].map(([rule, value]) => [index.get(rule) as number, value]);
    return { plans: indexed(this.plans), utils: [...this.utils], anchors: indexed(this.anchors) };
  }

  /**
   * The library `prepared()` gave for this rule list, read back; undefined when `value` is not
   * one (a damaged or foreign file): the caller builds the library instead.
   */
  static restore(rules: readonly Rule[], value: unknown): RuleLibrary | undefined {
    if (!isPreparedLibrary(value, rules.length)) return undefined;
    const library = new RuleLibrary(rules);
    for (const [i, plan] of value.plans) library.plans.set(rules[i] as Rule, plan);
    for (const [id, body] of value.utils) library.utils.set(id, body);
    for (const [i, anchors] of value.anchors) library.anchors.set(rules[i] as Rule, anchors);
    return library;
  }

  /**
   * Hash-conses the bodies' sub-rules (each distinct sub-rule gets a number; a parent is keyed by
   * its children's numbers), counts their occurrences, then writes each body back with the
   * repeated ones replaced by `matches: s<number>`.
   */
  #share(bodies: Body[]): void {
    const ids = new Map<string, number>();
    const forms: RuleObject[] = [];
    const counts: number[] = [];
    const roots = bodies.map(({ body }) =>
      mapRule(body, (o) => {
        const key = stableStringify(o);
        let id = ids.get(key);
        if (id === undefined) {
          id = forms.length;
          ids.set(key, id);
          forms.push(o);
          counts.push(0);
        }
        counts[id] = (counts[id] ?? 0) + 1;
        return { [MARK]: id };
      }),
    );
    const expanded = new Map<number, RuleObject>();
    const shared = new Map<number, boolean>();
    const written = new Map<number, RuleObject>();
    // `expand` writes a sub-rule out in full (to measure it), `write` with its shared parts as references.
    const expand = (id: number): RuleObject => {
      let out = expanded.get(id);
      if (out === undefined) {
        out = substitute(forms[id], expand);
        expanded.set(id, out);
      }
      return out;
    };
    const isShared = (id: number): boolean => {
      let out = shared.get(id);
      if (out === undefined) {
        out = (counts[id] ?? 0) >= 2 && stableStringify(expand(id)).length >= SHARE_MIN_LENGTH;
        shared.set(id, out);
      }
      return out;
    };
    const write = (id: number): RuleObject => {
      let out = written.get(id);
      if (out === undefined) {
        out = substitute(forms[id], (child) => {
          if (!isShared(child)) return write(child);
          const util = `s${child}`;
          if (!this.utils.has(util)) this.utils.set(util, write(child));
          return { matches: util };
        });
        written.set(id, out);
      }
      return out;
    };
    bodies.forEach(({ rule, util, prefix, tag, confirm }, i) => {
      // A whole body is never shared: each rule's metavariables have their own prefix anyway.
      this.utils.set(util, write((roots[i] as RuleObject)[MARK] as number));
      this.plans.set(rule, { mode: 'combined', util, prefix, tag, ...(confirm ? { confirm } : {}) });
    });
  }
}

/** `form` with every `{ "#": id }` marker replaced by `replace(id)`, keeping a relation's `stopBy`/`field`. */
function substitute(form: RuleObject | undefined, replace: (id: number) => RuleObject): RuleObject {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const object = value as RuleObject;
    if (MARK in object) {
      const { [MARK]: id, ...relation } = object;
      return { ...(visit(relation) as RuleObject), ...replace(id as number) };
    }
    const out: RuleObject = {};
    for (const [key, v] of Object.entries(object)) out[key] = visit(v);
    return out;
  };
  return visit(form ?? {}) as RuleObject;
}

/** Whether ast-grep compiles the query for the grammar of `empty` (an empty file of `language`). */
function compiles(empty: SgNode, language: Language, query: Query): boolean {
  const verdicts = compileVerdicts();
  const key = verdicts && compileKey(language, stableStringify(query));
  const known = key === undefined ? undefined : verdicts?.get(key);
  if (known !== undefined) return known;
  let ok = true;
  try {
    findAll(empty, query);
  } catch {
    ok = false;
  }
  if (key !== undefined) verdicts?.set(key, ok);
  return ok;
}

/**
 * A rule object rewritten for speed with the same matches: conditions reordered (cheap-first.ts)
 * and, for ASCII sources, regexes with ASCII classes (ascii-regex.ts). Undefined for a shape
 * `mapRule` does not read.
 */
const prepare = (rule: unknown, ascii: boolean): RuleObject | undefined =>
  mapRule(rule, (o) => cheapFirst(ascii && typeof o.regex === 'string' ? { ...o, regex: asciiRegex(o.regex) } : o));

/**
 * The rule's query prepared for speed (`prepare`), or as written when it cannot be (only for
 * Unicode sources: the caller falls back to those); undefined when it does not compile.
 */
function preparedQuery(rule: Rule, ascii: boolean, empty: SgNode, language: Language): Query | undefined {
  const body = prepare(rule.rule, ascii) ?? (ascii ? undefined : rule.rule);
  const constraints =
    rule.constraints &&
    Object.entries(rule.constraints).map(([k, v]) => [k, prepare(v, ascii) ?? (ascii ? undefined : v)] as const);
  if (body === undefined || constraints?.some(([, v]) => v === undefined)) return undefined;
  const query: Query = { rule: body, constraints: constraints && Object.fromEntries(constraints) };
  return compiles(empty, language, query) ? query : undefined;
}

/** Libraries by rule list, then by the store they were loaded through (or NO_STORE), then by language and ASCII flag. */
const LIBRARIES = new WeakMap<readonly Rule[], WeakMap<object, Map<string, RuleLibrary>>>();
const NO_STORE = {};
/** Each rule list's fingerprint, computed once (rule lists are immutable once loaded). */
const FINGERPRINTS = new WeakMap<readonly Rule[], string>();

/**
 * What a library is built from, hashed: the rule list (what the preparation reads of each rule),
 * the language and the ASCII flag. The preparation's own code is the caller's to key on
 * (library-store.ts).
 */
export function libraryKey(rules: readonly Rule[], language: Language, ascii: boolean): string {
  let fingerprint = FINGERPRINTS.get(rules);
  if (fingerprint === undefined) {
    const read = rules.map((r) => [r.id, r.languages, r.rule, r.constraints ?? null]);
    fingerprint = createHash('sha256').update(JSON.stringify(read)).digest('hex');
    FINGERPRINTS.set(rules, fingerprint);
  }
  return createHash('sha256')
    .update(`${fingerprint}\0${language}\0${ascii ? 'ascii' : 'unicode'}`)
    .digest('hex')
    .slice(0, 32);
}

/** A library kept by the caller's store when it has one for this key, else built (and handed to the store). */
function loadLibrary(rules: readonly Rule[], language: Language, ascii: boolean): RuleLibrary {
  const store = libraryStore();
  if (store === undefined) return RuleLibrary.build(rules, language, ascii);
  const key = libraryKey(rules, language, ascii);
  const kept = RuleLibrary.restore(rules, store.get(key));
  if (kept !== undefined) return kept;
  const library = RuleLibrary.build(rules, language, ascii);
  store.set(key, library.prepared());
  return library;
}

/**
 * The library of a rule list for a language, built on first use (rule lists are immutable once
 * loaded), or loaded from the store in use: once per store, so that each caller's store is asked.
 */
export function ruleLibrary(rules: readonly Rule[], language: Language, ascii: boolean): RuleLibrary {
  let byStore = LIBRARIES.get(rules);
  if (byStore === undefined) {
    byStore = new WeakMap();
    LIBRARIES.set(rules, byStore);
  }
  const store = libraryStore() ?? NO_STORE;
  let byLanguage = byStore.get(store);
  if (byLanguage === undefined) {
    byLanguage = new Map();
    byStore.set(store, byLanguage);
  }
  const key = `${language}:${ascii ? 'ascii' : 'unicode'}`;
  let library = byLanguage.get(key);
  if (library === undefined) {
    library = loadLibrary(rules, language, ascii);
    byLanguage.set(key, library);
  }
  return library;
}

// ------------------------------------------------------------------ reading a kept library back

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

function isQuery(v: unknown): v is Query {
  return (
    isObject(v) &&
    isObject(v.rule) &&
    (v.constraints === undefined || isObject(v.constraints)) &&
    (v.utils === undefined || isObject(v.utils))
  );
}

function isPlan(v: unknown): v is RulePlan {
  if (!isObject(v)) return false;
  if (v.mode === 'never') return true;
  if (v.mode === 'alone') return isQuery(v.query);
  return (
    v.mode === 'combined' &&
    isString(v.util) &&
    isString(v.prefix) &&
    isString(v.tag) &&
    (v.confirm === undefined || isQuery(v.confirm))
  );
}

const isAnchorGroups = (v: unknown): v is AnchorGroups =>
  Array.isArray(v) &&
  v.every(
    (group) => Array.isArray(group) && group.every((a) => isObject(a) && isString(a.text) && typeof a.ci === 'boolean'),
  );

/** `[index, value]` pairs whose index names one of `count` rules, each once, and whose value passes `ok`. */
function isIndexed<T>(v: unknown, count: number, ok: (value: unknown) => value is T): v is [number, T][] {
  if (!Array.isArray(v)) return false;
  const seen = new Set<number>();
  for (const pair of v) {
    if (!Array.isArray(pair) || pair.length !== 2 || !ok(pair[1])) return false;
    const index: unknown = pair[0];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index))
      return false;
    seen.add(index);
  }
  return true;
}

/** Whether `v` has the shape `prepared()` gives for a list of `count` rules, every utility a plan names included. */
function isPreparedLibrary(v: unknown, count: number): v is PreparedLibrary {
  if (!isObject(v)) return false;
  if (!isIndexed(v.plans, count, isPlan) || !isIndexed(v.anchors, count, isAnchorGroups)) return false;
  if (
    !Array.isArray(v.utils) ||
    !v.utils.every((u) => Array.isArray(u) && u.length === 2 && isString(u[0]) && isObject(u[1]))
  )
    return false;
  const utils = new Set(v.utils.map((u) => u[0] as string));
  return v.plans.every(([, plan]) => plan.mode !== 'combined' || utils.has(plan.util));
}
