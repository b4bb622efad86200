import type { SgNode } from '@ast-grep/napi';
import type { Expr, Stmt, Target } from '../ir.js';
import { kindOf, named } from '../syntax.js';
import { withLastValue } from './ruby-last-value.js';
import { freshName, type RubyReader } from './ruby-reader.js';

/** Methods whose result is what their block returns, element by element or once. */
const BLOCK_VALUE = new Set([
  'map',
  'collect',
  'flat_map',
  'collect_concat',
  'filter_map',
  'then',
  'yield_self',
  'inject',
  'reduce',
  'transform_values',
  'sum',
]);

/**
 * Methods that run their block once per element (or a number of times): read as a loop. Any other
 * block (`File.open(path) do |f|`, `configure do`, a test's `describe do`) runs at most once: read
 * as a branch, so nested blocks cost their sum rather than a power of two.
 */
const ITERATORS = new Set([
  ...BLOCK_VALUE,
  ...['each', 'each_with_index', 'each_with_object', 'each_pair', 'each_key', 'each_value', 'each_slice'],
  ...['each_cons', 'each_char', 'each_line', 'each_entry', 'reverse_each', 'times', 'upto', 'downto', 'step'],
  ...['select', 'filter', 'reject', 'find', 'detect', 'find_all', 'count', 'any?', 'all?', 'none?', 'loop'],
  ...['sort_by', 'min_by', 'max_by', 'group_by', 'partition', 'map!', 'select!', 'reject!', 'delete_if'],
  ...['keep_if', 'transform_keys', 'uniq', 'sum', 'zip', 'cycle', 'take_while', 'drop_while', 'chunk_while'],
]);

/** Ruby's numbered and `it` block parameters stand for the element when none is declared. */
const IMPLICIT: Target = {
  k: 'tuple',
  items: [
    { k: 'name', name: '_1' },
    { k: 'name', name: 'it' },
  ],
};

function parameterTarget(node: SgNode): Target | undefined {
  const kind = kindOf(node);
  if (kind === 'identifier') return { k: 'name', name: node.text() };
  if (kind === 'destructured_parameter')
    return { k: 'tuple', items: named(node).flatMap((c) => parameterTarget(c) ?? []) };
  if (kind === 'block_parameter') return undefined;
  const name = node.field('name')?.text();
  return name ? { k: 'name', name } : undefined;
}

function parametersTarget(params: SgNode): Target | undefined {
  const items = named(params).flatMap((p) => parameterTarget(p) ?? []);
  if (items.length <= 1) return items[0];
  return { k: 'tuple', items };
}

/**
 * A call with a block. The block runs where the call is, once or per element, its parameters
 * bound to what the call iterates (its receiver, else its arguments): it is read as a loop that
 * runs before the call's statement. For `map`-like methods the call's value is the block's last
 * value; `items.map(&:to_i)` is `to_i` of the items. A block read as a function of its own (a
 * Sinatra route) is left to it.
 */
export function readBlock(r: RubyReader, call: Expr, block: SgNode | null | undefined, line: number): Expr {
  if (!block || call.k !== 'call') return call;
  if (kindOf(block) === 'block_argument') {
    const symbol = named(block)[0];
    if (symbol && kindOf(symbol) === 'simple_symbol' && BLOCK_VALUE.has(call.name) && call.receiver)
      return {
        k: 'call',
        callee: '',
        name: symbol.text().slice(1),
        receiver: call.receiver,
        args: [],
        kwargs: {},
        line,
      };
    return call;
  }
  if (r.functionBlocks.has(block.id())) return call;
  const params = block.field('parameters');
  const target = params ? parametersTarget(params) : IMPLICIT;
  const inputs = [...call.args, ...Object.values(call.kwargs)];
  const iter = call.receiver ?? (inputs.length > 0 ? { k: 'opaque', parts: inputs, line } : undefined);
  let body = r.statements(block.field('body'));
  const valued = BLOCK_VALUE.has(call.name) ? freshName(r) : undefined;
  if (valued)
    body = withLastValue(body, (value, at) => ({ k: 'assign', target: { k: 'name', name: valued }, value, line: at }));
  if (ITERATORS.has(call.name)) r.pending.push({ k: 'loop', target, iter, body, line });
  else {
    const bind: Stmt[] = target && iter ? [{ k: 'assign', target, value: iter, line }] : [];
    r.pending.push({
      k: 'if',
      test: { k: 'opaque', parts: [], line },
      whenTrue: [...bind, ...body],
      whenFalse: [],
      line,
    });
  }
  return valued ? { k: 'opaque', parts: [{ k: 'name', name: valued, line }], line } : call;
}
