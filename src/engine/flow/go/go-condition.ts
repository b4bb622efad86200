import type { SgNode } from '@ast-grep/napi';
import type { Expr } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';
import { goDotted, goExpr } from './go-expr.js';

/** `key in container`, as the guards read an allow-list membership check. */
function membership(index: SgNode, line: number): Expr | undefined {
  const operand = index.field('operand');
  const key = index.field('index');
  return operand && key
    ? { k: 'binary', op: 'in', left: goExpr(key, line), right: goExpr(operand, line), line }
    : undefined;
}

/**
 * Checks a function states in two steps, by the names it binds: a comma-ok lookup
 * (`_, ok := allowed[name]`, then `if !ok`) is a membership check of `name`; a relative path
 * (`rel, err := filepath.Rel(base, full)`, then `strings.HasPrefix(rel, "..")`) tells whether
 * `full` is outside `base`.
 */
export class LocalChecks {
  private readonly flags = new Map<string, Expr>();
  private readonly relative = new Map<string, { base: SgNode; target: SgNode }>();

  record(left: SgNode[], right: SgNode): void {
    const [first, second] = left;
    if (second && kindOf(second) === 'identifier') {
      const check =
        kindOf(right) === 'index_expression' && left.length === 2 ? membership(right, lineOf(right)) : undefined;
      if (check) this.flags.set(second.text(), check);
      else this.flags.delete(second.text());
    }
    if (first && kindOf(first) === 'identifier') {
      const [base, target] = named(right.field('arguments'));
      if (kindOf(right) === 'call_expression' && goDotted(right.field('function')) === 'filepath.Rel' && base && target)
        this.relative.set(first.text(), { base, target });
      else this.relative.delete(first.text());
    }
  }

  flag(name: string): Expr | undefined {
    return this.flags.get(name);
  }

  /** `strings.HasPrefix(rel, "..")` as `!strings.HasPrefix(full, base)`: the prefix check the guards know. */
  outside(call: SgNode, line: number): Expr | undefined {
    if (goDotted(call.field('function')) !== 'strings.HasPrefix') return undefined;
    const [subject, prefix] = named(call.field('arguments'));
    const rel = subject && kindOf(subject) === 'identifier' ? this.relative.get(subject.text()) : undefined;
    if (!rel || !prefix || !/^["`]\.\.["`]$/.test(prefix.text())) return undefined;
    const inside: Expr = {
      k: 'call',
      callee: 'strings.HasPrefix',
      name: 'HasPrefix',
      receiver: { k: 'name', name: 'strings', line },
      args: [goExpr(rel.target, line), goExpr(rel.base, line)],
      kwargs: {},
      line,
    };
    return { k: 'unary', op: '!', arg: inside, line };
  }
}

/**
 * An `if` or `case` condition. A map read used as a condition (`if !allowed[name]`) can only be a
 * `map[...]bool` allow-list in Go, so it is read as membership, as is a comma-ok flag.
 */
export function goCondition(node: SgNode, checks: LocalChecks): Expr {
  const line = lineOf(node);
  const kind = kindOf(node);
  if (kind === 'parenthesized_expression') {
    const inner = named(node)[0];
    return inner ? goCondition(inner, checks) : goExpr(node);
  }
  if (kind === 'unary_expression' && node.field('operator')?.text() === '!') {
    const operand = node.field('operand');
    return operand ? { k: 'unary', op: '!', arg: goCondition(operand, checks), line } : goExpr(node);
  }
  if (kind === 'binary_expression') {
    const op = node.field('operator')?.text() ?? '';
    const left = node.field('left');
    const right = node.field('right');
    if ((op === '&&' || op === '||') && left && right)
      return { k: 'binary', op, left: goCondition(left, checks), right: goCondition(right, checks), line };
  }
  if (kind === 'identifier') return checks.flag(node.text()) ?? goExpr(node);
  if (kind === 'index_expression') return membership(node, line) ?? goExpr(node);
  if (kind === 'call_expression') return checks.outside(node, line) ?? goExpr(node);
  return goExpr(node);
}
