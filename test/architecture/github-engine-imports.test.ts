import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * The engine module github/ may use at run time: the vocabulary of findings (the finding types;
 * the severity order and the order of comments live in common/). It imports nothing at run time
 * itself, so using it never loads the engine's analyzers; everything else in the engine is types only.
 */
const ENGINE_VOCABULARY = ['engine/finding-types.ts'];

interface Import {
  file: string;
  target: string;
  /** Erased at compile time: `import type`, or every named import marked `type`. */
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      found.push({ file, target: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ file, target: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ file, target: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `../engine/severity.js` from `github/x.ts` -> `engine/severity.ts`. */
function resolved(from: string, target: string): string {
  return path.posix.join(path.posix.dirname(from), target).replace(/\.js$/, '.ts');
}

describe('github/ imports engine types only', () => {
  it('uses nothing of the engine at run time beyond its vocabulary', () => {
    const valueImports = readdirSync(path.join(SRC, 'github'))
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => importsOf(`github/${name}`))
      .filter((i) => !i.typeOnly && resolved(i.file, i.target).startsWith('engine/'))
      .filter((i) => !ENGINE_VOCABULARY.includes(resolved(i.file, i.target)))
      .map((i) => `${i.file} -> ${i.target}`);
    expect(valueImports).toEqual([]);
  });

  it('allows only vocabulary modules that import nothing at run time', () => {
    const runtime = ENGINE_VOCABULARY.flatMap((file) => importsOf(file)).filter((i) => !i.typeOnly);
    expect(runtime).toEqual([]);
  });

  it('notices a value import from the engine', () => {
    expect(
      importsOf('github/repository-config.ts').some((i) => !i.typeOnly && i.target === '../engine/finding-types.js'),
    ).toBe(true);
    expect(importsOf('github/plan-review.ts').some((i) => i.typeOnly && i.target === '../engine/types.js')).toBe(true);
  });
});
