import type { SgNode } from '@ast-grep/napi';
import type { Case, Expr, Stmt, Target } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';
import { argumentsOf, rubyExpr, targetOf } from './ruby-expr.js';
import { withLastValue } from './ruby-last-value.js';
import type { RubyReader } from './ruby-reader.js';

const LITERALS = new Set([
  'string',
  'simple_symbol',
  'integer',
  'float',
  'true',
  'false',
  'nil',
  'hash_key_symbol',
  'delimited_symbol',
]);

/** A body's statements; `rescue` clauses are branches that may run after any part of it. */
export function statementsOf(r: RubyReader, node: SgNode | null | undefined): Stmt[] {
  const out: Stmt[] = [];
  for (const child of named(node)) {
    const kind = kindOf(child);
    const line = lineOf(child);
    if (kind === 'rescue')
      out.push({
        k: 'if',
        test: { k: 'opaque', parts: [], line },
        whenTrue: statementsOf(r, child.field('body')),
        whenFalse: [],
        line,
      });
    else if (kind === 'else' || kind === 'ensure') out.push(...statementsOf(r, child));
    else out.push(...statement(r, child));
  }
  return out;
}

/** One statement, after the statements its expressions need first (blocks, `if` values). */
export function statement(r: RubyReader, node: SgNode): Stmt[] {
  const saved = r.pending;
  r.pending = [];
  const out = readStatement(r, node);
  const all = [...r.pending, ...out];
  r.pending = saved;
  return all;
}

/** A statement whose last value is assigned to `name` (`x = if c then a else b end`). */
export function valueInto(r: RubyReader, node: SgNode, name: string): Stmt[] {
  return withLastValue(statement(r, node), (value, line) => ({
    k: 'assign',
    target: { k: 'name', name },
    value,
    line,
  }));
}

function assignment(r: RubyReader, node: SgNode): Stmt[] {
  const line = lineOf(node);
  const op = kindOf(node) === 'operator_assignment' ? node.field('operator')?.text() : undefined;
  // `a = b = value`: every target gets the innermost value.
  const targets: SgNode[] = [];
  let right: SgNode | null = node;
  while (right && kindOf(right) === 'assignment') {
    const left = right.field('left');
    if (left) targets.push(left);
    right = right.field('right');
  }
  if (op) right = node.field('right');
  if (!right) return [];
  const value: Expr =
    kindOf(right) === 'right_assignment_list'
      ? { k: 'list', items: named(right).map((n) => rubyExpr(r, n, line)), line }
      : rubyExpr(r, right, line);
  const lefts = op ? [node.field('left')] : targets;
  return lefts.flatMap((t) => {
    const to: Target | undefined = t ? targetOf(r, t) : undefined;
    return to ? [{ k: 'assign', target: to, value, op, line } as Stmt] : [];
  });
}

/** `if`/`unless`/`elsif` as nested two-way branches; `unless` swaps them. */
function conditional(r: RubyReader, node: SgNode): Stmt[] {
  const line = lineOf(node);
  const kind = kindOf(node);
  const test = node.field('condition');
  if (!test) return [];
  const modifier = kind.endsWith('_modifier');
  const body = modifier ? statement(r, node.field('body') as SgNode) : statementsOf(r, node.field('consequence'));
  const alternative = node.field('alternative');
  const other = !alternative
    ? []
    : kindOf(alternative) === 'elsif'
      ? conditional(r, alternative)
      : statementsOf(r, alternative);
  const negated = kind === 'unless' || kind === 'unless_modifier';
  return [
    {
      k: 'if',
      test: rubyExpr(r, test),
      whenTrue: negated ? other : body,
      whenFalse: negated ? body : other,
      line,
    },
  ];
}

/** `case x when "a", "b" then ...`: a switch when every pattern is a literal; otherwise every branch may run. */
function caseStatement(r: RubyReader, node: SgNode): Stmt[] {
  const line = lineOf(node);
  const value = node.field('value');
  const clauses = named(node).filter((c) => ['when', 'in_clause', 'else'].includes(kindOf(c)));
  const patternsOf = (c: SgNode) =>
    named(c)
      .filter((p) => kindOf(p) === 'pattern')
      .flatMap((p) => named(p));
  const bodyOf = (c: SgNode) => (kindOf(c) === 'else' ? statementsOf(r, c) : statementsOf(r, c.field('body')));
  if (!value) {
    // `case` without a subject: each `when` is a condition, tried in order.
    let chain: Stmt[] = [];
    for (const c of [...clauses].reverse()) {
      if (kindOf(c) === 'else') {
        chain = bodyOf(c);
        continue;
      }
      const tests = patternsOf(c).map((p) => rubyExpr(r, p, line));
      const test = tests.reduce((a, b) => ({ k: 'binary', op: '||', left: a, right: b, line }));
      chain = [{ k: 'if', test, whenTrue: bodyOf(c), whenFalse: chain, line }];
    }
    return chain;
  }
  const literal = clauses.every(
    (c) => kindOf(c) === 'else' || (kindOf(c) === 'when' && patternsOf(c).every((p) => LITERALS.has(kindOf(p)))),
  );
  const cases: Case[] = clauses.map((c) => ({
    tests: kindOf(c) === 'else' || !literal ? [] : patternsOf(c).map((p) => rubyExpr(r, p, line)),
    body: bodyOf(c),
    fallsThrough: false,
  }));
  const subject: Expr = literal ? rubyExpr(r, value, line) : { k: 'opaque', parts: [rubyExpr(r, value, line)], line };
  // Without an `else`, no branch may run at all.
  if (!clauses.some((c) => kindOf(c) === 'else') && !literal) cases.push({ tests: [], body: [], fallsThrough: false });
  return [{ k: 'switch', subject, cases, line }];
}

function loop(r: RubyReader, node: SgNode): Stmt[] {
  const line = lineOf(node);
  const kind = kindOf(node);
  if (kind === 'for') {
    const pattern = node.field('pattern');
    const iter = named(node.field('value'))[0];
    return [
      {
        k: 'loop',
        target: pattern ? targetOf(r, pattern) : undefined,
        iter: iter ? rubyExpr(r, iter, line) : undefined,
        body: statementsOf(r, node.field('body')),
        line,
      },
    ];
  }
  const test = node.field('condition');
  const body = kind.endsWith('_modifier')
    ? statement(r, node.field('body') as SgNode)
    : statementsOf(r, node.field('body'));
  // The condition is read each time round: its calls (sinks too) are in the loop.
  const check: Stmt[] = test ? [{ k: 'expr', expr: rubyExpr(r, test, line), line }] : [];
  return [{ k: 'loop', body: [...check, ...body], line }];
}

/** The statement itself; what its expressions need first is in `r.pending`. */
function readStatement(r: RubyReader, node: SgNode): Stmt[] {
  const line = lineOf(node);
  const kind = kindOf(node);
  switch (kind) {
    case 'assignment':
    case 'operator_assignment':
      return assignment(r, node);
    case 'if':
    case 'unless':
    case 'if_modifier':
    case 'unless_modifier':
      return conditional(r, node);
    case 'case':
    case 'case_match':
      return caseStatement(r, node);
    case 'while':
    case 'until':
    case 'while_modifier':
    case 'until_modifier':
    case 'for':
      return loop(r, node);
    case 'begin':
    case 'parenthesized_statements':
      return statementsOf(r, node);
    case 'class':
    case 'module':
    case 'singleton_class':
      // Class bodies run once, in order: their constants and class-level calls.
      return statementsOf(r, node.field('body'));
    case 'return': {
      const { args } = argumentsOf(r, named(node)[0], line);
      const value: Expr | undefined = args.length > 1 ? { k: 'list', items: args, line } : args[0];
      return [{ k: 'return', value, line }];
    }
    case 'call': {
      const method = node.field('method')?.text();
      if (!node.field('receiver') && (method === 'raise' || method === 'fail')) return [{ k: 'raise', line }];
      return [{ k: 'expr', expr: rubyExpr(r, node), line }];
    }
    case 'method':
    case 'singleton_method':
    case 'alias':
    case 'undef':
    case 'heredoc_body':
    case 'next':
    case 'break':
    case 'redo':
    case 'retry':
    case 'empty_statement':
      return [];
    default:
      return [{ k: 'expr', expr: rubyExpr(r, node), line }];
  }
}
