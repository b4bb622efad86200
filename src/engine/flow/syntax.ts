import type { SgNode } from '@ast-grep/napi';

/** Helpers the language adapters share to read tree-sitter nodes. */
export const lineOf = (node: SgNode): number => node.range().start.line + 1;

export const kindOf = (node: SgNode | null | undefined): string => (node ? String(node.kind()) : '');

/** A node's named children, comments left out (one native call for the children, not one per child to ask). */
export const named = (node: SgNode | null | undefined): SgNode[] =>
  (node?.namedChildren() ?? []).filter((c) => !kindOf(c).endsWith('comment'));

/**
 * The nodes of each group of kinds, each group's list in tree order: one search of the tree where
 * a search per group would walk it once each. Throws, as a search would, if the grammar lacks a kind.
 */
export function nodesByKind<G extends string>(
  root: SgNode,
  groups: Readonly<Record<G, readonly string[]>>,
): Record<G, SgNode[]> {
  const out = {} as Record<G, SgNode[]>;
  const groupOf = new Map<string, SgNode[]>();
  for (const group of Object.keys(groups) as G[]) {
    out[group] = [];
    for (const kind of groups[group]) groupOf.set(kind, out[group]);
  }
  for (const node of root.findAll({ rule: { any: [...groupOf.keys()].map((kind) => ({ kind })) } }))
    groupOf.get(kindOf(node))?.push(node);
  return out;
}
