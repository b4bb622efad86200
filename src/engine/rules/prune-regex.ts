/**
 * A rule regex with the alternatives that cannot match in a given source text removed, or `null`
 * when no part of it can match there.
 *
 * Why: ast-grep compiles every regex of a query on every search (0.05 to 0.5 ms each: a long
 * `(?i)(password|secret|token|...)` costs most), and a file rarely contains most of the words of an
 * alternation. A regex only ever runs on the text of a node, which is a slice of the source: an
 * alternative whose required literal text (its characters outside optional parts, in a row) is
 * nowhere in the source can never match, so dropping it changes no match in that file, and a regex
 * with no alternative left matches nothing there.
 *
 * The reader takes a subset of Rust regex syntax (the rest gives `undefined`: the regex is kept as
 * written): literals and escaped punctuation, classes (opaque, nested ones included), `.`, `^`, `$`,
 * letter escapes other than `\p`, `\P`, `\x`, `\u`, `\U` (opaque), groups `(...)`, `(?:...)`,
 * `(?P<n>...)`, `(?<n>...)`, quantifiers `* + ? {n} {n,} {n,m}` (lazy or not), and a leading `(?i)`,
 * whose literals are compared with the lower-cased text.
 */

type Item = { atom: Atom; quantifier: string; required: boolean };
type Atom =
  | { kind: 'literal'; char: string; raw: string }
  | { kind: 'opaque'; raw: string }
  | { kind: 'group'; open: string; branches: Item[][] };

interface Parsed {
  ci: boolean;
  branches: Item[][];
}

class Unsupported extends Error {}

function parse(source: string): Parsed {
  let i = 0;
  let ci = false;
  if (source.startsWith('(?i)')) {
    ci = true;
    i = 4;
  }
  const unsupported = (): never => {
    throw new Unsupported();
  };
  const classEnd = (start: number): number => {
    let j = start + 1;
    if (source[j] === '^') j += 1;
    if (source[j] === ']') j += 1;
    let depth = 1;
    for (; j < source.length; j++) {
      const c = source[j];
      if (c === '\\') j += 1;
      else if (c === '[') depth += 1;
      else if (c === ']') {
        depth -= 1;
        if (depth === 0) return j;
      }
    }
    return unsupported();
  };
  const alternation = (): Item[][] => {
    const branches = [sequence()];
    while (source[i] === '|') {
      i += 1;
      branches.push(sequence());
    }
    return branches;
  };
  const sequence = (): Item[] => {
    const items: Item[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const start = i;
      const c = source[i] as string;
      let atom: Atom;
      if (c === '(') {
        i += 1;
        let open = '(';
        if (source[i] === '?') {
          const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(source.slice(i));
          if (source[i + 1] === ':') open = '(?:';
          else if (named) open = `(${named[0]}`;
          else unsupported();
          i = start + open.length;
        }
        const branches = alternation();
        if (source[i] !== ')') unsupported();
        i += 1;
        atom = { kind: 'group', open, branches };
      } else if (c === '[') {
        i = classEnd(i) + 1;
        atom = { kind: 'opaque', raw: source.slice(start, i) };
      } else if (c === '\\') {
        const next = source[i + 1];
        if (next === undefined || 'pPxuU'.includes(next)) unsupported();
        i += 2;
        atom = /[A-Za-z0-9]/.test(next as string)
          ? { kind: 'opaque', raw: source.slice(start, i) }
          : { kind: 'literal', char: next as string, raw: source.slice(start, i) };
      } else if (c === '.' || c === '^' || c === '$') {
        i += 1;
        atom = { kind: 'opaque', raw: c };
      } else if ('*+?{'.includes(c) || (ci && c > '\u007f')) {
        return unsupported();
      } else {
        i += 1;
        atom = { kind: 'literal', char: c, raw: c };
      }
      const from = i;
      let required = true;
      if (source[i] === '*' || source[i] === '?') {
        required = false;
        i += 1;
      } else if (source[i] === '+') i += 1;
      else if (source[i] === '{') {
        const m = /^\{(\d+)(,\d*)?\}/.exec(source.slice(i));
        if (!m) unsupported();
        required = Number((m as RegExpExecArray)[1]) > 0;
        i += (m as RegExpExecArray)[0].length;
      }
      if (i > from && source[i] === '?') i += 1;
      items.push({ atom, quantifier: source.slice(from, i), required });
    }
    return items;
  };
  const branches = alternation();
  if (i !== source.length) unsupported();
  return { ci, branches };
}

const PARSED = new Map<string, Parsed | undefined>();

function parsed(regex: string): Parsed | undefined {
  if (!PARSED.has(regex)) {
    try {
      PARSED.set(regex, parse(regex));
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      PARSED.set(regex, undefined);
    }
  }
  return PARSED.get(regex);
}

/**
 * `present(text, ci)`: whether `text` occurs in the source (`ci`: in the lower-cased source, `text`
 * being lower-cased). Returns the pruned regex (the same string when nothing was dropped), `null`
 * when it cannot match, `undefined` when its syntax is outside the subset (keep it as written).
 */
export function pruneRegex(regex: string, present: (text: string, ci: boolean) => boolean): string | null | undefined {
  const tree = parsed(regex);
  if (tree === undefined) return undefined;
  const { ci } = tree;
  const found = (run: string) => run === '' || present(ci ? run.toLowerCase() : run, ci);
  const alternatives = (branches: Item[][]): string | null => {
    const kept = branches.map(sequence).filter((b): b is string => b !== null);
    return kept.length === 0 ? null : kept.join('|');
  };
  // A run of required single characters must occur as is; an optional or repeated one ends it.
  const sequence = (items: Item[]): string | null => {
    let out = '';
    let run = '';
    for (const { atom, quantifier, required } of items) {
      if (atom.kind === 'literal') {
        if (required) run += atom.char;
        if (quantifier !== '') {
          if (!found(run)) return null;
          run = '';
        }
        out += atom.raw + quantifier;
        continue;
      }
      if (!found(run)) return null;
      run = '';
      if (atom.kind === 'opaque') {
        out += atom.raw + quantifier;
        continue;
      }
      const inner = alternatives(atom.branches);
      // A group none of whose alternatives can match: fatal if required, else it only matches nothing.
      if (inner === null) {
        if (required) return null;
        continue;
      }
      out += `${atom.open}${inner})${quantifier}`;
    }
    return found(run) ? out : null;
  };
  const body = alternatives(tree.branches);
  if (body === null) return null;
  const pruned = (ci ? '(?i)' : '') + body;
  return pruned === regex ? regex : pruned;
}
