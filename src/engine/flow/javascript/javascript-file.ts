import type { SgNode } from '@ast-grep/napi';
import { type Expr, type FileIR, type FunctionIR, lazily, type Param, type Stmt } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';
import { jsDotted, jsExpr } from './javascript-expr.js';
import { destructure, statement } from './javascript-stmt.js';

const FUNCTION_KINDS = [
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'generator_function',
  'arrow_function',
  'method_definition',
];

/**
 * Nodes of any of these kinds; a kind the file's grammar does not have (TypeScript's
 * `abstract_class_declaration` in JavaScript, `field_definition` against `public_field_definition`)
 * is left out rather than failing the search.
 */
function findKinds(root: SgNode, kinds: string[]): SgNode[] {
  try {
    return root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } });
  } catch {
    return kinds.flatMap((kind) => {
      try {
        return root.findAll({ rule: { kind } });
      } catch {
        return [];
      }
    });
  }
}

/** A decorator's name as written: `Query` for `@Query('id')`, `Injectable` for `@Injectable`. */
function decoratorName(decorator: SgNode): string {
  const expr = named(decorator)[0];
  return kindOf(expr) === 'call_expression' ? jsDotted(expr?.field('function')) : jsDotted(expr);
}

/**
 * What a parameter decorator's call is given besides its name: the pipes of NestJS's
 * `@Param('id', ParseIntPipe)` or `@Query('on', new ParseBoolPipe())`, by class name.
 */
function decoratorArguments(decorator: SgNode): string[] {
  const expr = named(decorator)[0];
  if (kindOf(expr) !== 'call_expression') return [];
  return named(expr?.field('arguments')).flatMap((arg) => {
    const kind = kindOf(arg);
    if (kind === 'identifier' || kind === 'member_expression') return [jsDotted(arg)];
    if (kind === 'new_expression') return [jsDotted(arg.field('constructor'))];
    return [];
  });
}

/** The decorators written before a class member (siblings in the class body). */
function memberDecorators(member: SgNode): string[] {
  const out: string[] = [];
  for (let prev = member.prev(); prev && kindOf(prev) === 'decorator'; prev = prev.prev())
    out.unshift(decoratorName(prev));
  return out;
}

const typeOf = (node: SgNode | null): string | undefined =>
  /^:?\s*([\w$.]+)/.exec(node?.text() ?? '')?.[1] ?? undefined;

/**
 * Parameters, and the statements that bind a destructured one (`({ searchParams }) =>`): such a
 * parameter is named by its pattern's text and marked with the names it destructures.
 */
function readParams(fn: SgNode): { params: Param[]; prologue: Stmt[] } {
  const params: Param[] = [];
  const prologue: Stmt[] = [];
  const list = fn.field('parameters') ?? fn.field('parameter');
  const nodes = kindOf(list) === 'identifier' ? (list ? [list] : []) : named(list);
  for (const p of nodes) {
    const line = lineOf(p);
    const kind = kindOf(p);
    const wrapped = kind === 'required_parameter' || kind === 'optional_parameter';
    let pattern: SgNode | null = wrapped ? p.field('pattern') : p;
    const markers = wrapped
      ? named(p)
          .filter((c) => kindOf(c) === 'decorator')
          .flatMap((d) => [decoratorName(d), ...decoratorArguments(d)])
      : [];
    const type = wrapped ? typeOf(p.field('type')) : undefined;
    if (pattern && kindOf(pattern) === 'assignment_pattern') pattern = pattern.field('left');
    if (pattern && kindOf(pattern) === 'rest_pattern') pattern = named(pattern)[0] ?? null;
    if (!pattern || kindOf(pattern) === 'this') continue;
    if (kindOf(pattern) === 'identifier') {
      params.push({ name: pattern.text(), type, markers, line });
      continue;
    }
    const name = pattern.text().replace(/\s+/g, ' ').slice(0, 60);
    const keys = named(pattern).map((c) => (kindOf(c) === 'pair_pattern' ? (c.field('key')?.text() ?? '') : c.text()));
    params.push({ name, type, markers: [...markers, ...keys], line });
    destructure(pattern, { k: 'name', name, line }, line, prologue);
  }
  return { params, prologue };
}

function readBody(fn: SgNode): Stmt[] {
  const body = fn.field('body');
  if (!body) return [];
  if (kindOf(body) === 'statement_block') return named(body).flatMap(statement);
  // `(x) => x.trim()`: the expression is what it returns.
  return [{ k: 'return', value: jsExpr(body), line: lineOf(body) }];
}

/** The name a function is called by: declared, of its method, or of what it is bound to. */
function nameOf(fn: SgNode): string {
  const own = fn.field('name');
  if (own && kindOf(fn) !== 'function_expression') return own.text();
  const parent = fn.parent();
  switch (kindOf(parent)) {
    case 'variable_declarator':
      return parent?.field('name')?.text() ?? '';
    case 'pair':
      return (
        parent
          ?.field('key')
          ?.text()
          .replace(/^['"]|['"]$/g, '') ?? ''
      );
    case 'public_field_definition':
    case 'field_definition':
      return parent?.field('name')?.text() ?? parent?.field('property')?.text() ?? '';
    case 'assignment_expression': {
      const left = parent?.field('left');
      return kindOf(left) === 'member_expression' ? (left?.field('property')?.text() ?? '') : (left?.text() ?? '');
    }
  }
  // A callback (`app.get('/x', (req, res) => ...)`) is not called by name: no call may reach it.
  return own?.text() ?? `(function@${lineOf(fn)})`;
}

/** The class a method belongs to, or the object literal's variable (`const utils = { clean() {} }`). */
function ownerOf(fn: SgNode): string | undefined {
  for (let p = fn.parent(); p; p = p.parent()) {
    const kind = kindOf(p);
    if (FUNCTION_KINDS.includes(kind)) return undefined;
    if (kind === 'class_declaration' || kind === 'class' || kind === 'abstract_class_declaration')
      return p.field('name')?.text();
    if (kind === 'object' && kindOf(p.parent()) === 'variable_declarator') return p.parent()?.field('name')?.text();
  }
  return undefined;
}

/** For a callback registered with a call (`router.post('/x', handler)`), that call's name. */
function registeredWith(fn: SgNode): string[] {
  const args = fn.parent();
  if (kindOf(args) !== 'arguments') return [];
  const callee = jsDotted(args?.parent()?.field('function'));
  return callee ? [callee] : [];
}

const unquote = (text: string): string => text.replace(/^['"`]|['"`]$/g, '').replace(/^node:/, '');

/** `require('x')` as the callee: the calls a module is bound from. */
const REQUIRE_CALL = { kind: 'call_expression', has: { field: 'function', kind: 'identifier', regex: '^require$' } };

/** Names bound by imports and requires to what they name (`exec` -> `child_process.exec`). */
function imports(importNodes: SgNode[], requireCalls: SgNode[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const node of importNodes) {
    const module = unquote(node.field('source')?.text() ?? '');
    const clause = named(node).find((c) => kindOf(c) === 'import_clause');
    for (const part of named(clause)) {
      const kind = kindOf(part);
      if (kind === 'identifier') aliases.set(part.text(), module);
      else if (kind === 'namespace_import') {
        const alias = named(part)[0]?.text();
        if (alias) aliases.set(alias, module);
      } else if (kind === 'named_imports') {
        for (const spec of named(part)) {
          const name = spec.field('name')?.text();
          const alias = spec.field('alias')?.text() ?? name;
          if (name && alias) aliases.set(alias, `${module}.${name}`);
        }
      }
    }
  }
  // `const cp = require('child_process')`, `const { exec } = require('child_process')`.
  // Found from the `require(...)` calls up: a regular expression on every declarator's value costs far more.
  for (const value of requireCalls) {
    let path = '';
    let decl = value.parent();
    while (decl && kindOf(decl) === 'member_expression') {
      path = `${path}.${decl.field('property')?.text() ?? ''}`;
      decl = decl.parent();
    }
    if (!decl || kindOf(decl) !== 'variable_declarator') continue;
    const arg = named(value.field('arguments'))[0];
    if (kindOf(arg) !== 'string' || !arg) continue;
    const module = unquote(arg.text()) + path;
    const name = decl.field('name');
    if (kindOf(name) === 'identifier' && name) aliases.set(name.text(), module);
    else if (kindOf(name) === 'object_pattern')
      for (const c of named(name)) {
        if (kindOf(c) === 'shorthand_property_identifier_pattern') aliases.set(c.text(), `${module}.${c.text()}`);
        else if (kindOf(c) === 'pair_pattern') {
          const alias = c.field('value')?.text();
          if (alias) aliases.set(alias, `${module}.${c.field('key')?.text() ?? ''}`);
        }
      }
  }
  return aliases;
}

/** Class fields with a value, as writes to `this.name` (or `Class.name` when static), run before each method. */
function classFields(fields: SgNode[]): Stmt[] {
  const out: Stmt[] = [];
  for (const field of fields) {
    if (kindOf(field.parent()) !== 'class_body') continue;
    const value = field.field('value');
    const name = (field.field('name') ?? field.field('property'))?.text();
    if (!value || !name || FUNCTION_KINDS.includes(kindOf(value))) continue;
    const owner = ownerOf(field);
    const isStatic = field.children().some((c) => c.text() === 'static');
    const object: Expr = { k: 'name', name: isStatic && owner ? owner : 'this', line: lineOf(field) };
    out.push({ k: 'assign', target: { k: 'attr', object, name }, value: jsExpr(value), line: lineOf(field) });
  }
  return out;
}

const FIELD_KINDS = ['public_field_definition', 'field_definition'];

interface Nodes {
  functions: SgNode[];
  fields: SgNode[];
  imports: SgNode[];
  requires: SgNode[];
}

/**
 * The nodes the file is read from, in one search of the tree instead of four (each walks the
 * whole tree): the query holds every kind the grammar has (JavaScript has no
 * `public_field_definition`, TypeScript may lack `field_definition`), as `findKinds` would keep.
 * Each node's kind tells its list; each list is in tree order, as its own search returned it.
 */
function nodesOf(root: SgNode): Nodes {
  for (const fieldKinds of [FIELD_KINDS, ['field_definition'], ['public_field_definition']]) {
    let found: SgNode[];
    try {
      found = root.findAll({
        rule: {
          any: [...[...FUNCTION_KINDS, ...fieldKinds, 'import_statement'].map((kind) => ({ kind })), REQUIRE_CALL],
        },
      });
    } catch {
      continue;
    }
    const nodes: Nodes = { functions: [], fields: [], imports: [], requires: [] };
    for (const node of found) {
      const kind = kindOf(node);
      if (kind === 'import_statement') nodes.imports.push(node);
      else if (kind === 'call_expression') nodes.requires.push(node);
      else if (fieldKinds.includes(kind)) nodes.fields.push(node);
      else nodes.functions.push(node);
    }
    return nodes;
  }
  return {
    functions: findKinds(root, FUNCTION_KINDS),
    fields: findKinds(root, FIELD_KINDS),
    imports: root.findAll({ rule: { kind: 'import_statement' } }),
    requires: root.findAll({ rule: REQUIRE_CALL }),
  };
}

/** A JavaScript or TypeScript file as the flow analysis reads it: every function, method and callback, and module-level code. */
export function javascriptFile(root: SgNode): FileIR {
  const nodes = nodesOf(root);
  const functions: FunctionIR[] = nodes.functions.map((fn) =>
    lazily(
      { name: nameOf(fn), text: fn.text(), line: lineOf(fn) },
      {
        params: () => readParams(fn).params,
        body: () => [...readParams(fn).prologue, ...readBody(fn)],
        owner: () => ownerOf(fn),
        markers: () => (kindOf(fn) === 'method_definition' ? memberDecorators(fn) : registeredWith(fn)),
      },
    ),
  );
  const file: FileIR = {
    functions,
    globals: [...named(root).flatMap(statement), ...classFields(nodes.fields)],
    classes: [],
    aliases: imports(nodes.imports, nodes.requires),
  };
  // Read when the analysis first asks (a call on a receiver naming one of the file's functions):
  // it needs every function's owner, a walk up the tree each.
  let classes: string[] | undefined;
  return Object.defineProperty(file, 'classes', {
    get: () => {
      if (classes) return classes;
      classes = findKinds(root, ['class_declaration', 'abstract_class_declaration']).map(
        (c) => c.field('name')?.text() ?? '',
      );
      // Objects of functions (`const utils = { clean(s) {...} }`) are called like a class's static methods.
      for (const fn of functions) if (fn.owner && !classes.includes(fn.owner)) classes.push(fn.owner);
      return classes;
    },
    enumerable: true,
  });
}
