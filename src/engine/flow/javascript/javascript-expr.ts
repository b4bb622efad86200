import type { SgNode } from '@ast-grep/napi';
import type { Expr } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';

/** The dotted spelling of a name or member chain (`child_process.exec`, `this.db.query`), '' when computed. */
export function jsDotted(node: SgNode | null | undefined): string {
  if (!node) return '';
  const kind = kindOf(node);
  if (kind === 'identifier' || kind === 'this' || kind === 'property_identifier') return node.text();
  if (kind === 'member_expression') {
    const head = jsDotted(node.field('object'));
    return head ? `${head}.${node.field('property')?.text() ?? ''}` : '';
  }
  return '';
}

function unescapeText(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|.)/g, (_, c: string) => {
    if (c.startsWith('u{')) return String.fromCodePoint(Number.parseInt(c.slice(2, -1), 16));
    if (c.length > 1) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[c] ?? c;
  });
}

/** A string or template literal: a constant, or the concatenation of its parts. */
function stringExpr(node: SgNode, line: number): Expr {
  const parts: Expr[] = [];
  for (const child of named(node)) {
    const kind = kindOf(child);
    if (kind === 'string_fragment') parts.push({ k: 'const', value: child.text(), line });
    else if (kind === 'escape_sequence') parts.push({ k: 'const', value: unescapeText(child.text()), line });
    else if (kind === 'template_substitution') {
      const inner = named(child)[0];
      if (inner) parts.push(jsExpr(inner, line));
    }
  }
  if (parts.every((p) => p.k === 'const'))
    return { k: 'const', value: parts.map((p) => (p.k === 'const' ? String(p.value) : '')).join(''), line };
  return { k: 'concat', parts, line };
}

/**
 * Arguments of a call: positional, and the constant-keyed fields of an object literal among them
 * as keyword arguments too (`spawn(cmd, args, { shell: true })`, `axios({ url })`,
 * `res.download(p, { root }, callback)`): JavaScript's options object is Python's keyword arguments.
 */
function argumentsOf(node: SgNode | null, line: number): { args: Expr[]; kwargs: Record<string, Expr> } {
  const kwargs: Record<string, Expr> = {};
  if (kindOf(node) === 'template_string') return { args: node ? [jsExpr(node, line)] : [], kwargs };
  const nodes = named(node);
  const args = nodes.map((n) => jsExpr(kindOf(n) === 'spread_element' ? (named(n)[0] ?? n) : n, line));
  args.forEach((arg, i) => {
    if (arg.k !== 'map' || kindOf(nodes[i]) !== 'object') return;
    for (const [key, value] of arg.entries) if (key.k === 'const') kwargs[String(key.value)] ??= value;
  });
  return { args, kwargs };
}

function call(node: SgNode, isNew: boolean): Expr {
  const fn = node.field(isNew ? 'constructor' : 'function');
  const { args, kwargs } = argumentsOf(node.field('arguments'), lineOf(node));
  if (!isNew && kindOf(fn) === 'member_expression') {
    const object = fn?.field('object');
    const property = fn?.field('property');
    // A method call's line is its name's: `.whereRaw(...)` on the third line of a chain.
    const line = property ? lineOf(property) : lineOf(node);
    const made = madeOfElement(property?.text(), node.field('arguments'), line);
    if (made) return made;
    return {
      k: 'call',
      callee: jsDotted(fn),
      name: property?.text() ?? '',
      receiver: object ? jsExpr(object, line) : undefined,
      args,
      kwargs,
      line,
    };
  }
  const callee = jsDotted(fn);
  const name = callee.slice(callee.lastIndexOf('.') + 1);
  return { k: 'call', callee, name, args, kwargs, isNew: isNew || undefined, line: lineOf(node) };
}

/**
 * `ids.map(() => '?')`: a callback that reads none of its parameters takes nothing of what is
 * iterated (only how many), so the result is made of what it returns alone; `fill('?')` too.
 */
function madeOfElement(method: string | undefined, argsNode: SgNode | null, line: number): Expr | undefined {
  if (method !== 'map' && method !== 'fill') return undefined;
  const only = argsNode ? named(argsNode) : [];
  if (only.length !== 1 || !only[0]) return undefined;
  const arg = only[0];
  if (method === 'fill') return { k: 'opaque', parts: [jsExpr(arg, line)], line };
  if (kindOf(arg) !== 'arrow_function') return undefined;
  const body = arg.field('body');
  if (!body || kindOf(body) === 'statement_block') return undefined;
  const params = (arg.field('parameters') ?? arg.field('parameter'))?.text().match(/[A-Za-z_$][\w$]*/g) ?? [];
  const words = new Set(body.text().match(/[A-Za-z_$][\w$]*/g) ?? []);
  return params.some((p) => words.has(p)) ? undefined : { k: 'opaque', parts: [jsExpr(body, line)], line };
}

function objectExpr(node: SgNode, line: number): Expr {
  const entries: [Expr, Expr][] = [];
  for (const child of named(node)) {
    const kind = kindOf(child);
    if (kind === 'pair') {
      const key = child.field('key');
      const value = child.field('value');
      if (!key || !value) continue;
      const keyKind = kindOf(key);
      const k: Expr =
        keyKind === 'computed_property_name'
          ? jsExpr(named(key)[0] ?? key, line)
          : keyKind === 'string'
            ? stringExpr(key, line)
            : { k: 'const', value: key.text(), line };
      entries.push([k, jsExpr(value, line)]);
    } else if (kind === 'shorthand_property_identifier') {
      entries.push([
        { k: 'const', value: child.text(), line },
        { k: 'name', name: child.text(), line },
      ]);
    } else if (kind === 'spread_element') {
      // Spread keys are not known: their values land in the map's `rest`.
      const inner = named(child)[0];
      if (inner) entries.push([{ k: 'opaque', parts: [], line }, jsExpr(inner, line)]);
    }
  }
  return { k: 'map', entries, line };
}

/** Arithmetic other than `+` always yields a number in JavaScript: nothing of a string survives it. */
const NUMERIC_OPS = new Set(['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);

const toNumber = (arg: Expr, line: number): Expr => ({
  k: 'call',
  callee: 'Number',
  name: 'Number',
  args: [arg],
  kwargs: {},
  line,
});

/** Kinds whose own line matters (a sink's or source's); others take their parent's, read once. */
const OWN_LINE = new Set(['call_expression', 'new_expression', 'member_expression', 'subscript_expression']);

/** Wrappers that only change the static type: TypeScript's `as`, `!`, `satisfies`, `<T>x`. */
const TYPE_ONLY = new Set(['as_expression', 'satisfies_expression', 'non_null_expression']);

/** A JavaScript or TypeScript expression node in the analysis' vocabulary. */
export function jsExpr(node: SgNode, at?: number): Expr {
  const kind = kindOf(node);
  const line = at === undefined || OWN_LINE.has(kind) ? lineOf(node) : at;
  const sub = (n: SgNode): Expr => jsExpr(n, line);
  const opaque = (parts: Expr[] = []): Expr => ({ k: 'opaque', parts, line });
  // Read only by the forms that use them: a node's children cost native calls.
  let children: SgNode[] | undefined;
  const kids = (): SgNode[] => (children ??= named(node));
  switch (kind) {
    case 'identifier':
    case 'shorthand_property_identifier':
      return node.text() === 'undefined' ? { k: 'const', value: null, line } : { k: 'name', name: node.text(), line };
    case 'this':
      return { k: 'name', name: 'this', line };
    case 'member_expression': {
      const object = node.field('object');
      const property = node.field('property');
      return object && property ? { k: 'attr', object: sub(object), name: property.text(), line } : opaque();
    }
    case 'subscript_expression': {
      const object = node.field('object');
      const index = node.field('index');
      return object && index ? { k: 'index', object: sub(object), index: sub(index), line } : opaque();
    }
    case 'string':
    case 'template_string':
      return stringExpr(node, line);
    case 'number': {
      const value = Number(node.text().replace(/_/g, ''));
      return Number.isFinite(value) ? { k: 'const', value, line } : opaque();
    }
    case 'true':
    case 'false':
      return { k: 'const', value: kind === 'true', line };
    case 'null':
    case 'undefined':
      return { k: 'const', value: null, line };
    case 'call_expression':
      return call(node, false);
    case 'new_expression':
      return call(node, true);
    case 'binary_expression': {
      const left = node.field('left');
      const right = node.field('right');
      const op = node.field('operator')?.text() ?? '';
      if (!left || !right) return opaque();
      const expr: Expr = { k: 'binary', op, left: sub(left), right: sub(right), line };
      const constants = expr.left.k === 'const' && expr.right.k === 'const';
      return NUMERIC_OPS.has(op) && !constants ? toNumber(expr, line) : expr;
    }
    case 'unary_expression': {
      const arg = node.field('argument');
      const op = node.field('operator')?.text() ?? '';
      if (!arg) return opaque();
      if (op === '!') return { k: 'unary', op, arg: sub(arg), line };
      if (op === 'void') return { k: 'const', value: null, line };
      if (op === '-' && kindOf(arg) === 'number') return { k: 'unary', op, arg: sub(arg), line };
      // `+x`, `-x`, `~x` convert to a number; `typeof x` and `delete x.y` give no part of x.
      return op === '+' || op === '-' || op === '~' ? toNumber(sub(arg), line) : opaque();
    }
    case 'ternary_expression': {
      const test = node.field('condition');
      const whenTrue = node.field('consequence');
      const whenFalse = node.field('alternative');
      return test && whenTrue && whenFalse
        ? { k: 'cond', test: sub(test), whenTrue: sub(whenTrue), whenFalse: sub(whenFalse), line }
        : opaque();
    }
    case 'array':
      // A spread hides the positions of what follows: the whole array is then one tainted value.
      return kids().some((c) => kindOf(c) === 'spread_element')
        ? opaque(kids().map((c) => sub(kindOf(c) === 'spread_element' ? (named(c)[0] ?? c) : c)))
        : { k: 'list', items: kids().map(sub), line };
    case 'object':
      return objectExpr(node, line);
    case 'parenthesized_expression':
    case 'await_expression':
      return kids()[0] ? sub(kids()[kids().length - 1] ?? (kids()[0] as SgNode)) : opaque();
    case 'type_assertion':
      return kids().length > 0 ? sub(kids()[kids().length - 1] as SgNode) : opaque();
    case 'assignment_expression':
    case 'augmented_assignment_expression': {
      const right = node.field('right');
      return right ? sub(right) : opaque();
    }
    case 'sequence_expression':
      return kids().length > 0 ? sub(kids()[kids().length - 1] as SgNode) : opaque();
    case 'arrow_function':
    case 'function_expression':
    case 'function':
    case 'class':
    case 'regex':
    case 'update_expression':
      return opaque();
    default:
      if (TYPE_ONLY.has(kind)) return kids()[0] ? sub(kids()[0] as SgNode) : opaque();
      // JSX, yields, tagged forms: taint of any part.
      return opaque(kids().map(sub));
  }
}
