import type { SgNode } from '@ast-grep/napi';

/** Helpers the language adapters share to read tree-sitter nodes. */
export const lineOf = (node: SgNode): number => node.range().start.line + 1;

export const kindOf = (node: SgNode | null | undefined): string => (node ? String(node.kind()) : '');

/** A node's named children, comments left out (one native call for the children, not one per child to ask). */
export const named = (node: SgNode | null | undefined): SgNode[] =>
  (node?.namedChildren() ?? []).filter((c) => !kindOf(c).endsWith('comment'));
