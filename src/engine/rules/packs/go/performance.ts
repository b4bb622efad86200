import type { Rule } from '../../rule-schema.js';
import { argument, functionParameter, stringLiteral } from './fragments.js';

/** The node sits in a `for` loop's body, in the same function (a closure is another function). */
const insideLoopBody = {
  inside: {
    stopBy: { any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }] },
    kind: 'block',
    inside: { kind: 'for_statement' },
  },
};

export const queryInLoopRule: Rule = {
  id: 'go.query-in-loop',
  languages: ['go'],
  type: 'performance',
  severity: 'warning',
  message:
    'A SELECT (or a GORM First/Find) runs once per loop iteration (N+1 queries): one round trip per element. Fetch all rows at once, e.g. WHERE id = ANY($1) or IN (...) (db.Find(&rows, ids) in GORM), and index them in a map.',
  rule: {
    kind: 'call_expression',
    any: [
      {
        all: [
          {
            has: {
              field: 'function',
              regex: '\\.(Query|QueryRow|QueryContext|QueryRowContext|Get|Select|GetContext|SelectContext)$',
            },
          },
          { has: { field: 'arguments', has: { ...stringLiteral, regex: '(?i)^["`]\\s*select\\b' } } },
        ],
      },
      // GORM: `db.First(&p, id)`, `s.db.Where("sku = ?", sku).Find(&rows)`: the call that runs the query.
      {
        has: {
          field: 'function',
          kind: 'selector_expression',
          all: [
            { has: { field: 'field', regex: '^(First|Find|Take|Last|Count|Pluck)$' } },
            { has: { field: 'operand', regex: '(?i)(^|\\.)(db|tx|gormdb|orm)(\\.|$)' } },
          ],
        },
      },
    ],
    ...insideLoopBody,
  },
};

export const stringConcatInLoopRule: Rule = {
  id: 'go.string-concat-in-loop',
  languages: ['go'],
  type: 'performance',
  severity: 'warning',
  message:
    'String += in a loop copies the whole string on every iteration (quadratic time). Use a strings.Builder, or strings.Join.',
  rule: {
    kind: 'assignment_statement',
    all: [
      { has: { field: 'left', has: { kind: 'identifier', pattern: '$S' } } },
      { has: { field: 'operator', regex: '^\\+=$' } },
      {
        has: {
          field: 'right',
          any: [
            stringLiteral,
            { has: { stopBy: 'end', ...stringLiteral } },
            { kind: 'call_expression', regex: '^fmt\\.Sprint' },
          ],
        },
      },
      insideLoopBody,
      // A string the innermost loop declares (its range variable, or a variable of its body) starts
      // afresh each iteration: `addr += "/32"` appends once, it does not accumulate.
      {
        not: {
          inside: {
            stopBy: { kind: 'for_statement' },
            kind: 'for_statement',
            any: [
              {
                has: {
                  kind: 'range_clause',
                  has: { field: 'left', has: { kind: 'identifier', pattern: '$S', stopBy: 'end' } },
                },
              },
              {
                has: {
                  field: 'body',
                  has: {
                    kind: 'statement_list',
                    has: {
                      kind: 'short_var_declaration',
                      has: { field: 'left', has: { kind: 'identifier', pattern: '$S' } },
                    },
                  },
                },
              },
            ],
          },
        },
      },
    ],
  },
};

export const regexpInLoopRule: Rule = {
  id: 'go.regexp-in-loop',
  languages: ['go'],
  type: 'performance',
  severity: 'warning',
  message:
    'A regular expression that does not change in the loop (a literal or a parameter) is compiled on every iteration. Compile it once, before the loop or in a package-level var emailRE = regexp.MustCompile(...).',
  rule: {
    kind: 'call_expression',
    all: [
      { has: { field: 'function', regex: '^regexp\\.(MustCompile|Compile|MustCompilePOSIX|CompilePOSIX)$' } },
      // A literal, or a parameter of the function: the same pattern on every iteration.
      argument(1, { any: [stringLiteral, functionParameter('$PATTERN')] }),
      insideLoopBody,
    ],
  },
};

export const decodeInvariantInLoopRule: Rule = {
  id: 'go.decode-invariant-in-loop',
  languages: ['go'],
  type: 'performance',
  severity: 'warning',
  message:
    'The same bytes (a parameter of the function, unchanged by the loop) are decoded again on every iteration. Unmarshal them once before the loop and reuse the value.',
  rule: {
    kind: 'call_expression',
    all: [
      { has: { field: 'function', regex: '^(json|yaml|xml|toml)\\.Unmarshal$' } },
      argument(1, {
        any: [
          functionParameter('$RAW'),
          { regex: '^\\[\\]byte\\(\\w+\\)$', has: { stopBy: 'end', ...functionParameter('$RAW') } },
        ],
      }),
      insideLoopBody,
    ],
  },
};
