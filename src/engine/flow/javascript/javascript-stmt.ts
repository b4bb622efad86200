import type { SgNode } from '@ast-grep/napi';
import type { Case, Expr, Stmt, Target } from '../ir.js';
import { JAVASCRIPT_SPEC } from '../specs/javascript.js';
import { kindOf, lineOf, named } from '../syntax.js';
import { jsDotted, jsExpr } from './javascript-expr.js';

/** Properties whose assignment is a setter with an effect a sink names (`*.innerHTML=` for `el.innerHTML = x`). */
const setterSinks: ReadonlySet<string> = new Set(
  JAVASCRIPT_SPEC.sinks
    .flatMap((s) => s.calls)
    .filter((c) => c.endsWith('='))
    .map((c) => c.slice(c.lastIndexOf('.') + 1, -1)),
);

const isPure = (e: Expr): boolean => e.k === 'name' || (e.k === 'attr' && isPure(e.object));

/**
 * A destructuring pattern bound to a value: each name gets the field or element it reads
 * (`const { id, name: n = 'x', ...rest } = req.query`). A value that is not a plain name or
 * member chain is stored once first, under the pattern's text, so a call is not run per field.
 */
export function destructure(pattern: SgNode, value: Expr, line: number, out: Stmt[]): void {
  const kind = kindOf(pattern);
  if ((kind === 'object_pattern' || kind === 'array_pattern') && !isPure(value)) {
    const temp = pattern.text().replace(/\s+/g, ' ').slice(0, 60);
    out.push({ k: 'assign', target: { k: 'name', name: temp }, value, line });
    value = { k: 'name', name: temp, line };
  }
  const withDefault = (v: Expr, fallback: SgNode | null): Expr =>
    fallback ? { k: 'binary', op: '??', left: v, right: jsExpr(fallback, line), line } : v;
  switch (kind) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      out.push({ k: 'assign', target: { k: 'name', name: pattern.text() }, value, line });
      return;
    case 'member_expression':
    case 'subscript_expression': {
      const to = target(pattern);
      if (to) out.push({ k: 'assign', target: to, value, line });
      return;
    }
    case 'assignment_pattern':
    case 'object_assignment_pattern': {
      const left = pattern.field('left');
      if (left) destructure(left, withDefault(value, pattern.field('right')), line, out);
      return;
    }
    case 'rest_pattern': {
      const inner = named(pattern)[0];
      if (inner) destructure(inner, { k: 'opaque', parts: [value], line }, line, out);
      return;
    }
    case 'object_pattern':
      for (const child of named(pattern)) {
        const childKind = kindOf(child);
        if (childKind === 'shorthand_property_identifier_pattern')
          destructure(child, { k: 'attr', object: value, name: child.text(), line }, line, out);
        else if (childKind === 'object_assignment_pattern') {
          const left = child.field('left');
          if (left)
            destructure(
              left,
              withDefault({ k: 'attr', object: value, name: left.text(), line }, child.field('right')),
              line,
              out,
            );
        } else if (childKind === 'pair_pattern') {
          const key = child.field('key');
          const inner = child.field('value');
          if (!key || !inner) continue;
          const read: Expr =
            kindOf(key) === 'computed_property_name'
              ? { k: 'index', object: value, index: jsExpr(named(key)[0] ?? key, line), line }
              : { k: 'attr', object: value, name: key.text().replace(/^['"]|['"]$/g, ''), line };
          destructure(inner, read, line, out);
        } else if (childKind === 'rest_pattern') destructure(child, value, line, out);
      }
      return;
    case 'array_pattern':
      named(pattern).forEach((child, i) => {
        const read: Expr =
          kindOf(child) === 'rest_pattern'
            ? value
            : { k: 'index', object: value, index: { k: 'const', value: i, line }, line };
        destructure(child, read, line, out);
      });
      return;
  }
}

function target(node: SgNode): Target | undefined {
  const expr = jsExpr(node);
  if (expr.k === 'name') return { k: 'name', name: expr.name };
  if (expr.k === 'attr') return { k: 'attr', object: expr.object, name: expr.name };
  if (expr.k === 'index') return { k: 'index', object: expr.object, index: expr.index };
  return undefined;
}

/** `el.innerHTML = v` runs a setter: a call the sinks can name (`*.innerHTML=`), after the write. */
function setterCall(left: SgNode, line: number): Stmt[] {
  if (kindOf(left) !== 'member_expression') return [];
  const property = left.field('property')?.text() ?? '';
  const object = left.field('object');
  if (!setterSinks.has(property) || !object) return [];
  const dotted = jsDotted(left);
  const call: Expr = {
    k: 'call',
    callee: dotted ? `${dotted}=` : '',
    name: `${property}=`,
    receiver: jsExpr(object, line),
    args: [jsExpr(left, line)],
    kwargs: {},
    line,
  };
  return [{ k: 'expr', expr: call, line }];
}

function assignment(node: SgNode): Stmt[] {
  const line = lineOf(node);
  const left = node.field('left');
  let right = node.field('right');
  // `a = b = value`: every target gets the innermost value.
  const targets = left ? [left] : [];
  while (right && kindOf(right) === 'assignment_expression') {
    const next = right.field('left');
    if (next) targets.push(next);
    right = right.field('right');
  }
  if (!right) return [];
  const value = jsExpr(right);
  const operator = kindOf(node) === 'augmented_assignment_expression' ? node.field('operator')?.text() : undefined;
  // `x ??= y`, `x ||= y` keep x or take y: either may be what x holds after.
  const op = operator && !['??=', '||=', '&&='].includes(operator) ? operator : undefined;
  const out: Stmt[] = [];
  for (const t of targets) {
    const kind = kindOf(t);
    if (kind === 'object_pattern' || kind === 'array_pattern') destructure(t, value, line, out);
    else {
      const to = target(t);
      const merged: Expr =
        operator && !op ? { k: 'binary', op: '||', left: jsExpr(t, line), right: value, line } : value;
      if (to) out.push({ k: 'assign', target: to, value: merged, op, line }, ...setterCall(t, line));
    }
  }
  return out;
}

function declarations(node: SgNode): Stmt[] {
  const out: Stmt[] = [];
  for (const d of named(node).filter((c) => kindOf(c) === 'variable_declarator')) {
    const name = d.field('name');
    const value = d.field('value');
    if (!name || !value) continue;
    // Functions bound to a name are read apart, as functions of the file.
    if (['arrow_function', 'function_expression', 'generator_function', 'class'].includes(kindOf(value))) continue;
    const type = d.field('type')?.text().replace(/^:\s*/, '');
    if (kindOf(name) === 'identifier')
      out.push({ k: 'assign', target: { k: 'name', name: name.text(), type }, value: jsExpr(value), line: lineOf(d) });
    else destructure(name, jsExpr(value), lineOf(d), out);
  }
  return out;
}

function switchCases(body: SgNode | null): Case[] {
  return named(body).map((clause): Case => {
    const test = clause.field('value');
    const statements = named(clause).filter((c) => c !== test && c.id() !== test?.id());
    const last = statements[statements.length - 1];
    const ends =
      last !== undefined &&
      ['break_statement', 'return_statement', 'throw_statement', 'continue_statement'].includes(kindOf(last));
    return {
      tests: kindOf(clause) === 'switch_default' || !test ? [] : [jsExpr(test)],
      body: statements.flatMap(statement),
      fallsThrough: !ends,
    };
  });
}

const unwrap = (node: SgNode | null): SgNode | null =>
  node && kindOf(node) === 'parenthesized_expression' ? (named(node)[0] ?? node) : node;

/** A JavaScript statement in the analysis' vocabulary (none for definitions, which are read apart). */
export function statement(node: SgNode): Stmt[] {
  const line = lineOf(node);
  const body = (n: SgNode | null | undefined): Stmt[] => (n ? statement(n) : []);
  switch (kindOf(node)) {
    case 'expression_statement':
      return named(node).flatMap((e) =>
        kindOf(e) === 'assignment_expression' || kindOf(e) === 'augmented_assignment_expression'
          ? assignment(e)
          : [{ k: 'expr', expr: jsExpr(e), line } as Stmt],
      );
    case 'lexical_declaration':
    case 'variable_declaration':
      return declarations(node);
    case 'statement_block':
      return [{ k: 'block', body: named(node).flatMap(statement), line }];
    case 'if_statement': {
      const test = unwrap(node.field('condition'));
      const otherwise = node.field('alternative');
      return test
        ? [
            {
              k: 'if',
              test: jsExpr(test),
              whenTrue: body(node.field('consequence')),
              whenFalse: otherwise ? named(otherwise).flatMap(statement) : [],
              line,
            },
          ]
        : [];
    }
    case 'switch_statement': {
      const subject = unwrap(node.field('value'));
      return subject ? [{ k: 'switch', subject: jsExpr(subject), cases: switchCases(node.field('body')), line }] : [];
    }
    case 'while_statement':
    case 'do_statement':
      return [{ k: 'loop', body: body(node.field('body')), line }];
    case 'for_statement': {
      const init = node.field('initializer') ?? named(node)[0];
      const head = init && kindOf(init).endsWith('declaration') ? statement(init) : [];
      return [...head, { k: 'loop', body: body(node.field('body')), line }];
    }
    case 'for_in_statement': {
      const left = node.field('left');
      const right = node.field('right');
      const out: Stmt[] = [];
      // The loop variable takes an element of the iterable, destructured when it is a pattern.
      if (left && kindOf(left) !== 'identifier') destructure(left, { k: 'name', name: '%element', line }, line, out);
      return [
        {
          k: 'loop',
          target: { k: 'name', name: left && kindOf(left) === 'identifier' ? left.text() : '%element' },
          iter: right ? jsExpr(right) : undefined,
          body: [...out, ...body(node.field('body'))],
          line,
        },
      ];
    }
    case 'try_statement': {
      // A handler may run after any part of the body: it is one more branch that may be taken.
      const out: Stmt[] = body(node.field('body'));
      const handler = node.field('handler') ?? named(node).find((c) => kindOf(c) === 'catch_clause');
      if (handler)
        out.push({
          k: 'if',
          test: { k: 'opaque', parts: [], line },
          whenTrue: body(handler.field('body')),
          whenFalse: [],
          line,
        });
      const finalizer = node.field('finalizer') ?? named(node).find((c) => kindOf(c) === 'finally_clause');
      if (finalizer) out.push(...body(finalizer.field('body')));
      return out;
    }
    case 'return_statement': {
      const value = named(node)[0];
      return [{ k: 'return', value: value ? jsExpr(value) : undefined, line }];
    }
    case 'throw_statement':
      return [{ k: 'raise', line }];
    case 'labeled_statement':
      return body(node.field('body'));
    case 'export_statement': {
      const declaration = node.field('declaration');
      return declaration ? statement(declaration) : [];
    }
    default:
      return [];
  }
}
