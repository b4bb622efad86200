import type { SgNode } from '@ast-grep/napi';
import { type FileIR, type FunctionIR, lazily, type Param, type Stmt } from '../ir.js';
import { kindOf, lineOf, named, nodesByKind } from '../syntax.js';
import { rubyDotted, rubyExpr } from './ruby-expr.js';
import { withLastValue } from './ruby-last-value.js';
import { heredocsOf, localsOf, type RubyReader } from './ruby-reader.js';
import { statement, statementsOf, valueInto } from './ruby-stmt.js';

const BODIES = new Set(['body_statement', 'block_body', 'then', 'else', 'do', 'begin', 'parenthesized_statements']);

/** A method's or block's statements, its last value returned (Ruby's implicit return). */
function bodyOf(r: RubyReader, scope: SgNode, body: SgNode | null | undefined): Stmt[] {
  if (!body) return [];
  const outer = r.isLocal;
  r.isLocal = localsOf(scope);
  try {
    if (!BODIES.has(kindOf(body))) {
      // `def name = expression`
      return [{ k: 'return', value: rubyExpr(r, body), line: lineOf(body) }];
    }
    return withLastValue(statementsOf(r, body), (value, line) => ({ k: 'return', value, line }));
  } finally {
    r.isLocal = outer;
  }
}

function parameters(node: SgNode | null | undefined): Param[] {
  return named(node).flatMap((p): Param[] => {
    const kind = kindOf(p);
    if (kind === 'identifier') return [{ name: p.text(), markers: [], line: lineOf(p) }];
    if (kind === 'block_parameter' || kind === 'destructured_parameter') return [];
    const name = p.field('name')?.text();
    return name ? [{ name, markers: [], line: lineOf(p) }] : [];
  });
}

function enclosingClass(node: SgNode): SgNode | undefined {
  for (let p = node.parent(); p; p = p.parent()) {
    const kind = kindOf(p);
    if (kind === 'method' || kind === 'singleton_method') return undefined;
    if (kind === 'class' || kind === 'module') return p;
  }
  return undefined;
}

const nameOf = (cls: SgNode | undefined): string | undefined =>
  cls ? rubyDotted(cls.field('name')).split('.').pop() : undefined;

/**
 * Blocks of a receiver-less call written at class or file level (`get '/x' do ... end`, or in
 * such a block: `namespace '/api' do get ... end`): framework declarations whose block runs per
 * request, read as functions of their own. Found top-down through statement lists only.
 */
function functionBlocks(root: SgNode): SgNode[] {
  const out: SgNode[] = [];
  const visit = (container: SgNode | null | undefined): void => {
    for (const node of named(container)) {
      const kind = kindOf(node);
      if (kind === 'class' || kind === 'module') visit(node.field('body'));
      else if (kind === 'call' && !node.field('receiver') && kindOf(node.field('method')) === 'identifier') {
        const block = node.field('block');
        if (block) {
          out.push(block);
          visit(block.field('body'));
        }
      }
    }
  };
  visit(root);
  return out;
}

function blockFunction(r: RubyReader, block: SgNode): FunctionIR {
  const call = block.parent() as SgNode;
  const verb = call.field('method')?.text() ?? '';
  // The route's framework is named by the class it is declared in (`Sinatra::Base`); a file-level
  // route is classic Sinatra.
  const superclass = rubyDotted(named(enclosingClass(block)?.field('superclass'))[0]);
  const path = named(call.field('arguments'))[0]?.text() ?? '';
  return lazily(
    {
      name: `${verb} ${path}`,
      markers: [superclass ? `${superclass}.${verb}` : verb],
      text: block.text(),
      line: lineOf(call),
    },
    {
      params: () => parameters(block.field('parameters')),
      body: () => bodyOf(r, block, block.field('body')),
      owner: () => nameOf(enclosingClass(block)),
    },
  );
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Each function's text with the text of the file's methods it calls, to a bounded depth: a
 * controller action that calls a private `query` method reading `params` may read input.
 */
function withCallees(functions: FunctionIR[]): void {
  const byName = new Map<string, string>();
  for (const fn of functions) byName.set(fn.name, `${byName.get(fn.name) ?? ''}\n${fn.text}`);
  const names = [...byName.keys()].filter((n) => /^[a-z_]\w*[?!]?$/.test(n));
  if (names.length === 0) return;
  const called = new RegExp(`(?<![\\w@$:.])(${names.map(escapeRegExp).join('|')})(?![\\w?!:])`, 'g');
  for (const fn of functions) {
    const own = fn.text;
    let text: string | undefined;
    Object.defineProperty(fn, 'text', {
      enumerable: true,
      get: () => {
        if (text !== undefined) return text;
        const seen = new Set<string>([fn.name]);
        let frontier = [own];
        const parts = [own];
        for (let depth = 0; depth < 4 && frontier.length > 0; depth++) {
          const next: string[] = [];
          for (const t of frontier)
            for (const m of t.matchAll(called)) {
              const name = m[1] ?? '';
              const body = byName.get(name);
              if (seen.has(name) || body === undefined) continue;
              seen.add(name);
              next.push(body);
              parts.push(body);
            }
          frontier = next;
        }
        text = parts.join('\n');
        return text;
      },
    });
  }
}

/** What the file is read from, found in one search of the tree (syntax.ts). */
const KINDS = {
  methods: ['method', 'singleton_method'],
  classes: ['class', 'module'],
  heredocOpeners: ['heredoc_beginning'],
  heredocBodies: ['heredoc_body'],
};

/** A Ruby file as the flow analysis reads it: methods, route blocks, and class and file-level code. */
export function rubyFile(root: SgNode): FileIR {
  const nodes = nodesByKind(root, KINDS);
  const methods = nodes.methods;
  const blocks = functionBlocks(root);
  const r: RubyReader = {
    heredocs: heredocsOf(nodes.heredocOpeners, nodes.heredocBodies),
    methods: new Set(methods.map((m) => m.field('name')?.text() ?? '')),
    isLocal: () => false,
    functionBlocks: new Set(blocks.map((b) => b.id())),
    pending: [],
    counter: 0,
    statements: (node) => statementsOf(r, node),
    statement: (node) => statement(r, node),
    valueInto: (node, name) => valueInto(r, node, name),
  };
  const functions: FunctionIR[] = methods.map((m) =>
    lazily(
      {
        name: m.field('name')?.text() ?? '',
        markers: [],
        text: m.text(),
        line: lineOf(m),
      },
      {
        params: () => parameters(m.field('parameters')),
        body: () => bodyOf(r, m, m.field('body')),
        owner: () => nameOf(enclosingClass(m)),
      },
    ),
  );
  functions.push(...blocks.map((b) => blockFunction(r, b)));
  withCallees(functions);
  const classes = nodes.classes.flatMap((c) => nameOf(c) ?? []);
  return { functions, globals: statementsOf(r, root), classes, aliases: new Map() };
}
