import type { SgNode } from '@ast-grep/napi';
import { type Case, type FileIR, type FunctionIR, lazily, type Param, type Stmt, type Target } from '../ir.js';
import { kindOf, lineOf, named, nodesByKind } from '../syntax.js';
import { javaExpr, typeName } from './java-expr.js';

/** Annotation names on a declaration's modifiers (`RequestParam`, `GetMapping`). */
function annotations(node: SgNode): string[] {
  const modifiers = node.children().find((c) => kindOf(c) === 'modifiers');
  return named(modifiers)
    .filter((c) => kindOf(c) === 'annotation' || kindOf(c) === 'marker_annotation')
    .map((a) => a.field('name')?.text() ?? '');
}

function declarations(node: SgNode): Stmt[] {
  const type = typeName(node.field('type'));
  return node
    .children()
    .filter((c) => kindOf(c) === 'variable_declarator')
    .map((d): Stmt => {
      const name = d.field('name')?.text() ?? '';
      const value = d.field('value');
      return value
        ? { k: 'assign', target: { k: 'name', name, type }, value: javaExpr(value), line: lineOf(d) }
        : { k: 'declare', name, type: type ?? '', line: lineOf(d) };
    });
}

function target(node: SgNode): Target | undefined {
  const expr = javaExpr(node);
  if (expr.k === 'name') return { k: 'name', name: expr.name };
  if (expr.k === 'attr') return { k: 'attr', object: expr.object, name: expr.name };
  if (expr.k === 'index') return { k: 'index', object: expr.object, index: expr.index };
  return undefined;
}

function expressionStatement(node: SgNode): Stmt[] {
  const line = lineOf(node);
  if (kindOf(node) === 'assignment_expression') {
    const left = node.field('left');
    const right = node.field('right');
    const to = left ? target(left) : undefined;
    if (!to || !right) return [];
    const op = node.field('operator')?.text() ?? '=';
    return [{ k: 'assign', target: to, value: javaExpr(right), op: op === '=' ? undefined : op, line }];
  }
  if (kindOf(node) === 'update_expression') return [];
  return [{ k: 'expr', expr: javaExpr(node), line }];
}

function switchCases(body: SgNode | null): Case[] {
  return named(body).map((group): Case => {
    const labels = group.children().filter((c) => kindOf(c) === 'switch_label');
    const tests = labels.flatMap((l) => named(l).map((n) => javaExpr(n)));
    const isDefault = labels.some((l) => l.text().startsWith('default'));
    const statements = named(group).filter((c) => kindOf(c) !== 'switch_label');
    const stmts = statements.flatMap(statement);
    // `case X ->` never falls through; a group without break, return or throw at its end does.
    const last = statements[statements.length - 1];
    const ends =
      last !== undefined &&
      ['break_statement', 'return_statement', 'throw_statement', 'continue_statement', 'yield_statement'].includes(
        kindOf(last),
      );
    return { tests: isDefault ? [] : tests, body: stmts, fallsThrough: kindOf(group) !== 'switch_rule' && !ends };
  });
}

/** A Java statement in the analysis' vocabulary (several when it declares several variables). */
export function statement(node: SgNode): Stmt[] {
  const line = lineOf(node);
  const kind = kindOf(node);
  const body = (n: SgNode | null): Stmt[] => (n ? statement(n) : []);
  switch (kind) {
    case 'local_variable_declaration':
    case 'field_declaration':
      return declarations(node);
    case 'expression_statement':
      return named(node).flatMap(expressionStatement);
    case 'block':
    case 'constructor_body':
      return [{ k: 'block', body: named(node).flatMap(statement), line }];
    case 'if_statement': {
      const test = node.field('condition');
      return test
        ? [
            {
              k: 'if',
              test: javaExpr(test),
              whenTrue: body(node.field('consequence')),
              whenFalse: body(node.field('alternative')),
              line,
            },
          ]
        : [];
    }
    case 'switch_expression':
    case 'switch_statement': {
      const subject = node.field('condition');
      return subject ? [{ k: 'switch', subject: javaExpr(subject), cases: switchCases(node.field('body')), line }] : [];
    }
    case 'while_statement':
    case 'do_statement':
      return [{ k: 'loop', body: body(node.field('body')), line }];
    case 'for_statement': {
      const init = node.field('init');
      return [...(init ? statement(init) : []), { k: 'loop', body: body(node.field('body')), line }];
    }
    case 'enhanced_for_statement': {
      const iter = node.field('value');
      const name = node.field('name')?.text() ?? '';
      return [
        {
          k: 'loop',
          target: { k: 'name', name, type: typeName(node.field('type')) },
          iter: iter ? javaExpr(iter) : undefined,
          body: body(node.field('body')),
          line,
        },
      ];
    }
    case 'return_statement': {
      const value = named(node)[0];
      return [{ k: 'return', value: value ? javaExpr(value) : undefined, line }];
    }
    case 'throw_statement':
      return [{ k: 'raise', line }];
    case 'try_statement':
    case 'try_with_resources_statement': {
      // A handler may run after any part of the body: it is one more branch that may be taken.
      const resources = node.field('resources');
      const out: Stmt[] = named(resources).flatMap((r) => {
        const value = r.field('value');
        const name = r.field('name')?.text();
        return value && name
          ? [
              {
                k: 'assign',
                target: { k: 'name', name, type: typeName(r.field('type')) },
                value: javaExpr(value),
                line,
              } as Stmt,
            ]
          : [];
      });
      out.push(...body(node.field('body')));
      for (const clause of named(node)) {
        if (kindOf(clause) === 'catch_clause')
          out.push({
            k: 'if',
            test: { k: 'opaque', parts: [], line },
            whenTrue: body(clause.field('body')),
            whenFalse: [],
            line,
          });
        if (kindOf(clause) === 'finally_clause') out.push(...named(clause).flatMap(statement));
      }
      return out;
    }
    case 'synchronized_statement':
    case 'labeled_statement':
      return named(node)
        .filter((c) => kindOf(c) === 'block' || kindOf(c).endsWith('statement'))
        .flatMap(statement);
    default:
      return [];
  }
}

function params(node: SgNode): Param[] {
  return named(node.field('parameters'))
    .filter((p) => kindOf(p) === 'formal_parameter' || kindOf(p) === 'spread_parameter')
    .map((p) => ({
      name:
        p.field('name')?.text() ??
        named(p)
          .find((c) => kindOf(c) === 'variable_declarator')
          ?.field('name')
          ?.text() ??
        '',
      type: typeName(
        p.field('type') ?? named(p).find((c) => kindOf(c).endsWith('type') || kindOf(c) === 'type_identifier') ?? null,
      ),
      markers: annotations(p),
      line: lineOf(p),
    }));
}

/** The enclosing class's name of a member, '' at top level. */
function ownerOf(node: SgNode): string {
  for (let p = node.parent(); p; p = p.parent()) {
    if (['class_declaration', 'enum_declaration', 'record_declaration', 'interface_declaration'].includes(kindOf(p)))
      return p.field('name')?.text() ?? '';
  }
  return '';
}

/** What the file is read from, found in one search of the tree (syntax.ts). */
const KINDS = {
  methods: ['method_declaration'],
  constructors: ['constructor_declaration'],
  fields: ['field_declaration'],
  classes: ['class_declaration', 'enum_declaration', 'record_declaration'],
};

/** A Java file as the flow analysis reads it: every method and constructor, and class fields. */
export function javaFile(root: SgNode): FileIR {
  const nodes = nodesByKind(root, KINDS);
  const functions: FunctionIR[] = [];
  // Methods first, then constructors: the order the functions are run in.
  for (const list of [nodes.methods, nodes.constructors]) {
    for (const node of list) {
      const body = node.field('body');
      if (!body) continue;
      const fn = { name: node.field('name')?.text() ?? '', text: node.text(), line: lineOf(node) };
      functions.push(
        lazily(fn, {
          params: () => params(node),
          body: () => statement(body),
          owner: () => ownerOf(node),
          markers: () => annotations(node),
        }),
      );
    }
  }
  const globals = nodes.fields.flatMap(declarations);
  const classes = nodes.classes.map((c) => c.field('name')?.text() ?? '');
  const enums = nodes.classes.filter((c) => kindOf(c) === 'enum_declaration').map((c) => c.field('name')?.text() ?? '');
  return { functions, globals, classes, enums, aliases: new Map() };
}
