import type { SgNode } from '@ast-grep/napi';
import { findAll } from '../../../src/engine/rules/ast-grep.js';

const rangesOf = (nodes: SgNode[]): string[] =>
  nodes.map((n) => {
    const { start, end } = n.range();
    return `${start.index}-${end.index}`;
  });

/** The start and end (`start-end`) of every node of the tree whose text the regex matches (ast-grep's own regex engine). */
export const regexMatches = (root: SgNode, regex: string): string[] => rangesOf(findAll(root, { rule: { regex } }));

/**
 * The nodes of the tree that one regex matches and the other does not (each as `start-end`), found
 * by ast-grep's own regex engine in one search: empty exactly when the two match the same nodes.
 * Asking for each regex's nodes and comparing the lists costs a native call per node read, for
 * regexes that match most nodes of a tree.
 */
export function regexDifference(root: SgNode, a: string, b: string): string[] {
  const onlyFirst = (x: string, y: string) => ({ all: [{ regex: x }, { not: { regex: y } }] });
  return rangesOf(findAll(root, { rule: { any: [onlyFirst(a, b), onlyFirst(b, a)] } }));
}
