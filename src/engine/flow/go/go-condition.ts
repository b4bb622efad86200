import type { SgNode } from '@ast-grep/napi';
import type { Expr } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';
import { goExpr } from './go-expr.js';

/** `key in container`, as the guards read an allow-list membership check. */
function membership(index: SgNode, line: number): Expr | undefined {
  const operand = index.field('operand');
  const key = index.field('index');
  return operand && key
    ? { k: 'binary', op: 'in', left: goExpr(key, line), right: goExpr(operand, line), line }
    : undefined;
}

/**
 * The comma-ok lookups of a function (`_, ok := allowed[name]`): the flag's name to the membership
 * check it stands for, so `if !ok { return }` is read as `if name not in allowed`.
 */
export class OkChecks {
  private readonly checks = new Map<string, Expr>();

  record(left: SgNode[], right: SgNode): void {
    const flag = left.length === 2 ? left[1] : undefined;
    if (!flag || kindOf(flag) !== 'identifier') return;
    const check = kindOf(right) === 'index_expression' ? membership(right, lineOf(right)) : undefined;
    if (check) this.checks.set(flag.text(), check);
    else this.checks.delete(flag.text());
  }

  get(name: string): Expr | undefined {
    return this.checks.get(name);
  }
}

/**
 * An `if` or `case` condition. A map read used as a condition (`if !allowed[name]`) can only be a
 * `map[...]bool` allow-list in Go, so it is read as membership, as is a comma-ok flag.
 */
export function goCondition(node: SgNode, ok: OkChecks): Expr {
  const line = lineOf(node);
  const kind = kindOf(node);
  if (kind === 'parenthesized_expression') {
    const inner = named(node)[0];
    return inner ? goCondition(inner, ok) : goExpr(node);
  }
  if (kind === 'unary_expression' && node.field('operator')?.text() === '!') {
    const operand = node.field('operand');
    return operand ? { k: 'unary', op: '!', arg: goCondition(operand, ok), line } : goExpr(node);
  }
  if (kind === 'binary_expression') {
    const op = node.field('operator')?.text() ?? '';
    const left = node.field('left');
    const right = node.field('right');
    if ((op === '&&' || op === '||') && left && right)
      return { k: 'binary', op, left: goCondition(left, ok), right: goCondition(right, ok), line };
  }
  if (kind === 'identifier') return ok.get(node.text()) ?? goExpr(node);
  if (kind === 'index_expression') return membership(node, line) ?? goExpr(node);
  return goExpr(node);
}
