import type { Language } from '../languages.js';

/** The syntax of one language family for cyclomatic complexity (tree-sitter node kinds). */
export interface ComplexityKinds {
  /** Nodes that are functions: each gets its own count. */
  functions: string[];
  /** Nodes that each add one decision point. */
  decisions: string[];
  /** Binary-operator nodes that add one when their operator is a short-circuit one. */
  logical?: { kind: string; operators: string[] };
}

const JAVASCRIPT: ComplexityKinds = {
  functions: [
    'function_declaration',
    'function_expression',
    'arrow_function',
    'method_definition',
    'generator_function_declaration',
    'generator_function',
  ],
  // `else if` is an if_statement inside the else clause; `default:` is no decision.
  decisions: [
    'if_statement',
    'for_statement',
    'for_in_statement',
    'while_statement',
    'do_statement',
    'switch_case',
    'catch_clause',
    'ternary_expression',
  ],
  logical: { kind: 'binary_expression', operators: ['&&', '||', '??'] },
};

export const COMPLEXITY_KINDS: Record<Language, ComplexityKinds> = {
  javascript: JAVASCRIPT,
  typescript: JAVASCRIPT,
  tsx: JAVASCRIPT,
  python: {
    // A lambda is one expression: its decisions count toward the function that holds it.
    functions: ['function_definition'],
    decisions: [
      'if_statement',
      'elif_clause',
      'for_statement',
      'while_statement',
      'except_clause',
      'conditional_expression',
      'case_clause',
      'for_in_clause',
      'if_clause',
      // `a and b or c` is two boolean_operator nodes: one per operator.
      'boolean_operator',
    ],
  },
  go: {
    functions: ['function_declaration', 'method_declaration', 'func_literal'],
    // `else if` is a nested if_statement; `default:` is no decision.
    decisions: ['if_statement', 'for_statement', 'expression_case', 'type_case', 'communication_case'],
    logical: { kind: 'binary_expression', operators: ['&&', '||'] },
  },
  java: {
    functions: ['method_declaration', 'constructor_declaration', 'lambda_expression'],
    decisions: [
      'if_statement',
      'for_statement',
      'enhanced_for_statement',
      'while_statement',
      'do_statement',
      'catch_clause',
      'ternary_expression',
      // `case` labels; `default` is filtered out by text (see functionComplexities).
      'switch_label',
    ],
    logical: { kind: 'binary_expression', operators: ['&&', '||'] },
  },
  ruby: {
    // Blocks and lambdas count toward the method that holds them.
    functions: ['method', 'singleton_method'],
    decisions: [
      'if',
      'elsif',
      'unless',
      'while',
      'until',
      'for',
      'when',
      'rescue',
      'conditional',
      'if_modifier',
      'unless_modifier',
      'while_modifier',
      'until_modifier',
      'rescue_modifier',
    ],
    logical: { kind: 'binary', operators: ['&&', '||', 'and', 'or'] },
  },
};
