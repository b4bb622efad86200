import type { SgNode } from '@ast-grep/napi';
import type { Expr } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';

/** A type as the analysis names it: pointers and generics dropped (`*http.Request` -> `http.Request`). */
export function goType(node: SgNode | null | undefined): string | undefined {
  if (!node) return undefined;
  return (
    node
      .text()
      .replace(/\[[^\]]*\]$/, '')
      .replace(/^[*&]+/, '')
      .replace(/\s+/g, '') || undefined
  );
}

/** The dotted spelling of a name or selector chain (`http.DefaultClient.Get`), '' when computed. */
export function goDotted(node: SgNode | null | undefined): string {
  if (!node) return '';
  if (kindOf(node) === 'identifier') return node.text();
  if (kindOf(node) === 'selector_expression') {
    const head = goDotted(node.field('operand'));
    return head ? `${head}.${node.field('field')?.text() ?? ''}` : '';
  }
  return '';
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0' };

function unescapeText(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, c: string) =>
    c.length > 1 ? String.fromCodePoint(Number.parseInt(c.slice(1), 16)) : (ESCAPES[c] ?? c),
  );
}

function goNumber(text: string): number | undefined {
  const t = text.replace(/_/g, '');
  const n = /^0[xX]/.test(t)
    ? Number.parseInt(t.slice(2), 16)
    : /^0[bB]/.test(t)
      ? Number.parseInt(t.slice(2), 2)
      : /^0[oO]?[0-7]+$/.test(t)
        ? Number.parseInt(t.replace(/^0[oO]?/, ''), 8)
        : Number(t);
  return Number.isFinite(n) ? n : undefined;
}

const TYPE_KINDS = new Set([
  'slice_type',
  'array_type',
  'map_type',
  'pointer_type',
  'qualified_type',
  'type_identifier',
  'generic_type',
  'channel_type',
  'function_type',
  'interface_type',
  'struct_type',
]);

/**
 * Standard functions whose first argument is what they write to (`fmt.Fprintf(w, ...)`): read as
 * a method of it, so the writer's type picks the sink (a `http.ResponseWriter`) or the builder it
 * appends to (`&sb`).
 */
const WRITES_TO_FIRST = new Set(['fmt.Fprintf', 'fmt.Fprint', 'fmt.Fprintln', 'io.WriteString']);

/** `exec.Command(name, args...)` takes the command as separate arguments (after a context): read as one list, as Python's. */
const COMMANDS: Record<string, number> = { 'exec.Command': 0, 'exec.CommandContext': 1 };

/** `http.NewRequest(method, url, body)`: the URL's position. */
const NEW_REQUEST: Record<string, number> = { 'http.NewRequest': 1, 'http.NewRequestWithContext': 2 };

/** Kinds whose own line matters (a sink's or source's); others take their parent's, read once. */
const OWN_LINE = new Set(['call_expression', 'selector_expression', 'index_expression']);

/** The elements of a `{...}` literal: a list, or a map (struct fields keyed by name). */
function literal(body: SgNode | null, type: SgNode | null, line: number): Expr {
  const elements = named(body);
  const value = (n: SgNode | null): Expr => {
    const inner = kindOf(n) === 'literal_element' ? named(n)[0] : n;
    if (!inner) return { k: 'opaque', parts: [], line };
    return kindOf(inner) === 'literal_value' ? literal(inner, null, line) : goExpr(inner, line);
  };
  const keyed = elements.some((e) => kindOf(e) === 'keyed_element');
  const isMap = kindOf(type) === 'map_type';
  if (
    !keyed &&
    !isMap &&
    (type === null || ['slice_type', 'array_type', 'implicit_length_array_type'].includes(kindOf(type)))
  )
    return { k: 'list', items: elements.map(value), line };
  const typeName = type && !isMap ? goType(type) : undefined;
  if (!keyed && !isMap)
    return {
      k: 'map',
      entries: elements.map((e, i): [Expr, Expr] => [{ k: 'const', value: i, line }, value(e)]),
      line,
      type: typeName,
    };
  return {
    k: 'map',
    entries: elements
      .filter((e) => kindOf(e) === 'keyed_element')
      .map((e): [Expr, Expr] => {
        const key = e.field('key');
        const keyInner = kindOf(key) === 'literal_element' ? named(key)[0] : key;
        // A struct field's name is a constant key; a map's key is an expression.
        const k: Expr =
          !isMap && kindOf(keyInner) === 'identifier'
            ? { k: 'const', value: keyInner?.text() ?? '', line }
            : value(key);
        return [k, value(e.field('value'))];
      }),
    line,
    type: typeName,
  };
}

function call(node: SgNode, line: number): Expr {
  const fn = node.field('function');
  const argNodes = named(node.field('arguments'));
  const sub = (n: SgNode): Expr => goExpr(n, line);
  const opaque = (parts: Expr[]): Expr => ({ k: 'opaque', parts, line });
  // `[]byte(x)`, `(*T)(x)`: a conversion keeps its operand's value.
  if (TYPE_KINDS.has(kindOf(fn)) && kindOf(fn) !== 'type_identifier' && argNodes[0]) return sub(argNodes[0]);
  if (kindOf(fn) === 'parenthesized_expression' && argNodes[0]) return sub(argNodes[0]);
  const callee = goDotted(fn);
  const spread = argNodes.some((a) => kindOf(a) === 'variadic_argument');
  const args = argNodes.map((a) =>
    kindOf(a) === 'variadic_argument' && named(a)[0] ? sub(named(a)[0] as SgNode) : sub(a),
  );
  const method = (name: string, receiver: Expr | undefined, rest: Expr[]): Expr => ({
    k: 'call',
    callee: '',
    name,
    receiver,
    args: rest,
    kwargs: {},
    line,
  });
  switch (callee) {
    case 'fmt.Sprintf':
      // As Python's `%`: the format's text before the first verb is the result's constant prefix.
      return args[0]
        ? { k: 'binary', op: '%', left: args[0], right: { k: 'list', items: args.slice(1), line }, line }
        : opaque([]);
    case 'append': {
      // `append(s, a, b)` as `s.append(a).append(b)`; `append(s, xs...)` extends.
      const [target, ...items] = args;
      if (!target) return opaque([]);
      if (spread && items.length === 1) return method('extend', target, items);
      return items.reduce<Expr>((acc, item) => method('append', acc, [item]), target);
    }
    case 'delete':
      return args[0] ? method('delete', args[0], args.slice(1)) : opaque([]);
    case 'make': {
      const type = argNodes[0];
      if (kindOf(type) === 'map_type') return { k: 'map', entries: [], line };
      // `make([]T, 0, n)` is empty; `make([]T, n)` has n elements the analysis does not place.
      const size = argNodes[1];
      if (kindOf(type) === 'slice_type' && (!size || size.text() === '0')) return { k: 'list', items: [], line };
      return opaque([]);
    }
    case 'new':
      return { k: 'map', entries: [], line, type: goType(argNodes[0]) };
    case 'strings.Contains':
      // `strings.Contains(name, "..")` as Python's `".." in name`: a rejection the guards know.
      return args[0] && args[1] ? { k: 'binary', op: 'in', left: args[1], right: args[0], line } : opaque(args);
  }
  if (WRITES_TO_FIRST.has(callee) && args[0]) return method(callee.split('.')[1] ?? '', args[0], args.slice(1));
  // A request is, to the analysis, where it goes: the URL, checked where it is sent (`client.Do(req)`).
  // Its method and body are data sent, not a destination.
  const urlAt = NEW_REQUEST[callee];
  if (urlAt !== undefined && args[urlAt]) return args[urlAt] as Expr;
  const commandAt = COMMANDS[callee];
  if (commandAt !== undefined && args.length > commandAt) {
    const command: Expr =
      spread && args.length === commandAt + 2
        ? { k: 'list', items: [args[commandAt] as Expr, opaque([args[commandAt + 1] as Expr])], line }
        : { k: 'list', items: args.slice(commandAt), line };
    return {
      k: 'call',
      callee,
      name: callee.split('.')[1] ?? '',
      args: [command],
      kwargs: {},
      line,
    };
  }
  if (kindOf(fn) === 'selector_expression') {
    const operand = fn?.field('operand');
    return {
      k: 'call',
      callee,
      name: fn?.field('field')?.text() ?? '',
      receiver: operand ? sub(operand) : undefined,
      args,
      kwargs: {},
      line,
    };
  }
  if (kindOf(fn) === 'identifier') return { k: 'call', callee, name: callee, args, kwargs: {}, line };
  // A function value called (`handlers[i](x)`, `f()()`): its result may carry any argument's taint.
  return opaque(args);
}

/** A Go expression node in the analysis' vocabulary. */
export function goExpr(node: SgNode, at?: number): Expr {
  const kind = kindOf(node);
  const line = at === undefined || OWN_LINE.has(kind) ? lineOf(node) : at;
  const sub = (n: SgNode): Expr => goExpr(n, line);
  const opaque = (parts: Expr[] = []): Expr => ({ k: 'opaque', parts, line });
  // Read only by the forms that use them: a node's children cost native calls.
  let children: SgNode[] | undefined;
  const kids = (): SgNode[] => (children ??= named(node));
  switch (kind) {
    case 'identifier':
    case 'field_identifier':
      return { k: 'name', name: node.text(), line };
    case 'nil':
      return { k: 'const', value: null, line };
    case 'true':
    case 'false':
      return { k: 'const', value: kind === 'true', line };
    case 'int_literal':
    case 'float_literal': {
      const value = goNumber(node.text());
      return value === undefined ? opaque() : { k: 'const', value, line };
    }
    case 'interpreted_string_literal':
      return { k: 'const', value: unescapeText(node.text().slice(1, -1)), line };
    case 'raw_string_literal':
      return { k: 'const', value: node.text().slice(1, -1), line };
    case 'rune_literal':
      return { k: 'const', value: unescapeText(node.text().slice(1, -1)), line };
    case 'selector_expression': {
      const operand = node.field('operand');
      return operand ? { k: 'attr', object: sub(operand), name: node.field('field')?.text() ?? '', line } : opaque();
    }
    case 'index_expression': {
      const operand = node.field('operand');
      const index = node.field('index');
      return operand && index ? { k: 'index', object: sub(operand), index: sub(index), line } : opaque();
    }
    case 'slice_expression': {
      const operand = node.field('operand');
      return opaque(operand ? [sub(operand)] : []);
    }
    case 'call_expression':
      return call(node, line);
    case 'type_conversion_expression':
    case 'type_assertion_expression': {
      const operand = node.field('operand');
      return operand ? sub(operand) : opaque();
    }
    case 'parenthesized_expression':
      return kids()[0] ? sub(kids()[0] as SgNode) : opaque();
    case 'binary_expression': {
      const left = node.field('left');
      const right = node.field('right');
      const op = node.field('operator')?.text() ?? '';
      return left && right ? { k: 'binary', op, left: sub(left), right: sub(right), line } : opaque();
    }
    case 'unary_expression': {
      const operand = node.field('operand');
      const op = node.field('operator')?.text() ?? '';
      if (!operand) return opaque();
      // `&x` and `*p` are the value itself to the analysis; `<-ch` reads what it does not follow.
      if (op === '&' || op === '*') return sub(operand);
      if (op === '<-') return opaque();
      return { k: 'unary', op, arg: sub(operand), line };
    }
    case 'composite_literal':
      return literal(node.field('body'), node.field('type'), line);
    case 'literal_value':
      return literal(node, null, line);
    case 'func_literal':
      // Read as a function of its own; its body does not run where it is written.
      return opaque();
    case 'expression_list':
      return kids().length === 1 && kids()[0] ? sub(kids()[0] as SgNode) : { k: 'list', items: kids().map(sub), line };
    default:
      return opaque(
        kids()
          .filter((k) => !TYPE_KINDS.has(kindOf(k)))
          .map(sub),
      );
  }
}
