import { describe, expect, it } from 'vitest';
import { nodesByKind } from '../../../src/engine/flow/syntax.js';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';

const GO = `package main

import (
	nethttp "net/http"
	"os"
)

type Handler struct{}

func (h *Handler) serve() { go func() { os.Exit(1) }() }

func main() { nethttp.ListenAndServe(":80", nil) }
`;

describe('nodesByKind', () => {
  it('splits one search into groups of kinds, each in tree order', () => {
    const root = parseSource('go', GO).root();
    const nodes = nodesByKind(root, {
      declared: ['function_declaration', 'method_declaration'],
      literals: ['func_literal'],
      imports: ['import_spec'],
    });
    // A method before a function in the file: a group keeps their order across its kinds.
    expect(nodes.declared.map((n) => n.field('name')?.text())).toEqual(['serve', 'main']);
    expect(nodes.literals.map((n) => n.text())).toEqual(['func() { os.Exit(1) }']);
    expect(nodes.imports.map((n) => n.text())).toEqual(['nethttp "net/http"', '"os"']);
  });

  it('gives an empty list for a group with no node, and throws for a kind the grammar lacks', () => {
    const root = parseSource('go', GO).root();
    expect(nodesByKind(root, { types: ['type_spec'], constants: ['const_spec'] }).constants).toEqual([]);
    expect(() => nodesByKind(root, { classes: ['class_declaration'] })).toThrow();
  });
});
