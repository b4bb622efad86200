import type { SgNode } from '@ast-grep/napi';
import type { Expr } from '../ir.js';
import { kindOf, lineOf, named } from '../syntax.js';

/** A type as the analysis names it: generics and array brackets dropped (`java.util.List`). */
export function typeName(node: SgNode | null): string | undefined {
  if (!node) return undefined;
  return (
    node
      .text()
      .replace(/<[\s\S]*>/g, '')
      .replace(/\[\]/g, '')
      .replace(/\s+/g, '') || undefined
  );
}

function unescapeText(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length > 1) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' } as Record<string, string>)[c] ?? c;
  });
}

function javaNumber(text: string): number | undefined {
  const t = text.replace(/_/g, '').replace(/[lLfFdD]$/, '');
  const n = /^0[xX]/.test(t)
    ? Number.parseInt(t.slice(2), 16)
    : /^0[bB]/.test(t)
      ? Number.parseInt(t.slice(2), 2)
      : Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** The dotted spelling of a receiver (`java.sql.DriverManager`), '' when it is computed. */
function dotted(node: SgNode | null): string {
  if (!node) return '';
  if (kindOf(node) === 'identifier' || kindOf(node) === 'this') return node.text();
  if (kindOf(node) === 'field_access') {
    const head = dotted(node.field('object'));
    return head ? `${head}.${node.field('field')?.text() ?? ''}` : '';
  }
  return '';
}

function argumentsOf(node: SgNode | null, line: number): Expr[] {
  return named(node).map((n) => javaExpr(n, line));
}

/** Kinds whose own line matters (a sink's or source's); others take their parent's, read once. */
const OWN_LINE = new Set(['method_invocation', 'object_creation_expression', 'field_access']);

/** A Java expression node in the analysis' vocabulary. */
export function javaExpr(node: SgNode, at?: number): Expr {
  const kind = kindOf(node);
  const line = at === undefined || OWN_LINE.has(kind) ? lineOf(node) : at;
  const sub = (n: SgNode): Expr => javaExpr(n, line);
  const opaque = (parts: Expr[] = []): Expr => ({ k: 'opaque', parts, line });
  switch (kind) {
    case 'identifier':
    case 'this':
      return { k: 'name', name: node.text(), line };
    case 'field_access': {
      const object = node.field('object');
      return object ? { k: 'attr', object: sub(object), name: node.field('field')?.text() ?? '', line } : opaque();
    }
    case 'string_literal':
    case 'text_block': {
      const parts = node.children().filter((c) => kindOf(c) === 'string_fragment' || kindOf(c) === 'escape_sequence');
      return {
        k: 'const',
        value: parts.map((p) => (kindOf(p) === 'escape_sequence' ? unescapeText(p.text()) : p.text())).join(''),
        line,
      };
    }
    case 'character_literal':
      return { k: 'const', value: unescapeText(node.text().slice(1, -1)), line };
    case 'decimal_integer_literal':
    case 'hex_integer_literal':
    case 'octal_integer_literal':
    case 'binary_integer_literal':
    case 'decimal_floating_point_literal': {
      const value = javaNumber(node.text());
      return value === undefined ? opaque() : { k: 'const', value, line };
    }
    case 'true':
    case 'false':
      return { k: 'const', value: kindOf(node) === 'true', line };
    case 'null_literal':
      return { k: 'const', value: null, line };
    case 'parenthesized_expression':
    case 'cast_expression': {
      const inner = kindOf(node) === 'cast_expression' ? node.field('value') : node.children().find((c) => c.isNamed());
      return inner ? sub(inner) : opaque();
    }
    case 'method_invocation': {
      const object = node.field('object');
      const name = node.field('name')?.text() ?? '';
      const head = dotted(object);
      return {
        k: 'call',
        callee: object ? (head ? `${head}.${name}` : '') : name,
        name,
        receiver: object ? sub(object) : undefined,
        args: argumentsOf(node.field('arguments'), line),
        kwargs: {},
        line,
      };
    }
    case 'object_creation_expression': {
      const type = typeName(node.field('type')) ?? '';
      return {
        k: 'call',
        callee: type,
        name: type.split('.').pop() ?? type,
        args: argumentsOf(node.field('arguments'), line),
        kwargs: {},
        isNew: true,
        line,
      };
    }
    case 'array_creation_expression': {
      const init = node.children().find((c) => kindOf(c) === 'array_initializer');
      return { k: 'list', items: init ? argumentsOf(init, line) : [], line };
    }
    case 'array_initializer':
      return { k: 'list', items: argumentsOf(node, line), line };
    case 'array_access': {
      const array = node.field('array');
      const index = node.field('index');
      return array && index ? { k: 'index', object: sub(array), index: sub(index), line } : opaque();
    }
    case 'binary_expression': {
      const left = node.field('left');
      const right = node.field('right');
      const op = node.field('operator')?.text() ?? '';
      return left && right ? { k: 'binary', op, left: sub(left), right: sub(right), line } : opaque();
    }
    case 'unary_expression': {
      const arg = node.field('operand');
      return arg ? { k: 'unary', op: node.field('operator')?.text() ?? '', arg: sub(arg), line } : opaque();
    }
    case 'ternary_expression': {
      const [test, then, otherwise] = [node.field('condition'), node.field('consequence'), node.field('alternative')];
      return test && then && otherwise
        ? { k: 'cond', test: sub(test), whenTrue: sub(then), whenFalse: sub(otherwise), line }
        : opaque();
    }
    case 'instanceof_expression':
    case 'lambda_expression':
    case 'method_reference':
    case 'class_literal':
      return opaque();
    default:
      // Assignments inside expressions, updates, switch expressions: taint of any part.
      return opaque(
        node
          .children()
          .filter((c) => c.isNamed())
          .map(sub),
      );
  }
}
