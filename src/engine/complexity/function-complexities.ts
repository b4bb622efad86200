import type { Range, SgNode } from '@ast-grep/napi';
import type { Language } from '../languages.js';
import { COMPLEXITY_KINDS } from './complexity-kinds.js';

export interface FunctionComplexity {
  /** Looked up on first read (it costs native calls, and only a comment needs it). */
  readonly name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Cyclomatic complexity: 1 + the decision points of the function's own body. */
  complexity: number;
}

interface Span {
  start: number;
  end: number;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function nameOf(fn: SgNode): string {
  const own = fn.field('name' as never) as SgNode | null;
  if (own) return own.text();
  // An anonymous function takes the name it is bound to: `const f = () => ...`, `{ f: function () {} }`.
  let parent = fn.parent();
  // Go: `g := func() {...}` puts the literal in an expression_list of a short_var_declaration.
  if (parent?.kind() === 'expression_list' && parent.namedChildren().length === 1) {
    const declaration = parent.parent();
    const left = declaration?.field('left' as never) as SgNode | null | undefined;
    if (left && left.namedChildren().length === 1) return left.text();
    parent = declaration ?? null;
  }
  if (parent) {
    const kind = parent.kind();
    const binding =
      kind === 'variable_declarator' || kind === 'assignment'
        ? ((parent.field('name' as never) as SgNode | null) ?? (parent.field('left' as never) as SgNode | null))
        : kind === 'pair'
          ? (parent.field('key' as never) as SgNode | null)
          : kind === 'assignment_expression'
            ? (parent.field('left' as never) as SgNode | null)
            : null;
    if (binding) return binding.text();
  }
  return '<anonymous>';
}

/** One language's complexity query, and which of the kinds it finds are functions. */
interface ComplexityQuery {
  rule: Record<string, unknown>;
  functions: ReadonlySet<string>;
}

const QUERIES = new Map<Language, ComplexityQuery>();

/**
 * The nodes that are functions or decision points, as one rule: one walk of the tree finds both
 * (the kinds are disjoint, so a node's kind tells which it is). Built once per language.
 */
function complexityQuery(language: Language): ComplexityQuery {
  let query = QUERIES.get(language);
  if (query === undefined) {
    const kinds = COMPLEXITY_KINDS[language];
    const rules: Record<string, unknown>[] = [
      ...kinds.functions.map((kind) => ({ kind })),
      ...kinds.decisions.map((kind) => (kind === 'switch_label' ? { kind, not: { regex: '^default' } } : { kind })),
    ];
    if (kinds.logical) {
      const operators = kinds.logical.operators.map(escapeRegex).join('|');
      rules.push({ kind: kinds.logical.kind, has: { field: 'operator', regex: `^(${operators})$` } });
    }
    query = { rule: { any: rules }, functions: new Set(kinds.functions) };
    QUERIES.set(language, query);
  }
  return query;
}

/** A function's entry; its name is looked up only when read (only a comment needs it). */
function functionEntry(fn: SgNode, range: Range): FunctionComplexity {
  let name: string | undefined;
  return {
    get name() {
      name ??= nameOf(fn);
      return name;
    },
    startLine: range.start.line + 1,
    endLine: range.end.line + 1,
    complexity: 1,
  };
}

type Item = Span & { fn?: number };

/** Outer nodes first at the same start; a function before a decision of the same span. */
const byPosition = (a: Item, b: Item): number =>
  a.start - b.start || b.end - a.end || (a.fn === undefined ? 1 : 0) - (b.fn === undefined ? 1 : 0);

/**
 * The cyclomatic complexity of every function, from the nodes `complexityQuery` finds (in tree
 * order): each decision counts for the innermost function around it, so a nested function's
 * branches are its own.
 */
function complexitiesOf(nodes: readonly SgNode[], language: Language): FunctionComplexity[] {
  const { functions } = complexityQuery(language);
  const results: FunctionComplexity[] = [];
  const items: Item[] = [];
  for (const node of nodes) {
    const range = node.range();
    if (functions.has(node.kind() as string)) {
      items.push({ start: range.start.index, end: range.end.index, fn: results.length });
      results.push(functionEntry(node, range));
    } else items.push({ start: range.start.index, end: range.end.index });
  }
  if (results.length === 0) return [];
  // Tree order is already position order but for ties; sorting (stable) settles those as before.
  for (let i = 1; i < items.length; i++) {
    if (byPosition(items[i - 1] as Item, items[i] as Item) > 0) {
      items.sort(byPosition);
      break;
    }
  }
  const stack: Array<Span & { fn: number }> = [];
  for (const item of items) {
    while (stack.length > 0 && (stack[stack.length - 1] as Span).end <= item.start) stack.pop();
    if (item.fn !== undefined) {
      stack.push({ start: item.start, end: item.end, fn: item.fn });
      continue;
    }
    const owner = stack[stack.length - 1];
    const result = owner ? results[owner.fn] : undefined;
    if (result) result.complexity += 1;
  }
  return results.sort((a, b) => a.startLine - b.startLine);
}

/** The cyclomatic complexity of every function of a parsed file: one native query, one sweep. */
export function functionComplexities(root: SgNode, language: Language): FunctionComplexity[] {
  return complexitiesOf(root.findAll({ rule: complexityQuery(language).rule as never }), language);
}
