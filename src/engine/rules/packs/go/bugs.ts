import type { Rule } from '../../rule-schema.js';
import { callTo, stringLiteral } from './fragments.js';

export const emptyErrorCheckRule: Rule = {
  id: 'go.empty-error-check',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'The error is checked but the branch is empty, so the failure is silently ignored and execution continues with bad state. Return, wrap or log the error.',
  rule: {
    kind: 'if_statement',
    all: [
      { has: { field: 'condition', kind: 'binary_expression', regex: '^(?i)\\w*err\\w*\\s*!=\\s*nil$' } },
      {
        has: {
          field: 'consequence',
          kind: 'block',
          not: { has: { any: [{ kind: 'statement_list' }, { kind: 'comment' }] } },
        },
      },
    ],
  },
};

export const errorReturnNilRule: Rule = {
  id: 'go.error-return-nil',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'This `if err != nil` returns a nil error from a function that returns an error: the failure is reported as success and the caller carries on (a message is acknowledged, data is lost). Return the error, wrapped with context.',
  rule: {
    kind: 'return_statement',
    any: [
      {
        regex: '^return\\s+nil$',
        inside: {
          stopBy: {
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
          },
          any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
          has: { field: 'result', regex: '^error$' },
        },
      },
      // `return flags, nil` from a function returning (T, error).
      {
        regex: '^return\\s+[^,]+(,\\s*[^,]+)*,\\s*nil$',
        inside: {
          stopBy: {
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
          },
          any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
          has: { field: 'result', kind: 'parameter_list', regex: ',\\s*error\\s*\\)$' },
        },
      },
    ],
    inside: {
      kind: 'statement_list',
      not: { has: { nthChild: 2 } },
      inside: {
        kind: 'block',
        inside: {
          kind: 'if_statement',
          field: 'consequence',
          has: { field: 'condition', regex: '^err\\s*!=\\s*nil$' },
        },
      },
    },
  },
};

export const deferInLoopRule: Rule = {
  id: 'go.defer-in-loop',
  languages: ['go'],
  type: 'bug',
  severity: 'warning',
  message:
    'defer inside a loop runs only when the function returns, so resources opened in each iteration stay open until then (file descriptor or connection exhaustion). Close explicitly, or move the body into a function.',
  rule: {
    kind: 'defer_statement',
    inside: {
      stopBy: { any: [{ kind: 'func_literal' }, { kind: 'function_declaration' }, { kind: 'method_declaration' }] },
      kind: 'for_statement',
    },
  },
};

export const ignoredWriteErrorRule: Rule = {
  id: 'go.ignored-write-error',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'The error of a commit or write is thrown away with `_ =`, so a failed transaction or a lost write reports success: return (or handle) the error.',
  rule: {
    kind: 'assignment_statement',
    regex: '^_\\s*=',
    has: {
      field: 'right',
      has: callTo('^\\w+\\.(Commit|Flush|Sync|Save|Exec|ExecContext)$|^os\\.(WriteFile|Rename)$'),
    },
  },
};

export const ignoredErrorRule: Rule = {
  id: 'go.ignored-error',
  languages: ['go'],
  type: 'bug',
  severity: 'warning',
  message:
    'The error of a parse or decode is discarded, so bad input silently becomes a zero value. Check the error and reject the input.',
  rule: {
    any: [
      {
        kind: 'short_var_declaration',
        has: { field: 'left', regex: '^\\w+\\s*,\\s*_$' },
        all: [
          {
            has: {
              field: 'right',
              has: {
                ...callTo(
                  '^(strconv\\.(Atoi|ParseInt|ParseUint|ParseFloat|ParseBool)|json\\.Marshal|url\\.Parse|time\\.Parse)$',
                ),
                // Constant input cannot be bad input: `time.Parse(layout, "01/01/2017 12:00:00")`.
                not: {
                  has: {
                    field: 'arguments',
                    // Every child a literal (or the list's own punctuation, which `has` also visits).
                    not: { has: { not: { any: [stringLiteral, { kind: 'int_literal' }, { regex: '^[(),]$' }] } } },
                  },
                },
              },
            },
          },
          // `if on, _ := strconv.ParseBool(tag); on {`: anything but a true value leaves the branch
          // untaken, which is the default the code wants.
          {
            not: {
              has: { field: 'right', has: callTo('^strconv\\.ParseBool$') },
              inside: { kind: 'if_statement', field: 'initializer' },
            },
          },
        ],
      },
      // Also a request body decoded and `rows.Scan(...)` with the error dropped: the row or input is a zero value.
      {
        kind: 'expression_statement',
        has: callTo(
          '^(json|xml|yaml)\\.Unmarshal$|^(json|xml)\\.NewDecoder\\(.*\\)\\.Decode$|^(rows?|\\w+Rows?)\\.Scan$',
        ),
      },
      {
        kind: 'assignment_statement',
        regex: '^_\\s*=',
        has: {
          field: 'right',
          has: callTo(
            '^(json|xml|yaml)\\.Unmarshal$|^(json|xml)\\.NewDecoder\\(.*\\)\\.Decode$|^(rows?|\\w+Rows?)\\.Scan$',
          ),
        },
      },
    ],
  },
};

/** A condition `$I <= len($X)`: true one round past the last index of x. */
const AT_MOST_LEN = [
  { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
  { has: { field: 'operator', regex: '^<=$' } },
  { has: { field: 'right', kind: 'call_expression', pattern: 'len($X)' } },
];

/** A `for` statement whose body holds, at any depth, a node matching `rule`. */
const loopBodyHas = (rule: Record<string, unknown>) => ({
  kind: 'for_statement',
  has: { field: 'body', has: { stopBy: 'end', ...rule } },
});

export const offByOneChunkRule: Rule = {
  id: 'go.off-by-one-chunk',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop steps through x while i <= len(x) and slices it from i: when len(x) is a multiple of the step, its last round takes x[len(x):], an empty slice, one chunk too many. Use i < len(x).',
  rule: {
    kind: 'binary_expression',
    all: [
      ...AT_MOST_LEN,
      {
        inside: {
          kind: 'for_clause',
          field: 'condition',
          // Stepping by more than one (`i += size`): chunks. A loop by one that slices x[i:]
          // (every split of x, the empty tail included) means it.
          has: { field: 'update', kind: 'assignment_statement', has: { field: 'operator', regex: '^\\+=$' } },
          inside: loopBodyHas({
            kind: 'slice_expression',
            all: [{ has: { field: 'operand', pattern: '$X' } }, { has: { field: 'start', pattern: '$I' } }],
          }),
        },
      },
    ],
  },
};

export const offByOneWindowRule: Rule = {
  id: 'go.off-by-one-window',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'A window of k items fits len(x) - k + 1 times, at i = 0 to len(x) - k, but this loop also runs at i = len(x) - k + 1: x[i:i+k] then reaches past the end and panics (slice bounds out of range). Use i <= len(x)-k.',
  rule: {
    kind: 'binary_expression',
    pattern: '$I <= len($X) - $W + 1',
    inside: {
      kind: 'for_clause',
      field: 'condition',
      inside: loopBodyHas({ kind: 'slice_expression', pattern: '$X[$I : $I+$W]' }),
    },
  },
};

export const offByOneMixedBoundsRule: Rule = {
  id: 'go.off-by-one-mixed-bounds',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop keeps i below len(x) with `<` but lets it reach its other bound with `<=`: counted from 0, `i <= n` takes n + 1 items. Use `<` for both.',
  rule: {
    kind: 'binary_expression',
    all: [
      { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
      { has: { field: 'operator', regex: '^<=$' } },
      {
        inside: {
          kind: 'binary_expression',
          all: [{ has: { field: 'operator', regex: '^&&$' } }, { has: { pattern: '$I < len($X)' } }],
          inside: { kind: 'for_clause', field: 'condition' },
        },
      },
    ],
  },
};

export const offByOneReverseRule: Rule = {
  id: 'go.off-by-one-reverse',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop counts down from len(x) and indexes x[i]: its first iteration reads one past the end and panics (index out of range). Start at len(x) - 1.',
  rule: {
    kind: 'for_clause',
    all: [
      { has: { field: 'initializer', pattern: '$I := len($X)' } },
      { has: { field: 'condition', regex: '>=\\s*0$' } },
      { inside: loopBodyHas({ kind: 'index_expression', pattern: '$X[$I]' }) },
    ],
  },
};

export const offByOneRule: Rule = {
  id: 'go.off-by-one',
  languages: ['go'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs while i <= len(x) and indexes x[i] (or while i < len(x) and indexes x[i+1]): the last iteration reads one past the end and panics (index out of range). Use i < len(x) (or i+1 < len(x)).',
  rule: {
    kind: 'binary_expression',
    any: [
      {
        all: [
          ...AT_MOST_LEN,
          {
            inside: {
              kind: 'for_clause',
              field: 'condition',
              inside: loopBodyHas({
                kind: 'index_expression',
                all: [{ has: { field: 'operand', pattern: '$X' } }, { has: { field: 'index', pattern: '$I' } }],
              }),
            },
          },
        ],
      },
      // `for i := 0; i < len(x); i++ { ... x[i+1] ... }` without an `i+1 < len(x)` guard in the body.
      {
        all: [
          { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
          { has: { field: 'operator', regex: '^<$' } },
          { has: { field: 'right', kind: 'call_expression', pattern: 'len($X)' } },
          {
            inside: {
              kind: 'for_clause',
              field: 'condition',
              inside: {
                kind: 'for_statement',
                has: {
                  field: 'body',
                  all: [
                    {
                      has: {
                        stopBy: 'end',
                        kind: 'index_expression',
                        all: [
                          { has: { field: 'operand', pattern: '$X' } },
                          { has: { field: 'index', pattern: '$I + 1' } },
                        ],
                      },
                    },
                    { not: { has: { stopBy: 'end', kind: 'call_expression', pattern: 'len($X)' } } },
                  ],
                },
              },
            },
          },
        ],
      },
    ],
  },
};

export const selfComparisonRule: Rule = {
  id: 'go.self-comparison',
  languages: ['go'],
  type: 'bug',
  severity: 'warning',
  message:
    'A field is compared with itself, so the result never changes: one side is probably a typo for another variable.',
  rule: {
    kind: 'binary_expression',
    any: [{ pattern: '$A == $A' }, { pattern: '$A != $A' }],
  },
  constraints: { A: { kind: 'selector_expression', not: { has: { stopBy: 'end', kind: 'call_expression' } } } },
};

export const unreachableCodeRule: Rule = {
  id: 'go.unreachable-code',
  languages: ['go'],
  type: 'bug',
  severity: 'warning',
  message:
    'This statement comes right after a return, panic, break or continue in the same block: it never runs (go vet reports it). Remove it.',
  rule: {
    any: [
      { kind: 'expression_statement' },
      { kind: 'return_statement' },
      { kind: 'short_var_declaration' },
      { kind: 'assignment_statement' },
      { kind: 'if_statement' },
      { kind: 'for_statement' },
      { kind: 'go_statement' },
      { kind: 'defer_statement' },
      { kind: 'inc_statement' },
      { kind: 'dec_statement' },
    ],
    follows: {
      any: [
        { kind: 'return_statement' },
        { kind: 'break_statement' },
        { kind: 'continue_statement' },
        {
          kind: 'expression_statement',
          has: {
            kind: 'call_expression',
            has: { field: 'function', regex: '^(panic|os\\.Exit|log\\.Fatal(f|ln)?)$' },
          },
        },
      ],
    },
  },
};
