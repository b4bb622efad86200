import type { Expr, Stmt } from '../ir.js';

/**
 * Ruby gives a method, a block and an `if` the value of the last expression they run. The
 * statements with that value handed to `use` (a `return`, or an assignment to the name that
 * stands for the block's value), down every branch that ends them.
 */
export function withLastValue(stmts: Stmt[], use: (value: Expr, line: number) => Stmt): Stmt[] {
  const last = stmts[stmts.length - 1];
  if (!last) return stmts;
  const before = stmts.slice(0, -1);
  switch (last.k) {
    case 'expr':
      return [...before, use(last.expr, last.line)];
    case 'assign': {
      // `@q ||= params[:q]` is the memoised getter's value; a tuple's is the whole right side.
      const t = last.target;
      const read: Expr =
        t.k === 'name'
          ? { k: 'name', name: t.name, line: last.line }
          : t.k === 'index'
            ? { k: 'index', object: t.object, index: t.index, line: last.line }
            : t.k === 'attr'
              ? { k: 'attr', object: t.object, name: t.name, line: last.line }
              : last.value;
      return [...stmts, use(read, last.line)];
    }
    case 'if':
      return [
        ...before,
        { ...last, whenTrue: withLastValue(last.whenTrue, use), whenFalse: withLastValue(last.whenFalse, use) },
      ];
    case 'switch':
      return [...before, { ...last, cases: last.cases.map((c) => ({ ...c, body: withLastValue(c.body, use) })) }];
    case 'block':
      return [...before, { ...last, body: withLastValue(last.body, use) }];
    default:
      return stmts;
  }
}
