import type { Rule } from '../../rule-schema.js';

/** A statement of an except handler that does nothing with the error. */
const HANDLER_NO_OP = [
  { kind: 'pass_statement' },
  { kind: 'continue_statement' },
  { kind: 'return_statement', regex: '^return(\\s+None)?$' },
];

/** A write inside the try block: the handler that swallows its error loses the data. */
const WRITE_IN_TRY = {
  inside: {
    kind: 'try_statement',
    has: {
      field: 'body',
      has: {
        stopBy: 'end',
        kind: 'call',
        has: {
          field: 'function',
          regex:
            '\\.(save|create|bulk_create|update|bulk_update|update_or_create|upsert|insert\\w*|delete|commit|push\\w*|write|writerows?)$|^(push|save|store|persist|write|insert|upsert|sync|export)_\\w+$',
        },
      },
    },
  },
};

/** An except handler that catches everything and does nothing with it (plus `extra`). */
function swallowedException(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'except_clause',
    all: [
      {
        any: [
          {
            not: {
              has: {
                any: [{ kind: 'identifier' }, { kind: 'attribute' }, { kind: 'tuple' }, { kind: 'as_pattern' }],
              },
            },
          },
          { has: { kind: 'identifier', regex: '^(Exception|BaseException)$' } },
          { has: { kind: 'as_pattern', has: { kind: 'identifier', regex: '^(Exception|BaseException)$' } } },
        ],
      },
      // The handler does nothing: `pass`, `continue`, or a bare `return` / `return None` that hides the
      // failure from the caller as an ordinary empty result.
      { has: { kind: 'block', not: { has: { not: { any: HANDLER_NO_OP } } } } },
      { not: { has: { stopBy: 'end', kind: 'comment' } } },
      extra,
    ],
  };
}

export const bareExceptRule: Rule = {
  id: 'py.bare-except',
  languages: ['python'],
  type: 'bug',
  severity: 'warning',
  message:
    'A bare except: also catches KeyboardInterrupt and SystemExit and hides the real failure. Catch the exceptions you expect (or Exception), and re-raise what you cannot handle.',
  rule: {
    kind: 'except_clause',
    not: {
      any: [
        {
          has: {
            any: [
              { kind: 'identifier' },
              { kind: 'attribute' },
              { kind: 'tuple' },
              { kind: 'as_pattern' },
              { kind: 'parenthesized_expression' },
            ],
          },
        },
        { has: { kind: 'block', has: { stopBy: 'end', kind: 'raise_statement' } } },
        { has: { kind: 'block', not: { has: { not: { any: HANDLER_NO_OP } } } } },
      ],
    },
  },
};

export const swallowedExceptionRule: Rule = {
  id: 'py.swallowed-exception',
  languages: ['python'],
  type: 'bug',
  severity: 'warning',
  message:
    'Every exception is caught and ignored (except: pass, continue or return None): failures disappear without a trace. Catch the specific exception you expect, or log it.',
  rule: swallowedException({ not: WRITE_IN_TRY }),
};

export const swallowedWriteErrorRule: Rule = {
  id: 'py.swallowed-write-error',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'A failed write is caught and ignored (except Exception: pass): the record is lost and nobody knows. Catch the specific exception you expect, log it, and count or re-queue the failures.',
  rule: swallowedException(WRITE_IN_TRY),
};

export const mutableDefaultArgumentRule: Rule = {
  id: 'py.mutable-default-argument',
  languages: ['python'],
  type: 'bug',
  severity: 'warning',
  message:
    'A mutable default argument is created once and shared by every call, so changes leak between calls. Default to None and create the list or dict inside the function.',
  rule: {
    any: [{ kind: 'default_parameter' }, { kind: 'typed_default_parameter' }],
    has: {
      field: 'value',
      any: [
        { kind: 'list' },
        { kind: 'dictionary' },
        { kind: 'set' },
        { pattern: 'list()' },
        { pattern: 'dict()' },
        { pattern: 'set()' },
      ],
    },
  },
};

export const isLiteralRule: Rule = {
  id: 'py.is-literal',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    '`is` compares identity, not value: `x is "a"` or `x is 1` depends on interning and is often False for equal values (Python warns with SyntaxWarning). Use ==.',
  rule: {
    kind: 'comparison_operator',
    has: { regex: '^is$' },
    not: { has: { regex: '^not$' } },
    all: [{ has: { any: [{ kind: 'string' }, { kind: 'integer' }, { kind: 'float' }] } }],
    pattern: '$A is $B',
  },
  fix: '$A == $B',
};

export const selfComparisonRule: Rule = {
  id: 'py.self-comparison',
  languages: ['python'],
  type: 'bug',
  severity: 'warning',
  message:
    'A value compared with itself is always true (or always false): one side is probably a typo for another variable.',
  rule: {
    any: [
      { pattern: '$A == $A' },
      { pattern: '$A is $A' },
      { pattern: '$A >= $A' },
      { pattern: '$A <= $A' },
      { pattern: '$A < $A' },
      { pattern: '$A > $A' },
    ],
  },
  constraints: { A: { not: { any: [{ kind: 'call' }, { has: { stopBy: 'end', kind: 'call' } }] } } },
};

export const coroutineNotAwaitedRule: Rule = {
  id: 'py.coroutine-not-awaited',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'An asyncio coroutine called without await only creates a coroutine object: it never runs (Python warns "coroutine was never awaited"). Add await, or schedule it with asyncio.create_task().',
  rule: {
    kind: 'expression_statement',
    has: {
      kind: 'call',
      has: {
        field: 'function',
        regex:
          '^asyncio\\.(sleep|gather|wait|wait_for|open_connection|create_subprocess_exec|create_subprocess_shell|to_thread|shield)$',
      },
    },
    inside: { stopBy: { kind: 'function_definition' }, kind: 'function_definition', regex: '^async\\s' },
  },
};

export const localCoroutineNotAwaitedRule: Rule = {
  id: 'py.local-coroutine-not-awaited',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'This calls an `async def` function of this file without await: that only creates a coroutine object, so the function body never runs (Python warns "coroutine was never awaited"). Add await, or schedule it with asyncio.create_task() / BackgroundTasks.',
  rule: {
    kind: 'expression_statement',
    has: {
      kind: 'call',
      has: { field: 'function', kind: 'identifier', pattern: '$FN' },
    },
    inside: {
      kind: 'module',
      stopBy: 'end',
      has: {
        stopBy: 'end',
        kind: 'function_definition',
        regex: '^async\\s+def\\s',
        has: { field: 'name', pattern: '$FN' },
      },
    },
  },
};

export const coroutineCallNotAwaitedRule: Rule = {
  id: 'py.coroutine-call-not-awaited',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'In this async function, a call to a function that is awaited elsewhere in the file (or an imported async-style action such as send_/notify_/publish_) is made without await: for a coroutine function that only creates a coroutine object and the work never runs. Add await, or schedule it with asyncio.create_task().',
  rule: {
    kind: 'expression_statement',
    has: { kind: 'call', has: { field: 'function', kind: 'identifier', pattern: '$FN' } },
    all: [
      {
        inside: {
          stopBy: { kind: 'function_definition' },
          kind: 'function_definition',
          regex: '^async\\s',
          has: { field: 'body', has: { stopBy: 'end', kind: 'await' } },
        },
      },
      {
        inside: {
          stopBy: 'end',
          kind: 'module',
          any: [
            // Awaited elsewhere in this file: `await send_receipt(...)`.
            {
              has: {
                stopBy: 'end',
                kind: 'await',
                has: { kind: 'call', has: { field: 'function', kind: 'identifier', pattern: '$FN' } },
              },
            },
            // Imported into this file under an action name of async I/O.
            {
              has: {
                kind: 'import_from_statement',
                has: {
                  field: 'name',
                  any: [
                    { kind: 'dotted_name', pattern: '$FN' },
                    { kind: 'aliased_import', has: { field: 'alias', pattern: '$FN' } },
                  ],
                },
              },
            },
          ],
        },
      },
    ],
  },
  constraints: {
    FN: {
      regex: '^(a?(send|notify|publish|broadcast|deliver|fetch)(_\\w+)?|\\w+_async|async_\\w+)$',
    },
  },
};

export const offByOneRangeRule: Rule = {
  id: 'py.off-by-one-range',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs i up to len(values) inclusive (range(..., len(values) + 1)) and the body reads values[i]: the last iteration raises IndexError. Use range(..., len(values)).',
  rule: {
    kind: 'call',
    any: [{ pattern: 'range($S, len($V) + 1)' }, { pattern: 'range(len($V) + 1)' }],
    inside: {
      kind: 'for_statement',
      field: 'right',
      all: [
        { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
        { has: { field: 'body', has: { stopBy: 'end', kind: 'subscript', pattern: '$V[$I]' } } },
      ],
    },
  },
};

export const offByOneWindowRule: Rule = {
  id: 'py.off-by-one-window',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'A window of `size` items fits len(values) - size + 1 times, but this range runs once more: the last slice is one item short, and what is computed over it (a sum, an average) is wrong. Use range(len(values) - size + 1).',
  rule: {
    kind: 'call',
    any: [{ pattern: 'range(len($V) - $W + 2)' }, { pattern: 'range($S, len($V) - $W + 2)' }],
    inside: {
      kind: 'for_statement',
      field: 'right',
      all: [
        { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
        { has: { field: 'body', has: { stopBy: 'end', kind: 'subscript', pattern: '$V[$I:$I + $W]' } } },
      ],
    },
  },
};

export const offByOneWhileRule: Rule = {
  id: 'py.off-by-one-while',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs while i <= len(values) and the body reads values[i]: the last iteration raises IndexError. Use i < len(values), or iterate over the values directly.',
  rule: {
    kind: 'comparison_operator',
    pattern: '$I <= len($V)',
    inside: {
      kind: 'while_statement',
      field: 'condition',
      has: { field: 'body', has: { stopBy: 'end', kind: 'subscript', pattern: '$V[$I]' } },
    },
  },
};

export const selfComparisonCallRule: Rule = {
  id: 'py.self-comparison-call',
  languages: ['python'],
  type: 'bug',
  severity: 'warning',
  message:
    'The same deterministic call is compared with itself, so the result never changes: one side is probably a typo (e.g. getattr(old, f) != getattr(new, f)).',
  rule: {
    kind: 'comparison_operator',
    any: [{ pattern: '$C == $C' }, { pattern: '$C != $C' }],
  },
  constraints: {
    C: {
      kind: 'call',
      has: { field: 'function', regex: '^(getattr|len|str|int|float|bool|type|repr|abs|tuple|sorted|hash)$' },
      not: { has: { field: 'arguments', has: { stopBy: 'end', kind: 'call' } } },
    },
  },
};

export const unreachableCodeRule: Rule = {
  id: 'py.unreachable-code',
  languages: ['python'],
  type: 'bug',
  severity: 'warning',
  message:
    'This statement comes right after a return, raise, break or continue in the same block: it never runs. Remove it or move it before the jump.',
  rule: {
    any: [
      { kind: 'expression_statement' },
      { kind: 'return_statement' },
      { kind: 'if_statement' },
      { kind: 'for_statement' },
      { kind: 'while_statement' },
      { kind: 'with_statement' },
      { kind: 'try_statement' },
      { kind: 'raise_statement' },
      { kind: 'assert_statement' },
      { kind: 'delete_statement' },
    ],
    inside: { kind: 'block' },
    follows: {
      any: [
        { kind: 'return_statement' },
        { kind: 'raise_statement' },
        { kind: 'continue_statement' },
        { kind: 'break_statement' },
      ],
    },
  },
};

export const offByOneIndexRule: Rule = {
  id: 'py.off-by-one-index',
  languages: ['python'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs i up to len(values) - 1 but the body reads values[i + 1]: the last iteration raises IndexError. Loop over range(len(values) - 1), or use zip(values, values[1:]).',
  rule: {
    kind: 'call',
    pattern: 'range(len($V))',
    inside: {
      kind: 'for_statement',
      field: 'right',
      all: [
        { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
        { has: { field: 'body', has: { stopBy: 'end', kind: 'subscript', pattern: '$V[$I + 1]' } } },
        { not: { has: { field: 'body', has: { stopBy: 'end', kind: 'comparison_operator', regex: 'len\\(' } } } },
      ],
    },
  },
};
