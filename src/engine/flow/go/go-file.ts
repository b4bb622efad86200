import type { SgNode } from '@ast-grep/napi';
import {
  type Case,
  type Expr,
  type FileIR,
  type FunctionIR,
  lazily,
  type Param,
  type Stmt,
  type Target,
} from '../ir.js';
import { kindOf, lineOf, named, nodesByKind } from '../syntax.js';
import { goCondition, LocalChecks } from './go-condition.js';
import { goDotted, goExpr, goType } from './go-expr.js';

/** What a function's statements are read with: the file's own function names, and comma-ok checks seen. */
interface Reader {
  functions: Set<string>;
  methods: Set<string>;
  checks: LocalChecks;
}

function target(node: SgNode): Target | undefined {
  if (kindOf(node) === 'unary_expression') {
    const operand = node.field('operand');
    return operand ? target(operand) : undefined;
  }
  const expr = goExpr(node);
  if (expr.k === 'name') return { k: 'name', name: expr.name };
  if (expr.k === 'attr') return { k: 'attr', object: expr.object, name: expr.name };
  if (expr.k === 'index') return { k: 'index', object: expr.object, index: expr.index };
  return undefined;
}

/** Whether a call reaches a function or method of this file, whose returns the analysis lays out itself. */
function callsLocal(node: SgNode, reader: Reader): boolean {
  if (kindOf(node) !== 'call_expression') return false;
  const fn = node.field('function');
  if (kindOf(fn) === 'identifier') return reader.functions.has(fn?.text() ?? '');
  return kindOf(fn) === 'selector_expression' && reader.methods.has(fn?.field('field')?.text() ?? '');
}

/**
 * `a, b := x, y` pairs its sides; `v, err := f(x)` of a library call gives the value to every name
 * but the last, which by Go's convention is an error or an `ok` flag, not data. A call of this
 * file's own function returns a tuple the analysis lays out.
 */
function assignment(left: SgNode[], right: SgNode[], line: number, reader: Reader, op?: string): Stmt[] {
  const targets = left.map(target);
  if (targets.some((t) => t === undefined)) return right.map((r) => ({ k: 'expr', expr: goExpr(r), line }) as Stmt);
  const to = targets as Target[];
  const [first] = to;
  const [only] = right;
  if (!first || right.length === 0) return [];
  if (to.length === 1 && only) return [{ k: 'assign', target: first, value: goExpr(only), op, line }];
  if (right.length === to.length)
    return [
      {
        k: 'assign',
        target: { k: 'tuple', items: to },
        value: { k: 'list', items: right.map((r) => goExpr(r)), line },
        line,
      },
    ];
  if (!only) return [];
  if (callsLocal(only, reader)) return [{ k: 'assign', target: { k: 'tuple', items: to }, value: goExpr(only), line }];
  reader.checks.record(left, only);
  const out: Stmt[] = [{ k: 'assign', target: first, value: goExpr(only), line }];
  const firstName = left[0]?.text() ?? '_';
  for (const t of to.slice(1, -1))
    out.push({ k: 'assign', target: t, value: { k: 'name', name: firstName, line }, line });
  const last = to[to.length - 1];
  if (last) out.push({ k: 'assign', target: last, value: { k: 'opaque', parts: [], line }, line });
  return out;
}

/**
 * Out-parameters: `c.ShouldBindJSON(&req)`, `json.Unmarshal(body, &v)` write what the call reads
 * into `req`/`v`; the call's value (a source's taint, its arguments') is given to them.
 */
function outParams(node: SgNode, line: number): Stmt[] {
  const out: Stmt[] = [];
  const calls: SgNode[] = [];
  // Calls in this statement, not in a function literal written in it (read as a function of its own).
  const walk = (n: SgNode): void => {
    if (kindOf(n) === 'func_literal') return;
    if (kindOf(n) === 'call_expression') calls.push(n);
    for (const c of named(n)) walk(c);
  };
  walk(node);
  for (const call of calls) {
    if (['fmt.Fprintf', 'fmt.Fprint', 'fmt.Fprintln', 'io.WriteString'].includes(goDotted(call.field('function'))))
      continue;
    for (const arg of named(call.field('arguments'))) {
      if (kindOf(arg) !== 'unary_expression' || !arg.text().startsWith('&')) continue;
      const operand = arg.field('operand');
      if (!operand || !['identifier', 'selector_expression'].includes(kindOf(operand))) continue;
      const to = target(operand);
      if (to)
        out.push({
          k: 'assign',
          target: to,
          value: { k: 'opaque', parts: [goExpr(operand), goExpr(call)], line },
          line,
        });
    }
  }
  return out;
}

function varSpec(node: SgNode, reader: Reader): Stmt[] {
  const line = lineOf(node);
  const names = node.namedChildren().filter((c) => kindOf(c) === 'identifier');
  const values = named(node.field('value'));
  const type = goType(node.field('type'));
  if (values.length === 0) return names.map((n): Stmt => ({ k: 'declare', name: n.text(), type: type ?? '', line }));
  const stmts = assignment(names, values, line, reader);
  if (type && names.length === 1 && stmts[0]?.k === 'assign' && stmts[0].target.k === 'name')
    stmts[0] = { ...stmts[0], target: { ...stmts[0].target, type } };
  return stmts;
}

function block(node: SgNode | null | undefined, reader: Reader): Stmt[] {
  return named(node).flatMap((c) =>
    kindOf(c) === 'statement_list' ? named(c).flatMap((s) => statement(s, reader)) : statement(c, reader),
  );
}

/** A switch's cases: their values as tests, their bodies, and whether they end in `fallthrough`. */
function cases(
  node: SgNode,
  reader: Reader,
): { tests: SgNode[]; body: Stmt[]; fallsThrough: boolean; isDefault: boolean }[] {
  return named(node)
    .filter((c) => ['expression_case', 'default_case', 'type_case', 'communication_case'].includes(kindOf(c)))
    .map((c) => {
      const list = named(c).find((n) => kindOf(n) === 'statement_list');
      const stmts = named(list);
      const tests = kindOf(c) === 'expression_case' ? named(c.field('value')) : [];
      return {
        tests,
        body:
          kindOf(c) === 'communication_case'
            ? [...statement(named(c)[0] as SgNode, reader), ...block(list, reader)]
            : block(list, reader),
        fallsThrough: kindOf(stmts[stmts.length - 1]) === 'fallthrough_statement',
        isDefault: kindOf(c) === 'default_case',
      };
    });
}

function switchStatement(node: SgNode, reader: Reader, line: number): Stmt[] {
  const init = node.field('initializer');
  const before = init ? simple(init, reader) : [];
  const read = cases(node, reader);
  const opaque: Expr = { k: 'opaque', parts: [], line };
  if (kindOf(node) === 'expression_switch_statement' && !node.field('value')) {
    // `switch { case a > 1: ... }` is an if/else chain.
    let rest: Stmt[] = read.find((c) => c.isDefault)?.body ?? [];
    for (const c of [...read].reverse()) {
      if (c.isDefault) continue;
      const test = c.tests
        .map((t) => goCondition(t, reader.checks))
        .reduce<Expr | undefined>(
          (acc, t) => (acc ? { k: 'binary', op: '||', left: acc, right: t, line } : t),
          undefined,
        );
      rest = [{ k: 'if', test: test ?? opaque, whenTrue: c.body, whenFalse: rest, line }];
    }
    return [...before, ...rest];
  }
  const value = node.field('value');
  const subject = kindOf(node) === 'expression_switch_statement' && value ? goExpr(value) : opaque;
  // `switch v := x.(type)` binds v to x in every case.
  const alias =
    kindOf(node) === 'type_switch_statement' ? named(node).find((c) => kindOf(c) === 'expression_list') : undefined;
  const bind: Stmt[] = alias && value ? assignment(named(alias), [value], line, reader) : [];
  const out: Case[] = read.map((c) => ({
    // A type or channel case matches what the analysis cannot tell: a test it never decides.
    tests: c.isDefault ? [] : c.tests.length > 0 ? c.tests.map((t) => goExpr(t)) : [opaque],
    body: c.body,
    fallsThrough: c.fallsThrough,
  }));
  return [...before, ...bind, { k: 'switch', subject, cases: out, line }];
}

/** A simple statement (an `if`'s or `for`'s initializer, or one in a block), with its out-parameters. */
function simple(node: SgNode, reader: Reader): Stmt[] {
  const line = lineOf(node);
  switch (kindOf(node)) {
    case 'short_var_declaration':
    case 'assignment_statement': {
      const op = node.field('operator')?.text();
      const stmts = assignment(
        named(node.field('left')),
        named(node.field('right')),
        line,
        reader,
        op && op !== '=' && op !== ':=' ? op : undefined,
      );
      return [...stmts, ...outParams(node, line)];
    }
    case 'expression_statement':
      return named(node).flatMap((e) => [{ k: 'expr', expr: goExpr(e), line } as Stmt, ...outParams(e, line)]);
    default:
      return [];
  }
}

/** A Go statement in the analysis' vocabulary (several for a multiple assignment). */
export function statement(node: SgNode, reader: Reader): Stmt[] {
  const line = lineOf(node);
  switch (kindOf(node)) {
    case 'short_var_declaration':
    case 'assignment_statement':
    case 'expression_statement':
      return simple(node, reader);
    case 'var_declaration':
    case 'const_declaration':
      return named(node)
        .flatMap((c) => (kindOf(c) === 'var_spec_list' ? named(c) : [c]))
        .filter((c) => kindOf(c) === 'var_spec' || kindOf(c) === 'const_spec')
        .flatMap((c) => varSpec(c, reader));
    case 'block':
      return [{ k: 'block', body: block(node, reader), line }];
    case 'if_statement': {
      const init = node.field('initializer');
      const before = init ? simple(init, reader) : [];
      const test = node.field('condition');
      const alternative = node.field('alternative');
      if (!test) return before;
      return [
        ...before,
        {
          k: 'if',
          test: goCondition(test, reader.checks),
          whenTrue: block(node.field('consequence'), reader),
          whenFalse: alternative
            ? kindOf(alternative) === 'block'
              ? block(alternative, reader)
              : statement(alternative, reader)
            : [],
          line,
        },
      ];
    }
    case 'expression_switch_statement':
    case 'type_switch_statement':
    case 'select_statement':
      return switchStatement(node, reader, line);
    case 'for_statement': {
      const body = block(node.field('body'), reader);
      const head = named(node).find((c) => c !== node.field('body'));
      if (kindOf(head) === 'range_clause') {
        const left = named(head?.field('left'));
        const right = head?.field('right');
        const targets = left.map(target).filter((t): t is Target => t !== undefined);
        const to: Target | undefined = targets.length > 1 ? { k: 'tuple', items: targets } : targets[0];
        return [{ k: 'loop', target: to, iter: right ? goExpr(right) : undefined, body, line }];
      }
      if (kindOf(head) === 'for_clause') {
        const init = head?.field('initializer');
        const update = head?.field('update');
        return [
          ...(init ? simple(init, reader) : []),
          { k: 'loop', body: [...body, ...(update ? simple(update, reader) : [])], line },
        ];
      }
      return [{ k: 'loop', body, line }];
    }
    case 'return_statement': {
      const list = named(node)[0];
      return [{ k: 'return', value: list ? goExpr(list) : undefined, line }];
    }
    case 'go_statement':
    case 'defer_statement':
      return named(node).map((e): Stmt => ({ k: 'expr', expr: goExpr(e), line }));
    case 'labeled_statement':
      return named(node).flatMap((c) => (kindOf(c) === 'label_name' ? [] : statement(c, reader)));
    case 'receive_statement': {
      const left = named(node.field('left'));
      return left.length > 0 ? assignment(left, [], line, reader) : [];
    }
    default:
      return [];
  }
}

function params(list: SgNode | null): Param[] {
  return named(list).flatMap((p): Param[] => {
    const type = goType(p.field('type'));
    const names = p.namedChildren().filter((c) => kindOf(c) === 'identifier');
    // An unnamed parameter still takes its argument's position.
    if (names.length === 0) return [{ name: '_', type, markers: [], line: lineOf(p) }];
    return names.map((n) => ({ name: n.text(), type, markers: [], line: lineOf(p) }));
  });
}

function imports(specs: SgNode[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const spec of specs) {
    const alias = spec.field('name')?.text();
    const path = spec.field('path')?.text().slice(1, -1);
    // `import nethttp "net/http"`: the alias stands for the package's own name.
    const name = path
      ?.split('/')
      .filter((s) => !/^v\d+$/.test(s))
      .pop();
    if (alias && name && alias !== '_' && alias !== '.') aliases.set(alias, name);
  }
  return aliases;
}

/** What the file is read from, found in one search of the tree (syntax.ts). */
const KINDS = {
  declared: ['function_declaration', 'method_declaration'],
  literals: ['func_literal'],
  types: ['type_spec'],
  imports: ['import_spec'],
};

/** A Go file as the flow analysis reads it: functions, methods and function literals, and package-level declarations. */
export function goFile(root: SgNode): FileIR {
  const nodes = nodesByKind(root, KINDS);
  const declared = nodes.declared;
  const reader: Reader = {
    functions: new Set(
      declared.filter((d) => kindOf(d) === 'function_declaration').map((d) => d.field('name')?.text() ?? ''),
    ),
    methods: new Set(
      declared.filter((d) => kindOf(d) === 'method_declaration').map((d) => d.field('name')?.text() ?? ''),
    ),
    checks: new LocalChecks(),
  };
  const functions: FunctionIR[] = [...declared, ...nodes.literals].flatMap((node) => {
    const body = node.field('body');
    if (!body) return [];
    const receiver = kindOf(node) === 'method_declaration' ? named(node.field('receiver'))[0] : undefined;
    const receiverName = receiver?.field('name')?.text();
    const owner = receiver ? goType(receiver.field('type')) : undefined;
    const line = lineOf(node);
    return [
      lazily(
        {
          // A literal is never called by name: its own name cannot be an identifier.
          name: kindOf(node) === 'func_literal' ? `func@${line}` : (node.field('name')?.text() ?? ''),
          owner,
          markers: [],
          text: node.text(),
          line,
        },
        {
          params: () => params(node.field('parameters')),
          body: () => {
            // The receiver has its type, so calls of the type's other methods are followed.
            const self: Stmt[] = receiverName && owner ? [{ k: 'declare', name: receiverName, type: owner, line }] : [];
            return [...self, ...block(body, { ...reader, checks: new LocalChecks() })];
          },
        },
      ),
    ];
  });
  const globals = named(root)
    .filter((c) => kindOf(c) === 'var_declaration' || kindOf(c) === 'const_declaration')
    .flatMap((c) => statement(c, reader));
  // A method's receiver type is the file's too when the type is declared in another file of the package.
  const classes = [
    ...nodes.types.map((t) => t.field('name')?.text() ?? ''),
    ...functions.flatMap((f) => (f.owner ? [f.owner] : [])),
  ];
  return { functions, globals, classes, aliases: imports(nodes.imports) };
}
