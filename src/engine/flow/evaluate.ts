import type { Analysis, Env } from './context.js';
import { evaluateCall } from './evaluate-call.js';
import { foldBinary, foldUnary, truthy } from './fold.js';
import { refine, refinementsOf } from './guards.js';
import type { Expr } from './ir.js';
import { lookup, matchesAny } from './qualified-name.js';
import {
  anyTaint,
  constant,
  fixedOrUnknown,
  isFixed,
  join,
  keyOf,
  merge,
  prefixOf,
  safeForAll,
  taintOf,
  UNKNOWN,
  type Value,
} from './value.js';

/** The dotted spelling of a name or attribute chain (`os.path.join`), '' for anything else. */
export function dottedName(expr: Expr): string {
  if (expr.k === 'name') return expr.name;
  if (expr.k === 'attr') {
    const head = dottedName(expr.object);
    return head ? `${head}.${expr.name}` : '';
  }
  return '';
}

/** `params[:sort]`, `args["q"]`: an element at a constant key of a named value, as a path a check can refine. */
export function indexPath(expr: Expr): string | undefined {
  if (expr.k !== 'index' || expr.index.k !== 'const' || expr.index.value === null) return undefined;
  const head = dottedName(expr.object);
  return head ? `${head}[${String(expr.index.value)}]` : undefined;
}

/** A dotted name with its first segment expanded through the file's imports. */
export function qualify(analysis: Analysis, dotted: string): string {
  if (!dotted) return dotted;
  const dot = dotted.indexOf('.');
  const head = dot < 0 ? dotted : dotted.slice(0, dot);
  const full = analysis.aliases.get(head);
  return full ? full + (dot < 0 ? '' : dotted.slice(dot)) : dotted;
}

/** The CWEs a source's value is safe for as read, as a taint's cleared set. */
export const safeFor = (cwes: number[] | undefined): ReadonlySet<number> | undefined =>
  cwes ? new Set(cwes) : undefined;

function attributeSource(analysis: Analysis, expr: Expr): Value | undefined {
  const dotted = dottedName(expr);
  if (!dotted) return undefined;
  const written = [dotted, qualify(analysis, dotted)];
  for (const source of analysis.spec.sources) {
    if (source.attributes && matchesAny(source.attributes, written))
      return { taint: { line: expr.line, description: source.description, cleared: safeFor(source.safeFor) } };
  }
  return undefined;
}

/** A field of a typed value (Go's `r.Body` of an `http.Request`): a source, or a value of a known type. */
function typedField(analysis: Analysis, type: string, expr: Extract<Expr, { k: 'attr' }>): Value | undefined {
  const written = [`${type}.${expr.name}`];
  for (const source of analysis.spec.sources) {
    if (source.attributes && matchesAny(source.attributes, written))
      return { taint: { line: expr.line, description: source.description } };
  }
  const fieldType = lookup(analysis.spec.returns, written);
  return fieldType ? { type: fieldType } : undefined;
}

/** An element of a container read at a position (a constant index or key, or one not known). */
export function readElement(container: Value, index: Value | undefined): Value {
  const key = index ? keyOf(index) : undefined;
  let element: Value | undefined;
  if (key !== undefined && container.items) {
    const n = Number(key);
    const i = n < 0 ? container.items.length + n : n;
    element = Number.isInteger(i) ? container.items[i] : undefined;
  } else if (key !== undefined && container.keys) element = container.keys.get(key);
  if (element === undefined && key === undefined && (container.items || container.keys)) {
    const taint = taintOf({ items: container.items, keys: container.keys });
    // Any element of a container that holds only the code's own values is one of them.
    const all = [...(container.items ?? []), ...(container.keys?.values() ?? [])];
    element = taint ? { taint } : !container.rest && all.length > 0 && all.every(isFixed) ? { fixed: true } : UNKNOWN;
  }
  const fallback = join(container.rest, container.taint);
  if (element === undefined) return fallback ? { taint: fallback } : UNKNOWN;
  return fallback ? merge(element, { taint: fallback }) : element;
}

export function evaluate(analysis: Analysis, env: Env, expr: Expr): Value {
  analysis.budget.steps -= 1;
  if (analysis.budget.steps < 0) return UNKNOWN;
  switch (expr.k) {
    case 'const':
      return constant(expr.value);
    case 'name':
      return env.get(expr.name) ?? attributeSource(analysis, expr) ?? UNKNOWN;
    case 'attr': {
      const source = attributeSource(analysis, expr);
      if (source) return source;
      const path = dottedName(expr);
      const stored = path ? env.get(path) : undefined;
      if (stored) return stored;
      const object = evaluate(analysis, env, expr.object);
      const field = object.keys?.get(expr.name) ?? object.props?.get(expr.name);
      if (field) return field;
      if (object.type) {
        const typed = typedField(analysis, object.type, expr);
        if (typed) return typed;
      }
      const taint = taintOf(object);
      return taint ? { taint } : UNKNOWN;
    }
    case 'index': {
      // `params[:sort]` after a check that proved something of it.
      const path = indexPath(expr);
      const stored = path ? env.get(path) : undefined;
      if (stored) return stored;
      const object = evaluate(analysis, env, expr.object);
      const index = evaluate(analysis, env, expr.index);
      // A character of a constant string (`"ABC"[1]`) is a constant too.
      if (object.known && typeof object.constant === 'string' && index.known && typeof index.constant === 'number') {
        const i = index.constant < 0 ? object.constant.length + index.constant : index.constant;
        const char = object.constant[i];
        if (char !== undefined) return constant(char);
      }
      const element = readElement(object, index);
      return element === UNKNOWN && !object.items && !object.keys ? fixedOrUnknown([object, index]) : element;
    }
    case 'call':
      return evaluateCall(analysis, env, expr);
    case 'binary': {
      const left = evaluate(analysis, env, expr.left);
      // `a and b`/`a && b` with a constant left side is decided by it alone.
      if (left.known && ['&&', 'and'].includes(expr.op) && !truthy(left.constant ?? null)) return left;
      if (left.known && ['||', 'or'].includes(expr.op) && truthy(left.constant ?? null)) return left;
      const right = evaluate(analysis, env, expr.right);
      if (left.known && right.known) {
        const folded = foldBinary(expr.op, left.constant ?? null, right.constant ?? null);
        if (folded !== undefined) return constant(folded);
      }
      // A comparison or membership test yields a boolean, whatever its operands.
      if (/^(==|!=|===|!==|<|<=|>|>=|in|not in|is|is not|instanceof)$/.test(expr.op)) return UNKNOWN;
      const taint = anyTaint([left, right]);
      // `"https://host/" + path` keeps its host; `"/x/%s" % path` its text before the first `%`.
      const head = prefixOf(left);
      const prefix = expr.op === '+' ? head : expr.op === '%' ? head?.split('%')[0] : undefined;
      // `base / name` of a pathlib path is a path again: its methods stay known (`exists`, `read_text`).
      const type = expr.op === '/' ? left.type : undefined;
      return taint ? { taint, prefix, type, safeFor: safeForAll([left, right]) } : fixedOrUnknown([left, right]);
    }
    case 'unary': {
      const arg = evaluate(analysis, env, expr.arg);
      if (arg.known) {
        const folded = foldUnary(expr.op, arg.constant ?? null);
        if (folded !== undefined) return constant(folded);
      }
      return expr.op === '!' || expr.op === 'not' ? UNKNOWN : arg;
    }
    case 'cond': {
      const test = evaluate(analysis, env, expr.test);
      if (test.known) return evaluate(analysis, env, truthy(test.constant ?? null) ? expr.whenTrue : expr.whenFalse);
      // `ALLOWED.has(x) ? x : 'id'`: each branch sees what its condition proves, as an `if`'s do.
      const proved = refinementsOf(analysis, env, expr.test);
      return merge(
        evaluate(analysis, refine(env, proved.whenTrue), expr.whenTrue),
        evaluate(analysis, refine(env, proved.whenFalse), expr.whenFalse),
      );
    }
    case 'list':
      return { items: expr.items.map((item) => evaluate(analysis, env, item)) };
    case 'map': {
      const keys = new Map<string, Value>();
      let rest: Value['rest'];
      for (const [k, v] of expr.entries) {
        const key = keyOf(evaluate(analysis, env, k));
        const value = evaluate(analysis, env, v);
        if (key !== undefined) keys.set(key, value);
        else rest = join(rest, taintOf(value));
      }
      return { keys, rest, type: expr.type };
    }
    case 'concat': {
      const parts = expr.parts.map((p) => evaluate(analysis, env, p));
      if (parts.every((p) => p.known)) return constant(parts.map((p) => String(p.constant)).join(''));
      const taint = anyTaint(parts);
      if (!taint) return fixedOrUnknown(parts);
      return { taint, prefix: parts[0] ? prefixOf(parts[0]) : undefined, safeFor: safeForAll(parts) };
    }
    case 'opaque': {
      const parts = expr.parts.map((p) => evaluate(analysis, env, p));
      const taint = anyTaint(parts);
      return taint ? { taint } : fixedOrUnknown(parts);
    }
  }
}
