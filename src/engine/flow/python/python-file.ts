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
import { pythonDotted, pythonExpr } from './python-expr.js';

function target(node: SgNode): Target | undefined {
  const kind = kindOf(node);
  if (['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'expression_list'].includes(kind))
    return { k: 'tuple', items: named(node).flatMap((c) => target(c) ?? []) };
  const expr = pythonExpr(node);
  if (expr.k === 'name') return { k: 'name', name: expr.name };
  if (expr.k === 'attr') return { k: 'attr', object: expr.object, name: expr.name };
  if (expr.k === 'index') return { k: 'index', object: expr.object, index: expr.index };
  return undefined;
}

function assignment(node: SgNode): Stmt[] {
  const line = lineOf(node);
  const left = node.field('left');
  let right = node.field('right');
  // `a = b = value`: every target gets the innermost value.
  const targets = left ? [left] : [];
  while (right && kindOf(right) === 'assignment') {
    const next = right.field('left');
    if (next) targets.push(next);
    right = right.field('right');
  }
  if (!right) return [];
  const value = pythonExpr(right);
  const op = kindOf(node) === 'augmented_assignment' ? node.field('operator')?.text() : undefined;
  return targets.flatMap((t) => {
    const to = target(t);
    return to ? [{ k: 'assign', target: to, value, op, line } as Stmt] : [];
  });
}

function block(node: SgNode | null | undefined): Stmt[] {
  return named(node).flatMap(statement);
}

/** `if`/`elif`/`else` as nested two-way branches. */
function ifStatement(test: SgNode | null, consequence: SgNode | null, rest: SgNode[], line: number): Stmt[] {
  if (!test) return [];
  const [next, ...after] = rest;
  let otherwise: Stmt[] = [];
  if (next && kindOf(next) === 'elif_clause')
    otherwise = ifStatement(next.field('condition'), next.field('consequence'), after, lineOf(next));
  else if (next && kindOf(next) === 'else_clause') otherwise = block(next.field('body'));
  return [{ k: 'if', test: pythonExpr(test), whenTrue: block(consequence), whenFalse: otherwise, line }];
}

function matchCases(body: SgNode | null): Case[] {
  return named(body)
    .filter((c) => kindOf(c) === 'case_clause')
    .map((clause) => {
      const patterns = named(clause).filter((c) => kindOf(c) === 'case_pattern');
      // `case "a" | "b":` lists its literals inside a union pattern.
      const literals = patterns
        .flatMap((p) => named(p).flatMap((c) => (kindOf(c) === 'union_pattern' ? named(c) : [c])))
        .filter((c) => ['string', 'integer', 'float', 'true', 'false', 'none'].includes(kindOf(c)));
      // `case _:` and a bare capture match anything: the default; so does a pattern not modelled.
      const isDefault = literals.length === 0;
      return {
        tests: isDefault ? [] : literals.map((n) => pythonExpr(n)),
        body: block(clause.field('consequence')),
        fallsThrough: false,
      };
    });
}

/** A Python statement in the analysis' vocabulary (none for definitions, which are read apart). */
export function statement(node: SgNode): Stmt[] {
  const line = lineOf(node);
  switch (kindOf(node)) {
    case 'expression_statement':
      return named(node).flatMap((e) =>
        kindOf(e) === 'assignment' || kindOf(e) === 'augmented_assignment'
          ? assignment(e)
          : [{ k: 'expr', expr: pythonExpr(e), line } as Stmt],
      );
    case 'if_statement':
      return ifStatement(
        node.field('condition'),
        node.field('consequence'),
        named(node).filter((c) => ['elif_clause', 'else_clause'].includes(kindOf(c))),
        line,
      );
    case 'for_statement': {
      const left = node.field('left');
      const right = node.field('right');
      return [
        {
          k: 'loop',
          target: left ? target(left) : undefined,
          iter: right ? pythonExpr(right) : undefined,
          body: block(node.field('body')),
          line,
        },
      ];
    }
    case 'while_statement':
      return [{ k: 'loop', body: block(node.field('body')), line }];
    case 'try_statement': {
      // A handler may run after any part of the body: it is one more branch that may be taken.
      const out: Stmt[] = block(node.field('body'));
      for (const clause of named(node)) {
        const kind = kindOf(clause);
        const body = named(clause).find((c) => kindOf(c) === 'block');
        if (kind === 'except_clause' || kind === 'except_group_clause')
          out.push({ k: 'if', test: { k: 'opaque', parts: [], line }, whenTrue: block(body), whenFalse: [], line });
        if (kind === 'else_clause' || kind === 'finally_clause') out.push(...block(body));
      }
      return out;
    }
    case 'with_statement': {
      const out: Stmt[] = [];
      for (const item of node.findAll({ rule: { kind: 'with_item' } })) {
        const value = item.field('value');
        if (!value) continue;
        if (kindOf(value) === 'as_pattern') {
          const [expr, alias] = named(value);
          const to = named(alias)[0];
          const t = to ? target(to) : undefined;
          if (expr && t) out.push({ k: 'assign', target: t, value: pythonExpr(expr), line });
        } else out.push({ k: 'expr', expr: pythonExpr(value), line });
      }
      return [...out, ...block(node.field('body'))];
    }
    case 'match_statement': {
      const subject = node.field('subject') ?? named(node).find((c) => kindOf(c) !== 'block');
      return subject
        ? [{ k: 'switch', subject: pythonExpr(subject), cases: matchCases(node.field('body')), line }]
        : [];
    }
    case 'return_statement': {
      const value = named(node)[0];
      return [{ k: 'return', value: value ? pythonExpr(value) : undefined, line }];
    }
    case 'raise_statement':
      return [{ k: 'raise', line }];
    case 'delete_statement':
      // `del items[0]` removes as `items.pop(0)` does.
      return named(node)
        .flatMap((n) => (kindOf(n) === 'expression_list' ? named(n) : [n]))
        .filter((n) => kindOf(n) === 'subscript')
        .map((n): Stmt => {
          const object = n.field('value');
          const index = n.field('subscript');
          const call: Expr = {
            k: 'call',
            callee: '',
            name: 'pop',
            receiver: object ? pythonExpr(object) : undefined,
            args: index ? [pythonExpr(index)] : [],
            kwargs: {},
            line,
          };
          return { k: 'expr', expr: call, line };
        });
    case 'block':
      return block(node);
    default:
      return [];
  }
}

function params(fn: SgNode): Param[] {
  return named(fn.field('parameters')).flatMap((p): Param[] => {
    const kind = kindOf(p);
    if (kind === 'identifier') return [{ name: p.text(), markers: [], line: lineOf(p) }];
    const name =
      p.field('name')?.text() ??
      named(p)
        .find((c) => kindOf(c) === 'identifier')
        ?.text();
    if (!name) return [];
    const value = p.field('value');
    const markers = value && kindOf(value) === 'call' ? [pythonDotted(value.field('function'))] : [];
    const type = p.field('type')?.text();
    // `Annotated[str, Query()]` names its marker inside the type.
    for (const m of type?.matchAll(/\b([A-Z]\w*)\(/g) ?? []) if (m[1]) markers.push(m[1]);
    return [{ name, type, markers, line: lineOf(p) }];
  });
}

function decorators(fn: SgNode): string[] {
  const parent = fn.parent();
  if (kindOf(parent) !== 'decorated_definition') return [];
  return named(parent)
    .filter((d) => kindOf(d) === 'decorator')
    .map((d) => {
      const expr = named(d)[0];
      return kindOf(expr) === 'call' ? pythonDotted(expr?.field('function')) : pythonDotted(expr);
    });
}

function ownerOf(node: SgNode): string | undefined {
  for (let p = node.parent(); p; p = p.parent()) {
    if (kindOf(p) === 'function_definition') return undefined;
    if (kindOf(p) === 'class_definition') return p.field('name')?.text();
  }
  return undefined;
}

function imports(fromImports: SgNode[], aliasedImports: SgNode[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const node of fromImports) {
    const module = node.field('module_name')?.text() ?? '';
    for (const n of named(node).slice(1)) {
      const [name, alias] =
        kindOf(n) === 'aliased_import' ? [n.field('name')?.text(), n.field('alias')?.text()] : [n.text(), undefined];
      if (name) aliases.set(alias ?? name, `${module}.${name}`);
    }
  }
  for (const node of aliasedImports) {
    if (kindOf(node.parent()) !== 'import_statement') continue;
    const name = node.field('name')?.text();
    const alias = node.field('alias')?.text();
    if (name && alias) aliases.set(alias, name);
  }
  return aliases;
}

/** What the file is read from, found in one search of the tree (syntax.ts). */
const KINDS = {
  functions: ['function_definition'],
  classes: ['class_definition'],
  fromImports: ['import_from_statement'],
  aliasedImports: ['aliased_import'],
};

/** A Python file as the flow analysis reads it: every function and method, and module-level code. */
export function pythonFile(root: SgNode): FileIR {
  const nodes = nodesByKind(root, KINDS);
  const functions: FunctionIR[] = nodes.functions.map((fn) =>
    lazily(
      {
        name: fn.field('name')?.text() ?? '',
        markers: decorators(fn),
        text: fn.text(),
        line: lineOf(fn),
      },
      { params: () => params(fn), body: () => block(fn.field('body')), owner: () => ownerOf(fn) },
    ),
  );
  const classes = nodes.classes.map((c) => c.field('name')?.text() ?? '');
  return {
    functions,
    globals: named(root).flatMap(statement),
    classes,
    aliases: imports(nodes.fromImports, nodes.aliasedImports),
  };
}
