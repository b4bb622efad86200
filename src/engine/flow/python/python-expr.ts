import type { SgNode } from '@ast-grep/napi';
import type { Expr } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';

/** The dotted spelling of a name or attribute chain (`os.path.join`), '' when computed. */
export function pythonDotted(node: SgNode | null | undefined): string {
  if (!node) return '';
  if (kindOf(node) === 'identifier') return node.text();
  if (kindOf(node) === 'attribute') {
    const head = pythonDotted(node.field('object'));
    return head ? `${head}.${node.field('attribute')?.text() ?? ''}` : '';
  }
  return '';
}

function unescapeText(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length > 1) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[c] ?? c;
  });
}

function stringExpr(node: SgNode, line: number): Expr {
  const parts: Expr[] = [];
  const raw = /^[a-zA-Z]*[rR]/.test(node.children()[0]?.text() ?? '');
  for (const child of named(node)) {
    const kind = kindOf(child);
    // Escapes are children of string_content, whose text is the source spelling.
    if (kind === 'string_content')
      parts.push({ k: 'const', value: raw ? child.text() : unescapeText(child.text()), line });
    else if (kind === 'escape_sequence') parts.push({ k: 'const', value: unescapeText(child.text()), line });
    else if (kind === 'interpolation') {
      const inner = named(child)[0];
      if (inner) parts.push(pythonExpr(inner, line));
    }
  }
  if (parts.every((p) => p.k === 'const'))
    return { k: 'const', value: parts.map((p) => (p.k === 'const' ? String(p.value) : '')).join(''), line };
  return { k: 'concat', parts, line };
}

function call(node: SgNode): Expr {
  const line = lineOf(node);
  const fn = node.field('function');
  const args: Expr[] = [];
  const kwargs: Record<string, Expr> = {};
  const given = node.field('arguments');
  // `f(x for x in xs)`: a generator written as the only argument is the arguments node itself.
  const list = given && kindOf(given) === 'generator_expression' ? [given] : named(given);
  for (const arg of list) {
    if (kindOf(arg) === 'keyword_argument') {
      const value = arg.field('value');
      if (value) kwargs[arg.field('name')?.text() ?? ''] = pythonExpr(value, line);
    } else args.push(pythonExpr(arg, line));
  }
  if (kindOf(fn) === 'attribute') {
    const object = fn?.field('object');
    const name = fn?.field('attribute')?.text() ?? '';
    return {
      k: 'call',
      callee: pythonDotted(fn),
      name,
      receiver: object ? pythonExpr(object, line) : undefined,
      args,
      kwargs,
      line,
    };
  }
  const callee = pythonDotted(fn);
  return { k: 'call', callee, name: callee, args, kwargs, line };
}

/** The operator of a node whose operator is an unnamed token (comparisons). */
function operatorText(node: SgNode): string {
  return node
    .children()
    .filter((c) => !c.isNamed())
    .map((c) => c.text())
    .join(' ');
}

/** A Python expression node in the analysis' vocabulary. */
/** Kinds whose own line matters (a sink's or source's); others take their parent's, read once. */
const OWN_LINE = new Set(['call', 'attribute', 'subscript']);

export function pythonExpr(node: SgNode, at?: number): Expr {
  const kind = kindOf(node);
  const line = at === undefined || OWN_LINE.has(kind) ? lineOf(node) : at;
  const sub = (n: SgNode): Expr => pythonExpr(n, line);
  const opaque = (parts: Expr[] = []): Expr => ({ k: 'opaque', parts, line });
  // Read only by the forms that use them: a node's children cost native calls.
  let children: SgNode[] | undefined;
  const kids = (): SgNode[] => (children ??= named(node));
  switch (kind) {
    case 'identifier':
      return { k: 'name', name: node.text(), line };
    case 'attribute': {
      const object = node.field('object');
      return object ? { k: 'attr', object: sub(object), name: node.field('attribute')?.text() ?? '', line } : opaque();
    }
    case 'subscript': {
      const value = node.field('value');
      const index = node.field('subscript');
      if (!value || !index) return opaque();
      if (kindOf(index) === 'slice') return opaque([sub(value)]);
      return { k: 'index', object: sub(value), index: sub(index), line };
    }
    case 'string':
      return stringExpr(node, line);
    case 'concatenated_string':
      return { k: 'concat', parts: kids().map(sub), line };
    case 'integer':
    case 'float': {
      const value = Number(node.text().replace(/_/g, ''));
      return Number.isFinite(value) ? { k: 'const', value, line } : opaque();
    }
    case 'true':
    case 'false':
      return { k: 'const', value: kindOf(node) === 'true', line };
    case 'none':
      return { k: 'const', value: null, line };
    case 'call':
      return call(node);
    case 'binary_operator':
    case 'boolean_operator': {
      const left = node.field('left');
      const right = node.field('right');
      const op = node.field('operator')?.text() ?? operatorText(node);
      return left && right ? { k: 'binary', op, left: sub(left), right: sub(right), line } : opaque();
    }
    case 'comparison_operator': {
      const [left, right] = kids();
      return kids().length === 2 && left && right
        ? { k: 'binary', op: operatorText(node), left: sub(left), right: sub(right), line }
        : opaque();
    }
    case 'not_operator': {
      const arg = node.field('argument');
      return arg ? { k: 'unary', op: 'not', arg: sub(arg), line } : opaque();
    }
    case 'unary_operator': {
      const arg = node.field('argument');
      return arg ? { k: 'unary', op: node.field('operator')?.text() ?? '', arg: sub(arg), line } : opaque();
    }
    case 'conditional_expression': {
      const [then, test, otherwise] = kids();
      return then && test && otherwise
        ? { k: 'cond', test: sub(test), whenTrue: sub(then), whenFalse: sub(otherwise), line }
        : opaque();
    }
    case 'list':
    case 'tuple':
    case 'set':
    case 'expression_list':
      return { k: 'list', items: kids().map(sub), line };
    case 'dictionary':
      return {
        k: 'map',
        entries: kids().flatMap((pair): [Expr, Expr][] => {
          const key = pair.field('key');
          const value = pair.field('value');
          return kindOf(pair) === 'pair' && key && value ? [[sub(key), sub(value)]] : [];
        }),
        line,
      };
    case 'parenthesized_expression':
    case 'await':
      return kids()[0] ? sub(kids()[0] as SgNode) : opaque();
    case 'lambda':
      return opaque();
    case 'generator_expression':
    case 'list_comprehension':
    case 'set_comprehension':
    case 'dictionary_comprehension': {
      // `",".join("?" for _ in ids)`: an element that reads none of the loop's names takes nothing
      // of what is iterated (only how many), so the result is made of the element alone.
      const [element, ...clauses] = kids();
      if (!element) return opaque();
      const names = clauses
        .filter((c) => kindOf(c) === 'for_in_clause')
        .flatMap((c) => (c.field('left')?.text() ?? '').match(/[A-Za-z_]\w*/g) ?? []);
      const words = new Set(element.text().match(/[A-Za-z_]\w*/g) ?? []);
      return names.some((n) => words.has(n)) ? opaque(kids().map(sub)) : opaque([sub(element)]);
    }
    default:
      // Slices, starred values: taint of any part.
      return opaque(kids().map(sub));
  }
}
