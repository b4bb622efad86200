import type { SgNode } from '@ast-grep/napi';
import type { Language } from '../languages.js';
import { COMPLEXITY_KINDS } from './complexity-kinds.js';

export interface FunctionComplexity {
  name: string;
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

/**
 * The cyclomatic complexity of every function of a parsed file. Two native queries (functions,
 * decisions) and one sweep by position: each decision counts for the innermost function around
 * it, so a nested function's branches are its own.
 */
export function functionComplexities(root: SgNode, language: Language): FunctionComplexity[] {
  const kinds = COMPLEXITY_KINDS[language];
  const functions = root.findAll({ rule: { any: kinds.functions.map((kind) => ({ kind })) } });
  if (functions.length === 0) return [];
  const decisionRules: Record<string, unknown>[] = kinds.decisions.map((kind) =>
    kind === 'switch_label' ? { kind, not: { regex: '^default' } } : { kind },
  );
  if (kinds.logical) {
    const operators = kinds.logical.operators.map(escapeRegex).join('|');
    decisionRules.push({ kind: kinds.logical.kind, has: { field: 'operator', regex: `^(${operators})$` } });
  }
  const decisions = root.findAll({ rule: { any: decisionRules } as never });

  const results: FunctionComplexity[] = [];
  type Item = Span & { fn?: number };
  const items: Item[] = [];
  functions.forEach((fn, i) => {
    const range = fn.range();
    results.push({ name: nameOf(fn), startLine: range.start.line + 1, endLine: range.end.line + 1, complexity: 1 });
    items.push({ start: range.start.index, end: range.end.index, fn: i });
  });
  for (const d of decisions) {
    const range = d.range();
    items.push({ start: range.start.index, end: range.end.index });
  }
  // Outer nodes first at the same start; a function before a decision of the same span.
  items.sort(
    (a, b) => a.start - b.start || b.end - a.end || (a.fn === undefined ? 1 : 0) - (b.fn === undefined ? 1 : 0),
  );
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
