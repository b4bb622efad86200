import type { SgNode } from '@ast-grep/napi';
import type { Expr, Target } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';
import { readBlock } from './ruby-block.js';
import { freshName, isMethodCall, type RubyReader } from './ruby-reader.js';

/** The dotted spelling of a constant path or a chain of argument-less calls (`ERB.Util`, `request.body`), '' when computed. */
export function rubyDotted(node: SgNode | null | undefined): string {
  if (!node) return '';
  const kind = kindOf(node);
  if (kind === 'identifier' || kind === 'constant' || kind === 'self') return node.text();
  if (kind === 'scope_resolution') {
    const name = node.field('name')?.text() ?? '';
    const scope = node.field('scope');
    if (!scope) return name;
    const head = rubyDotted(scope);
    return head ? `${head}.${name}` : '';
  }
  if (kind === 'call' && named(node.field('arguments')).length === 0 && !node.field('block')) {
    const receiver = node.field('receiver');
    const method = node.field('method')?.text() ?? '';
    if (!receiver) return method;
    const head = rubyDotted(receiver);
    return head ? `${head}.${method}` : '';
  }
  return '';
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', e: '\x1b', s: ' ', a: '\x07' };

function unescapeText(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F ]+\}|.)/gs, (_, c: string) => {
    if (c.startsWith('u{'))
      return String.fromCodePoint(
        ...c
          .slice(2, -1)
          .trim()
          .split(/\s+/)
          .map((h) => Number.parseInt(h, 16)),
      );
    if (c.length > 1) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
    return ESCAPES[c] ?? c;
  });
}

/** A string-like node's parts (`"a #{x}"`, backticks, heredoc bodies, symbols, regexes): constant when none is computed. */
function stringExpr(r: RubyReader, node: SgNode, line: number, raw = false): Expr {
  const parts: Expr[] = [];
  for (const child of node.children()) {
    const kind = kindOf(child);
    if (kind === 'string_content' || kind === 'heredoc_content')
      parts.push({ k: 'const', value: raw ? child.text() : unescapeText(child.text()), line });
    else if (kind === 'escape_sequence') parts.push({ k: 'const', value: unescapeText(child.text()), line });
    else if (kind === 'interpolation') {
      const inner = named(child);
      const last = inner[inner.length - 1];
      if (last) parts.push(rubyExpr(r, last, line));
    }
  }
  if (parts.every((p) => p.k === 'const'))
    return { k: 'const', value: parts.map((p) => (p.k === 'const' ? String(p.value) : '')).join(''), line };
  return { k: 'concat', parts, line };
}

/** Whether a string node is single-quoted (`'a\n'` keeps its backslash). */
const isRaw = (node: SgNode): boolean => /^(?:'|%q)/.test(node.children()[0]?.text() ?? '');

export interface Arguments {
  args: Expr[];
  kwargs: Record<string, Expr>;
  /** `&:to_i` / `&block`, passed as the block. */
  blockArg?: SgNode | undefined;
}

/** A call's arguments: `key: value` pairs are keyword arguments, `&blk` the block. */
export function argumentsOf(r: RubyReader, list: SgNode | null | undefined, line: number): Arguments {
  const out: Arguments = { args: [], kwargs: {} };
  for (const arg of named(list)) {
    const kind = kindOf(arg);
    if (kind === 'pair') {
      const key = arg.field('key');
      const value = arg.field('value');
      const name = key ? constantKey(key) : undefined;
      if (value && name !== undefined) out.kwargs[name] = rubyExpr(r, value, line);
      else if (key && value)
        out.args.push({ k: 'map', entries: [[rubyExpr(r, key, line), rubyExpr(r, value, line)]], line });
    } else if (kind === 'block_argument') out.blockArg = arg;
    else out.args.push(rubyExpr(r, arg, line));
  }
  return out;
}

/** The text of a constant hash key (`name:`, `:name =>`, `"name" =>`). */
function constantKey(key: SgNode): string | undefined {
  const kind = kindOf(key);
  if (kind === 'hash_key_symbol' || kind === 'identifier' || kind === 'constant') return key.text();
  if (kind === 'simple_symbol') return key.text().slice(1);
  if (kind === 'string' && !named(key).some((c) => kindOf(c) === 'interpolation'))
    return named(key)
      .map((c) => unescapeText(c.text()))
      .join('');
  return undefined;
}

/** A boolean computed from the parts (`=~`, `===`): their calls are read, their taint is not kept. */
const booleanOf = (parts: Expr[], line: number): Expr => ({
  k: 'unary',
  op: '!',
  arg: { k: 'unary', op: '!', arg: { k: 'opaque', parts, line }, line },
  line,
});

function call(r: RubyReader, node: SgNode): Expr {
  const line = lineOf(node);
  const receiverNode = node.field('receiver');
  const methodNode = node.field('method');
  const name = methodNode?.text() ?? '';
  const receiver = receiverNode ? rubyExpr(r, receiverNode, line) : undefined;
  const { args, kwargs, blockArg } = argumentsOf(r, node.field('arguments'), line);
  let out: Expr;
  if (receiverNode && name === 'new' && /^(constant|scope_resolution)$/.test(kindOf(receiverNode))) {
    // `Foo.new(x)` constructs a Foo, as `new Foo(x)` does elsewhere.
    const callee = rubyDotted(receiverNode);
    out = { k: 'call', callee, name: callee.split('.').pop() ?? '', args, kwargs, isNew: true, line };
  } else if (!receiverNode && kindOf(methodNode) === 'constant') {
    // `Integer(x)`, `URI(x)`: Kernel's conversions make a value of the class they are named after.
    out = { k: 'call', callee: name, name, args, kwargs, isNew: true, line };
  } else if (receiver && name === 'include?' && args.length === 1 && args[0]) {
    // `ALLOWED.include?(x)` is membership, `x.include?("..")` a rejection: as `x in ALLOWED` reads.
    return { k: 'binary', op: 'in', left: args[0], right: receiver, line };
  } else {
    const head = receiverNode ? rubyDotted(receiverNode) : '';
    const callee = receiverNode ? (head ? `${head}.${name}` : '') : name;
    out = { k: 'call', callee, name, receiver, args, kwargs, line };
  }
  const block = node.field('block');
  return readBlock(r, out, block ?? blockArg, line);
}

/** An assignment's left side as a target. */
export function targetOf(r: RubyReader, node: SgNode): Target | undefined {
  const kind = kindOf(node);
  if (kind === 'left_assignment_list' || kind === 'destructured_left_assignment' || kind === 'destructured_parameter')
    return { k: 'tuple', items: named(node).flatMap((c) => targetOf(r, c) ?? []) };
  if (kind === 'rest_assignment' || kind === 'splat_parameter') {
    const inner = named(node)[0];
    return inner ? targetOf(r, inner) : undefined;
  }
  if (/^(identifier|instance_variable|class_variable|global_variable|constant)$/.test(kind))
    return { k: 'name', name: node.text() };
  if (kind === 'element_reference') {
    const object = node.field('object');
    const index = named(node).slice(1)[0];
    return object && index ? { k: 'index', object: rubyExpr(r, object), index: rubyExpr(r, index) } : undefined;
  }
  if (kind === 'call') {
    // `obj.name = x` calls the setter `name=`: a field write.
    const object = node.field('receiver');
    const name = node.field('method')?.text();
    return object && name ? { k: 'attr', object: rubyExpr(r, object), name } : undefined;
  }
  return undefined;
}

/** Statements read where an expression needs them (`x = if c then a else b end`); the expression is their value. */
function hoisted(r: RubyReader, node: SgNode, line: number): Expr {
  const name = freshName(r);
  r.pending.push(...r.valueInto(node, name));
  return { k: 'name', name, line };
}

/** Kinds whose own line matters (a sink's or source's); others take their parent's. */
const OWN_LINE = new Set(['call', 'element_reference', 'subshell', 'identifier']);

/** A Ruby expression node in the analysis' vocabulary; statements it needs first go to `r.pending`. */
export function rubyExpr(r: RubyReader, node: SgNode, at?: number): Expr {
  const kind = kindOf(node);
  const line = at === undefined || OWN_LINE.has(kind) ? lineOf(node) : at;
  const sub = (n: SgNode): Expr => rubyExpr(r, n, line);
  const opaque = (parts: Expr[] = []): Expr => ({ k: 'opaque', parts, line });
  // Read only by the forms that use them: a node's children cost native calls.
  let children: SgNode[] | undefined;
  const kids = (): SgNode[] => (children ??= named(node));
  switch (kind) {
    case 'identifier':
      if (isMethodCall(r, node))
        return { k: 'call', callee: node.text(), name: node.text(), args: [], kwargs: {}, line };
      return { k: 'name', name: node.text(), line };
    case 'constant':
    case 'instance_variable':
    case 'class_variable':
    case 'global_variable':
    case 'self':
      return { k: 'name', name: node.text(), line };
    case 'scope_resolution': {
      const scope = node.field('scope');
      const name = node.field('name')?.text() ?? '';
      return scope ? { k: 'attr', object: sub(scope), name, line } : { k: 'name', name, line };
    }
    case 'string':
    case 'bare_string':
    case 'delimited_symbol':
    case 'bare_symbol':
    case 'regex':
      return stringExpr(r, node, line, isRaw(node));
    case 'chained_string':
      return { k: 'concat', parts: kids().map(sub), line };
    case 'heredoc_beginning': {
      const body = r.heredocs.get(node.range().start.index);
      return body ? stringExpr(r, body, line, /['`]/.test(node.text())) : opaque();
    }
    case 'subshell':
      // Backticks and `%x()` run their text in a shell: Kernel#`.
      return { k: 'call', callee: '`', name: '`', args: [stringExpr(r, node, line)], kwargs: {}, line };
    case 'simple_symbol':
      return { k: 'const', value: node.text().slice(1), line };
    case 'hash_key_symbol':
      return { k: 'const', value: node.text(), line };
    case 'integer':
    case 'float': {
      const value = Number(node.text().replace(/_/g, ''));
      return Number.isFinite(value) ? { k: 'const', value, line } : opaque();
    }
    case 'true':
    case 'false':
      return { k: 'const', value: kind === 'true', line };
    case 'nil':
      return { k: 'const', value: null, line };
    case 'call':
      return call(r, node);
    case 'element_reference': {
      const object = node.field('object');
      const index = kids().slice(1);
      if (!object) return opaque();
      return index.length === 1 && index[0]
        ? { k: 'index', object: sub(object), index: sub(index[0]), line }
        : opaque([sub(object), ...index.map(sub)]);
    }
    case 'binary': {
      const left = node.field('left');
      const right = node.field('right');
      const op = node.field('operator')?.text() ?? '';
      if (!left || !right) return opaque();
      const [l, rt] = [sub(left), sub(right)];
      // `s << x` appends to s (a string or an array), as `s.push(x)` does.
      if (op === '<<') return { k: 'call', callee: '', name: '<<', receiver: l, args: [rt], kwargs: {}, line };
      if (['=~', '!~', '===', '<=>'].includes(op)) return booleanOf([l, rt], line);
      return { k: 'binary', op, left: l, right: rt, line };
    }
    case 'unary': {
      const op = node.field('operator')?.text() ?? '';
      const arg = kids()[kids().length - 1];
      if (!arg || op === 'defined?') return opaque();
      if (op === '+') return sub(arg);
      return { k: 'unary', op: op === 'not' ? '!' : op, arg: sub(arg), line };
    }
    case 'conditional': {
      const test = node.field('condition');
      const then = node.field('consequence');
      const otherwise = node.field('alternative');
      return test && then && otherwise
        ? { k: 'cond', test: sub(test), whenTrue: sub(then), whenFalse: sub(otherwise), line }
        : opaque();
    }
    case 'rescue_modifier': {
      // `x = risky rescue fallback`: either value.
      const [body, fallback] = kids();
      return body && fallback
        ? { k: 'cond', test: opaque(), whenTrue: sub(body), whenFalse: sub(fallback), line }
        : opaque(kids().map(sub));
    }
    case 'array':
    case 'string_array':
    case 'symbol_array':
      return {
        k: 'list',
        items: kids().map((k) => (kindOf(k) === 'splat_argument' ? opaque([sub(k)]) : sub(k))),
        line,
      };
    case 'hash':
      return {
        k: 'map',
        entries: kids().flatMap((pair): [Expr, Expr][] => {
          const key = pair.field('key');
          const value = pair.field('value');
          if (kindOf(pair) === 'pair' && key && value) return [[sub(key), sub(value)]];
          // `**other`: its entries at keys not known here.
          return [[opaque(), opaque(named(pair).map(sub))]];
        }),
        line,
      };
    case 'parenthesized_statements':
    case 'begin_block': {
      const last = kids()[kids().length - 1];
      for (const k of kids().slice(0, -1)) r.pending.push(...r.statement(k));
      return last ? sub(last) : opaque();
    }
    case 'if':
    case 'unless':
    case 'case':
    case 'case_match':
    case 'begin':
    case 'if_modifier':
    case 'unless_modifier':
    case 'assignment':
    case 'operator_assignment':
      return hoisted(r, node, line);
    case 'lambda':
      // A lambda's body runs when called, which the analysis does not follow.
      return opaque();
    default:
      // Ranges, `yield`, `super`, splats, pattern matches: taint of any part.
      return opaque(kids().map(sub));
  }
}
