/**
 * Text a file must contain for a rule to match anywhere in it, derived from the rule object
 * itself (its `pattern` strings and `regex`es), so that a rule whose anchors are absent is skipped
 * without walking the syntax tree. A cheap `includes` check instead of a full traversal.
 *
 * The derivation is conservative: a part of a rule it cannot read exactly (`kind`, `not`,
 * `nthChild`, `matches`, a pattern object, inline regex flags other than a leading `(?i)`, ...)
 * adds no anchor, so an unknown shape only costs speed, never a finding.
 *
 * Why it holds: every key of an ast-grep rule object must hold for a node to match; a relational
 * sub-rule (`has`, `inside`, `follows`, `precedes`) and every item of `all` must match some node
 * of the same tree, and `any` needs one of its items to. A node's text is a substring of the
 * source, so the literal text that its pattern's identifiers and keywords or its regex require
 * (anchored or not) must occur in the source.
 */

/** One anchor: a literal, compared with the lower-cased source when `ci` (a `(?i)` regex). */
export interface Anchor {
  text: string;
  ci: boolean;
}

/** A file can match only if, for every group, the source contains at least one of its anchors. */
export type AnchorGroups = readonly (readonly Anchor[])[];

/** A conjunction of disjunctions; an empty list means "no requirement". */
type Requirement = Anchor[][];

const MIN_ANCHOR_LENGTH = 3;

// ------------------------------------------------------------------ regex

type RegexPart = { kind: 'char'; text: string } | { kind: 'group'; alternatives: Requirement[] } | { kind: 'other' };

/** Parses a small, safe subset of Rust regex syntax; undefined when the regex is outside it. */
class RegexReader {
  #i = 0;
  constructor(
    readonly source: string,
    readonly ci: boolean,
  ) {}

  /** Alternatives of the whole regex, each a requirement; undefined on syntax it does not know. */
  read(): Requirement[] | undefined {
    const alternatives = this.#alternation();
    if (alternatives === undefined || this.#i !== this.source.length) return undefined;
    return alternatives;
  }

  #alternation(): Requirement[] | undefined {
    const alternatives: Requirement[] = [];
    for (;;) {
      const branch = this.#sequence();
      if (branch === undefined) return undefined;
      alternatives.push(branch);
      if (this.source[this.#i] !== '|') return alternatives;
      this.#i += 1;
    }
  }

  /** A sequence: literal runs (kept whole only while nothing optional interrupts them) and groups. */
  #sequence(): Requirement | undefined {
    const requirement: Requirement = [];
    let run = '';
    const flush = () => {
      if (run.length >= MIN_ANCHOR_LENGTH) requirement.push([{ text: run, ci: this.ci }]);
      run = '';
    };
    while (this.#i < this.source.length) {
      const c = this.source[this.#i] as string;
      if (c === '|' || c === ')') break;
      const part = this.#atom();
      if (part === undefined) return undefined;
      const quantifier = this.#quantifier();
      if (quantifier === undefined) return undefined;
      if (part.kind === 'char') {
        if (quantifier === 'one') run += part.text;
        else if (quantifier === 'oneOrMore') {
          run += part.text;
          flush();
        } else flush();
        continue;
      }
      flush();
      if (part.kind === 'group' && quantifier !== 'optional') {
        const disjunction = unionOf(part.alternatives);
        if (disjunction !== undefined) requirement.push(disjunction);
      }
    }
    flush();
    return requirement;
  }

  #atom(): RegexPart | undefined {
    const s = this.source;
    const c = s[this.#i] as string;
    if (c === '(') {
      this.#i += 1;
      if (s[this.#i] === '?') {
        // Only non-capturing groups; flags and names change what the text means.
        if (s[this.#i + 1] !== ':') return undefined;
        this.#i += 2;
      }
      const alternatives = this.#alternation();
      if (alternatives === undefined || s[this.#i] !== ')') return undefined;
      this.#i += 1;
      return { kind: 'group', alternatives };
    }
    if (c === '[') {
      // A class matches one of many characters: skip it (escapes and a leading `]` included).
      let j = this.#i + 1;
      if (s[j] === '^') j += 1;
      if (s[j] === ']') j += 1;
      while (j < s.length && s[j] !== ']') {
        if (s[j] === '\\') j += 1;
        else if (s[j] === '[') return undefined;
        j += 1;
      }
      if (j >= s.length) return undefined;
      this.#i = j + 1;
      return { kind: 'other' };
    }
    if (c === '\\') {
      const next = s[this.#i + 1];
      if (next === undefined) return undefined;
      this.#i += 2;
      // An escaped punctuation character is itself; letters and digits are classes or assertions.
      if (/[A-Za-z0-9]/.test(next)) {
        if (next === 'p' || next === 'P' || next === 'x' || next === 'u' || next === 'U') return undefined;
        return { kind: 'other' };
      }
      return { kind: 'char', text: this.ci ? next.toLowerCase() : next };
    }
    if (c === '.' || c === '^' || c === '$') {
      this.#i += 1;
      return { kind: 'other' };
    }
    if ('*+?{'.includes(c)) return undefined;
    this.#i += 1;
    if (this.ci && !/[\x20-\x7e]/.test(c)) return undefined;
    return { kind: 'char', text: this.ci ? c.toLowerCase() : c };
  }

  #quantifier(): 'one' | 'oneOrMore' | 'optional' | undefined {
    const s = this.source;
    const c = s[this.#i];
    let kind: 'one' | 'oneOrMore' | 'optional' = 'one';
    if (c === '*' || c === '?') {
      kind = 'optional';
      this.#i += 1;
    } else if (c === '+') {
      kind = 'oneOrMore';
      this.#i += 1;
    } else if (c === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(s.slice(this.#i));
      if (!m) return undefined;
      kind = Number(m[1]) === 0 ? 'optional' : m[2] === undefined && m[1] === '1' ? 'one' : 'oneOrMore';
      this.#i += m[0].length;
    } else return 'one';
    // Lazy or possessive suffix; a second quantifier is a syntax this reader does not take.
    if (s[this.#i] === '?') this.#i += 1;
    if (s[this.#i] !== undefined && '*+{'.includes(s[this.#i] as string)) return undefined;
    return kind;
  }
}

/** The best single disjunction of a requirement: the one whose shortest anchor is longest. */
function best(requirement: Requirement): Anchor[] | undefined {
  let chosen: Anchor[] | undefined;
  let score = -1;
  for (const disjunction of requirement) {
    const shortest = Math.min(...disjunction.map((a) => a.text.length));
    if (shortest > score) {
      score = shortest;
      chosen = disjunction;
    }
  }
  return chosen;
}

/** `any` of alternatives: one anchor list covering them all, or none when one is unconstrained. */
function unionOf(alternatives: Requirement[]): Anchor[] | undefined {
  const out: Anchor[] = [];
  for (const alternative of alternatives) {
    const disjunction = best(alternative);
    if (disjunction === undefined) return undefined;
    out.push(...disjunction);
  }
  return out.length === 0 ? undefined : out;
}

/** Anchors a regex requires of the text of the node it matches. */
export function regexRequirement(regex: string): Requirement {
  let source = regex;
  let ci = false;
  if (source.startsWith('(?i)')) {
    ci = true;
    source = source.slice(4);
  }
  const alternatives = new RegexReader(source, ci).read();
  if (alternatives === undefined) return [];
  if (alternatives.length === 1) return alternatives[0] as Requirement;
  const union = unionOf(alternatives);
  return union === undefined ? [] : [union];
}

// ------------------------------------------------------------------ pattern

/** Identifiers and keywords of a pattern string (metavariables removed): each must be in the match. */
export function patternRequirement(pattern: string): Requirement {
  const words = pattern.replace(/\$\$?\$?[A-Z_][A-Z0-9_]*|\$\$\$/g, ' ').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  return [...new Set(words)].filter((w) => w.length >= MIN_ANCHOR_LENGTH).map((text) => [{ text, ci: false }]);
}

// ------------------------------------------------------------------ rule objects

const RELATIONAL = ['has', 'inside', 'follows', 'precedes'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ruleRequirement(rule: unknown): Requirement {
  if (!isObject(rule)) return [];
  const requirement: Requirement = [];
  if (typeof rule.pattern === 'string') requirement.push(...patternRequirement(rule.pattern));
  if (typeof rule.regex === 'string') requirement.push(...regexRequirement(rule.regex));
  for (const key of RELATIONAL) {
    if (rule[key] !== undefined) requirement.push(...ruleRequirement(rule[key]));
  }
  if (Array.isArray(rule.all)) for (const item of rule.all) requirement.push(...ruleRequirement(item));
  if (Array.isArray(rule.any)) {
    const union = unionOf(rule.any.map(ruleRequirement));
    if (union !== undefined) requirement.push(union);
  }
  return requirement;
}

/**
 * The anchor groups of a rule object (the `rule` field of a pack rule; constraints add none):
 * duplicates removed, most selective first. Empty when nothing can be derived.
 */
export function ruleAnchors(rule: unknown): AnchorGroups {
  const seen = new Set<string>();
  const groups: Anchor[][] = [];
  for (const disjunction of ruleRequirement(rule)) {
    const unique = [...new Map(disjunction.map((a) => [`${a.ci ? 'i' : 's'}:${a.text}`, a])).values()];
    const key = unique
      .map((a) => `${a.ci ? 'i' : 's'}:${a.text}`)
      .sort()
      .join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push(unique);
  }
  return groups.sort(
    (a, b) =>
      Math.min(...b.map((x) => x.text.length)) - Math.min(...a.map((x) => x.text.length)) || a.length - b.length,
  );
}

/** Bits of the trigram filter: 2^16, so a 15 KB file sets about a fifth of them. */
const TRIGRAM_MASK = (1 << 16) - 1;

/** A bit per hashed trigram of the text: a word with a trigram whose bit is unset is not in the text. */
function trigramFilter(text: string): Uint8Array {
  const bits = new Uint8Array((TRIGRAM_MASK + 1) >> 3);
  let a = text.charCodeAt(0);
  let b = text.charCodeAt(1);
  for (let i = 2; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const h = (a * 961 + b * 31 + c) & TRIGRAM_MASK;
    bits[h >> 3] = (bits[h >> 3] as number) | (1 << (h & 7));
    a = b;
    b = c;
  }
  return bits;
}

/** Whether every trigram of `word` has its bit set (else `word` is certainly not in the text). */
function mayContain(filter: Uint8Array, word: string): boolean {
  for (let i = 0; i + 2 < word.length; i++) {
    const h = (word.charCodeAt(i) * 961 + word.charCodeAt(i + 1) * 31 + word.charCodeAt(i + 2)) & TRIGRAM_MASK;
    if (((filter[h >> 3] as number) & (1 << (h & 7))) === 0) return false;
  }
  return true;
}

/** Lower-cased as `(?i)` anchors compare: `ſ` folds to `s` in Rust; the Kelvin sign lower-cases to `k`. */
const lowerCase = (text: string) => text.toLowerCase().replace(/\u017f/g, 's');

/**
 * The source text as anchors are compared with it: as is, and lower-cased for `(?i)` anchors
 * (computed once per file, on first use). Rules and their regexes ask for the same words again
 * and again (`query`, `request`, ...) and most of them are absent: answers are remembered, and a
 * word one of whose trigrams the lower-cased text lacks is known absent without a search (an
 * occurrence of the word would be an occurrence of its lower-cased form in the lower-cased text).
 */
export class AnchorText {
  #lower: string | undefined;
  #filter: Uint8Array | undefined;
  readonly #known = new Map<string, boolean>();
  constructor(readonly source: string) {}

  get lower(): string {
    this.#lower ??= lowerCase(this.source);
    return this.#lower;
  }

  /** Whether the text contains `text` (`ci`: the lower-cased text contains it; `text` is lower-cased). */
  contains(text: string, ci: boolean): boolean {
    const key = ci ? `i${text}` : `s${text}`;
    let found = this.#known.get(key);
    if (found === undefined) {
      this.#filter ??= trigramFilter(this.lower);
      found =
        (text.length < 3 || mayContain(this.#filter, ci ? text : lowerCase(text))) &&
        (ci ? this.lower : this.source).includes(text);
      this.#known.set(key, found);
    }
    return found;
  }

  /** Whether every group has an anchor present in the text. */
  satisfies(groups: AnchorGroups): boolean {
    for (const group of groups) {
      let found = false;
      for (const anchor of group) {
        if (this.contains(anchor.text, anchor.ci)) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }
}
