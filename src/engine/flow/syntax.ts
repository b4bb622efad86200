import type { SgNode } from '@ast-grep/napi';

/** Helpers the language adapters share to read tree-sitter nodes. */
export const lineOf = (node: SgNode): number => node.range().start.line + 1;

export const kindOf = (node: SgNode | null | undefined): string => (node ? String(node.kind()) : '');

/** A node's named children, comments left out. */
export const named = (node: SgNode | null | undefined): SgNode[] =>
  (node?.children() ?? []).filter((c) => c.isNamed() && !kindOf(c).endsWith('comment'));
