import type { Rule } from '../../rule-schema.js';

/** `$X.length` or `$X.size()`. */
const JAVA_LENGTH = {
  any: [
    {
      kind: 'field_access',
      all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'field', regex: '^length$' } }],
    },
    {
      kind: 'method_invocation',
      all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'name', regex: '^size$' } }],
    },
  ],
};

/** A comment in an empty block that only says it is empty, without a reason. */
const PLACEHOLDER_COMMENT =
  '(?i)^//\\s*(ignored?|ignoring|ignore (it|this|exception|errors?)|nothing|do nothing|no-?op|empty|swallow(ed)?|todo\\b.*|fixme\\b.*)?[.!]?\\s*$';

/** A call that stores or changes data: a failure there loses it. */
const WRITE_METHOD =
  '^(append\\w*|insert\\w*|save\\w*|persist\\w*|merge|update\\w*|upsert\\w*|store\\w*|record\\w*|commit|executeUpdate|executeBatch|batchUpdate|charge|capture|refund|transfer)$';

/** A try whose body writes data (WRITE_METHOD). */
const WRITE_TRY = {
  kind: 'try_statement',
  has: {
    field: 'body',
    has: { stopBy: 'end', kind: 'method_invocation', has: { field: 'name', regex: WRITE_METHOD } },
  },
};

export const emptyCatchRule: Rule = {
  id: 'java.empty-catch',
  languages: ['java'],
  type: 'bug',
  severity: 'warning',
  message:
    'An empty catch block swallows the exception: the failure disappears and the code goes on with bad state. Handle it, log it, or rethrow; name the variable `ignored` and comment why when ignoring is intended.',
  // Reported on the `catch (...)` line: the parameter, not the whole clause.
  rule: {
    kind: 'catch_formal_parameter',
    all: [
      { not: { has: { field: 'name', regex: '^(ignored?|expected|_)$' } } },
      // A write's lost failure is java.swallowed-write-error's, one comment on the line.
      { not: { inside: { kind: 'catch_clause', inside: WRITE_TRY } } },
    ],
    inside: {
      kind: 'catch_clause',
      has: {
        field: 'body',
        kind: 'block',
        any: [
          // Nothing but, at most, a comment that gives no reason (`// ignore`, `// TODO`).
          { not: { has: { regex: '^[^{}]', not: { kind: 'line_comment', regex: PLACEHOLDER_COMMENT } } } },
          // Only `e.printStackTrace();`: the failure goes to stderr and the code goes on.
          { regex: '^\\{\\s*\\w+\\.printStackTrace\\(\\s*\\)\\s*;\\s*\\}$' },
        ],
      },
    },
  },
};

export const swallowedWriteErrorRule: Rule = {
  id: 'java.swallowed-write-error',
  languages: ['java'],
  type: 'bug',
  severity: 'important',
  message:
    'A failed write is caught and ignored: the record is lost and nobody knows, whatever the variable is called. Let it propagate, or log it and count or retry the failure.',
  // Reported on the `catch (...)` line, as java.empty-catch is; this one takes its place there.
  rule: {
    kind: 'catch_formal_parameter',
    inside: {
      kind: 'catch_clause',
      all: [
        {
          has: {
            field: 'body',
            kind: 'block',
            any: [
              // Nothing but comments: a reason given (`// best effort`) does not bring the record back.
              {
                not: { has: { regex: '^[^{}]', not: { any: [{ kind: 'line_comment' }, { kind: 'block_comment' }] } } },
              },
              // Only `e.printStackTrace();`, as java.empty-catch reads it.
              { regex: '^\\{\\s*\\w+\\.printStackTrace\\(\\s*\\)\\s*;\\s*\\}$' },
            ],
          },
        },
        { inside: WRITE_TRY },
      ],
    },
  },
};

export const stringReferenceEqualityRule: Rule = {
  id: 'java.string-reference-equality',
  languages: ['java'],
  type: 'bug',
  severity: 'important',
  message:
    '== and != compare String references, not contents: two equal strings built at run time are different objects, so the test gives the wrong answer. Use "literal".equals(value).',
  rule: {
    kind: 'binary_expression',
    all: [
      { has: { field: 'operator', regex: '^(==|!=)$' } },
      { has: { kind: 'string_literal' } },
      { not: { has: { kind: 'null_literal' } } },
      {
        not: {
          all: [
            { has: { field: 'left', kind: 'string_literal' } },
            { has: { field: 'right', kind: 'string_literal' } },
          ],
        },
      },
    ],
  },
};

export const assignmentInConditionRule: Rule = {
  id: 'java.assignment-in-condition',
  languages: ['java'],
  type: 'bug',
  severity: 'important',
  message:
    'An assignment is used as the condition (`=` instead of `==`): it overwrites the variable and the branch always takes the assigned value. Compare with ==, or test the boolean directly.',
  rule: {
    kind: 'assignment_expression',
    has: { field: 'operator', regex: '^=$' },
    inside: {
      kind: 'parenthesized_expression',
      any: [
        {
          inside: {
            any: [{ kind: 'if_statement' }, { kind: 'while_statement' }, { kind: 'do_statement' }],
            field: 'condition',
          },
        },
        // `if (exists && (overwrite = false))`: an operand of && or || (not `(line = next()) != null`).
        {
          inside: {
            kind: 'binary_expression',
            has: { field: 'operator', regex: '^(&&|\\|\\|)$' },
            inside: {
              kind: 'parenthesized_expression',
              inside: {
                any: [{ kind: 'if_statement' }, { kind: 'while_statement' }, { kind: 'do_statement' }],
                field: 'condition',
              },
            },
          },
        },
      ],
    },
  },
};

export const offByOneRule: Rule = {
  id: 'java.off-by-one',
  languages: ['java'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs while i <= array.length (or list.size()) and indexes the element i: the last iteration throws IndexOutOfBoundsException. Use i < length.',
  rule: {
    kind: 'binary_expression',
    any: [
      {
        all: [
          { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
          { has: { field: 'operator', regex: '^<=$' } },
          {
            has: {
              field: 'right',
              any: [
                {
                  kind: 'field_access',
                  all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'field', regex: '^length$' } }],
                },
                {
                  kind: 'method_invocation',
                  all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'name', regex: '^size$' } }],
                },
              ],
            },
          },
          {
            inside: {
              kind: 'for_statement',
              field: 'condition',
              has: {
                field: 'body',
                has: {
                  stopBy: 'end',
                  any: [
                    {
                      kind: 'array_access',
                      all: [{ has: { field: 'array', pattern: '$X' } }, { has: { field: 'index', pattern: '$I' } }],
                    },
                    {
                      kind: 'method_invocation',
                      all: [
                        { has: { field: 'object', pattern: '$X' } },
                        { has: { field: 'name', regex: '^get$' } },
                        { has: { field: 'arguments', has: { nthChild: 1, pattern: '$I' } } },
                      ],
                    },
                  ],
                },
              },
            },
          },
        ],
      },
      // `for (i = 0; i < list.size(); i++)` (or `i <= list.size() - 1`) reading the element i + 1.
      {
        all: [
          { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
          {
            any: [
              {
                all: [{ has: { field: 'operator', regex: '^<$' } }, { has: { field: 'right', any: [JAVA_LENGTH] } }],
              },
              {
                all: [
                  { has: { field: 'operator', regex: '^<=$' } },
                  {
                    has: {
                      field: 'right',
                      kind: 'binary_expression',
                      regex: '-\\s*1$',
                      has: { field: 'left', ...JAVA_LENGTH },
                    },
                  },
                ],
              },
            ],
          },
          {
            inside: {
              kind: 'for_statement',
              field: 'condition',
              has: {
                field: 'body',
                all: [
                  {
                    has: {
                      stopBy: 'end',
                      any: [
                        {
                          kind: 'array_access',
                          all: [
                            { has: { field: 'array', pattern: '$X' } },
                            { has: { field: 'index', pattern: '$I + 1' } },
                          ],
                        },
                        {
                          kind: 'method_invocation',
                          all: [
                            { has: { field: 'object', pattern: '$X' } },
                            { has: { field: 'name', regex: '^get$' } },
                            { has: { field: 'arguments', has: { nthChild: 1, pattern: '$I + 1' } } },
                          ],
                        },
                      ],
                    },
                  },
                  // A guard in the body: `if (i + 1 < list.size())`.
                  { not: { has: { stopBy: 'end', ...JAVA_LENGTH } } },
                ],
              },
            },
          },
        ],
      },
    ],
  },
};

export const selfEqualsRule: Rule = {
  id: 'java.self-equals',
  languages: ['java'],
  type: 'bug',
  severity: 'warning',
  message:
    'A value is compared with itself (x.equals(x) or x == x), which is always true: one side is probably a typo for the other object.',
  rule: {
    any: [
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^(equals|equalsIgnoreCase)$' } },
          { has: { field: 'object', pattern: '$A' } },
          { has: { field: 'arguments', has: { nthChild: 1, pattern: '$A' } } },
        ],
      },
      { kind: 'binary_expression', pattern: '$B == $B' },
    ],
  },
  constraints: { B: { kind: 'field_access' } },
};

export const unreachableAfterExitRule: Rule = {
  id: 'java.unreachable-after-exit',
  languages: ['java'],
  type: 'bug',
  severity: 'warning',
  message:
    'This statement comes after System.exit (or Runtime.halt) in the same block: the JVM stops there, so it never runs (the compiler does not flag it, unlike code after return or throw). Move it before the exit, or remove it.',
  rule: {
    kind: 'expression_statement',
    follows: {
      kind: 'expression_statement',
      has: {
        kind: 'method_invocation',
        regex: '^(System\\.exit|Runtime\\.getRuntime\\(\\)\\.(exit|halt))\\(',
      },
    },
  },
};

export const catchReturnNullRule: Rule = {
  id: 'java.catch-return-null',
  languages: ['java'],
  type: 'bug',
  severity: 'warning',
  message:
    'A broad catch (Exception/Throwable) only returns null: every failure (a bug, a timeout, bad data) becomes an absent value, without a log line, and the caller cannot tell them apart. Catch the exceptions you expect, and log or rethrow the rest.',
  // Reported on the `catch (...)` line, like an empty catch.
  rule: {
    kind: 'catch_formal_parameter',
    regex: '^(final\\s+)?(Exception|Throwable|RuntimeException)\\s+\\w+$',
    not: { has: { field: 'name', regex: '^(ignored?|expected|_)$' } },
    inside: {
      kind: 'catch_clause',
      has: { field: 'body', kind: 'block', regex: '^\\{\\s*return\\s+(null|Optional\\.empty\\(\\))\\s*;\\s*\\}$' },
    },
  },
};

export const futureExceptionSwallowedRule: Rule = {
  id: 'java.future-exception-swallowed',
  languages: ['java'],
  type: 'bug',
  severity: 'warning',
  message:
    'exceptionally(ex -> null) turns every failure of the async task into a null result: the error is neither logged nor propagated. Log it (and count it), or let the future complete exceptionally.',
  rule: {
    kind: 'lambda_expression',
    regex: '^\\(?\\s*\\w*\\s*\\)?\\s*->\\s*(null|\\{\\s*\\}|\\{\\s*return\\s+null\\s*;\\s*\\})$',
    inside: {
      kind: 'argument_list',
      inside: { kind: 'method_invocation', has: { field: 'name', regex: '^exceptionally$' } },
    },
  },
};
