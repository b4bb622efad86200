import type { SgNode } from '@ast-grep/napi';
import type { Stmt } from '../ir.js';
import { kindOf } from '../syntax.js';

/**
 * What reading one Ruby file needs beyond a node: Ruby's expressions hold statements (a block
 * body, an `if` used as a value), so reading an expression may emit statements that run before it.
 */
export interface RubyReader {
  /** Each heredoc opener (by start offset) to the body that holds its text. */
  heredocs: Map<number, SgNode>;
  /** Names of the file's methods: a bare name that is no local variable calls one of them. */
  methods: Set<string>;
  /** Local variable names per scope (method, or the whole file), by the scope node's id. */
  locals: Map<number, Set<string>>;
  /** Blocks read as functions of their own (Sinatra routes): not run where they are written. */
  functionBlocks: Set<number>;
  /** Statements the expression being read needs run first (its blocks, its `if` values). */
  pending: Stmt[];
  /** For names of values a block or an `if` expression leaves (`%v1`: no Ruby name clashes). */
  counter: number;
  /** The statement reader's entry points, set by it: a body's statements, one statement's. */
  statements: (node: SgNode | null | undefined) => Stmt[];
  statement: (node: SgNode) => Stmt[];
  /** One statement's, with the value it ends on assigned to `name`. */
  valueInto: (node: SgNode, name: string) => Stmt[];
}

const SCOPES = new Set(['method', 'singleton_method', 'program', 'class', 'module', 'lambda']);
const BINDERS = new Set([
  'method_parameters',
  'block_parameters',
  'lambda_parameters',
  'left_assignment_list',
  'exception_variable',
  'optional_parameter',
  'keyword_parameter',
  'splat_parameter',
  'hash_splat_parameter',
  'block_parameter',
  'rest_assignment',
  'destructured_parameter',
]);

/** The local variables of the scope a node is in: assigned, parameters, block and rescue variables. */
function localsOf(reader: RubyReader, node: SgNode): Set<string> {
  let scope: SgNode | null = node;
  while (scope && !SCOPES.has(kindOf(scope))) scope = scope.parent();
  if (!scope) return new Set();
  const id = scope.id();
  let locals = reader.locals.get(id);
  if (!locals) {
    locals = new Set();
    for (const n of scope.findAll({ rule: { kind: 'identifier' } })) {
      const parent = n.parent();
      const kind = kindOf(parent);
      const isTarget =
        ((kind === 'assignment' || kind === 'operator_assignment') && parent?.field('left')?.id() === n.id()) ||
        BINDERS.has(kind) ||
        (kind === 'for' && parent?.field('pattern')?.id() === n.id());
      if (isTarget) locals.add(n.text());
    }
    reader.locals.set(id, locals);
  }
  return locals;
}

/** Whether a bare identifier calls one of the file's methods rather than reading a local variable. */
export function isMethodCall(reader: RubyReader, node: SgNode): boolean {
  const name = node.text();
  return reader.methods.has(name) && !localsOf(reader, node).has(name);
}

/** A fresh name for a value computed by statements (a block's, an `if` expression's). */
export function freshName(reader: RubyReader): string {
  reader.counter += 1;
  return `%v${reader.counter}`;
}

/** Heredoc openers paired with their bodies: bodies follow in the order their openers appear. */
export function heredocsOf(root: SgNode): Map<number, SgNode> {
  const out = new Map<number, SgNode>();
  const openers = root.findAll({ rule: { kind: 'heredoc_beginning' } });
  if (openers.length === 0) return out;
  const bodies = root.findAll({ rule: { kind: 'heredoc_body' } });
  const byStart = (a: SgNode, b: SgNode) => a.range().start.index - b.range().start.index;
  openers.sort(byStart);
  bodies.sort(byStart);
  openers.forEach((o, i) => {
    const body = bodies[i];
    if (body) out.set(o.range().start.index, body);
  });
  return out;
}
