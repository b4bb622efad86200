import type { SgNode } from '@ast-grep/napi';
import type { Stmt } from '../ir.js';

/**
 * What reading one Ruby file needs beyond a node: Ruby's expressions hold statements (a block
 * body, an `if` used as a value), so reading an expression may emit statements that run before it.
 */
export interface RubyReader {
  /** Each heredoc opener (by start offset) to the body that holds its text. */
  heredocs: Map<number, SgNode>;
  /** Names of the file's methods: a bare name that is no local variable calls one of them. */
  methods: Set<string>;
  /** Whether a name is a local variable of the method being read (none are at class and file level). */
  isLocal: (name: string) => boolean;
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

/**
 * The names a scope (a method, a route block) binds as local variables, asked name by name:
 * assigned (`name =`, `name ||=`, `a, name =`), a parameter, a block parameter (`|a, name|`),
 * a `for` variable or a `rescue => name`. Read from the text: only names of the file's methods
 * are asked, and a tree walk per scope cost more than the rest of the reading.
 */
export function localsOf(scope: SgNode): (name: string) => boolean {
  const text = scope.text();
  const known = new Map<string, boolean>();
  return (name) => {
    let bound = known.get(name);
    if (bound === undefined) {
      const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern = new RegExp(
        [
          `(?<![\\w@$.:])${n}\\s*(?:\\|\\||&&|<<|>>|\\*\\*|[-+*/%|&^])?=(?![=~>])`,
          `(?<![\\w@$.:])${n}\\s*,[^\\n=]*[^=!<>]=(?![=~>])`,
          `\\|[^|\\n]*(?<![\\w@$.:])${n}\\b[^|\\n]*\\|`,
          `\\bdef[ \\t]+[\\w.?!]+[ \\t]*[( \\t][^\\n]*(?<![\\w@$.:])${n}\\b`,
          `\\bfor\\s+${n}\\b`,
          `=>\\s*${n}\\b`,
        ].join('|'),
      );
      bound = /^[a-z_]\w*$/.test(name) && pattern.test(text);
      known.set(name, bound);
    }
    return bound;
  };
}

/** Whether a bare identifier calls one of the file's methods rather than reading a local variable. */
export function isMethodCall(reader: RubyReader, node: SgNode): boolean {
  const name = node.text();
  return reader.methods.has(name) && !reader.isLocal(name);
}

/** A fresh name for a value computed by statements (a block's, an `if` expression's). */
export function freshName(reader: RubyReader): string {
  reader.counter += 1;
  return `%v${reader.counter}`;
}

/** Heredoc openers paired with their bodies: bodies follow in the order their openers appear. */
export function heredocsOf(openers: SgNode[], bodies: SgNode[]): Map<number, SgNode> {
  const out = new Map<number, SgNode>();
  if (openers.length === 0) return out;
  const byStart = (a: SgNode, b: SgNode) => a.range().start.index - b.range().start.index;
  openers.sort(byStart);
  bodies.sort(byStart);
  openers.forEach((o, i) => {
    const body = bodies[i];
    if (body) out.set(o.range().start.index, body);
  });
  return out;
}
