import type { Rule } from '../../rule-schema.js';

export const swallowedExceptionRule: Rule = {
  id: 'rb.swallowed-exception',
  languages: ['ruby'],
  type: 'bug',
  severity: 'warning',
  message:
    'Every StandardError is rescued and ignored (an empty rescue, `rescue nil`, or a rescue that only returns nil or skips to next): failures disappear without a trace. Rescue the specific error you expect, or log it.',
  rule: {
    // `value = begin compute rescue StandardError nil end` is a fallback the code checks next, not a
    // failure dropped (as `js.empty-catch` leaves a `try` that assigns its computed value alone).
    not: { kind: 'rescue', inside: { kind: 'begin', inside: { kind: 'assignment' } } },
    any: [
      {
        kind: 'rescue',
        all: [
          { not: { has: { kind: 'then' } } },
          { not: { has: { stopBy: 'end', kind: 'comment' } } },
          {
            any: [
              { not: { has: { kind: 'exceptions' } } },
              { has: { kind: 'exceptions', regex: '^(::)?(StandardError|Exception)$' } },
            ],
          },
        ],
      },
      { kind: 'rescue_modifier', regex: '\\brescue\\s+nil$' },
      // A rescue whose whole body is `nil`, `return`, `return nil` or `next`.
      {
        kind: 'rescue',
        all: [
          {
            has: {
              kind: 'then',
              not: {
                has: {
                  not: {
                    any: [
                      { kind: 'nil' },
                      { kind: 'return', regex: '^return(\\s+nil)?$' },
                      { kind: 'next', regex: '^next$' },
                    ],
                  },
                },
              },
            },
          },
          { not: { has: { stopBy: 'end', kind: 'comment' } } },
          {
            any: [
              { not: { has: { kind: 'exceptions' } } },
              { has: { kind: 'exceptions', regex: '^(::)?(StandardError|Exception)$' } },
            ],
          },
        ],
      },
    ],
  },
};

export const offByOneRangeRule: Rule = {
  id: 'rb.off-by-one-range',
  languages: ['ruby'],
  type: 'bug',
  severity: 'important',
  message:
    'The inclusive range 0..x.length goes one past the last index: x[x.length] is nil and arithmetic on it raises NoMethodError. Use 0...x.length (three dots), each_index, or each_cons(2).',
  rule: {
    kind: 'range',
    all: [
      { regex: '^0\\s*\\.\\.\\s*[^.]' },
      {
        has: {
          nthChild: 2,
          kind: 'call',
          all: [
            { has: { field: 'receiver', pattern: '$X' } },
            { has: { field: 'method', regex: '^(length|size|count)$' } },
          ],
        },
      },
      {
        inside: {
          stopBy: { kind: 'method' },
          kind: 'call',
          has: { stopBy: 'end', kind: 'element_reference', has: { nthChild: 1, pattern: '$X' } },
        },
      },
    ],
  },
};

export const selfComparisonRule: Rule = {
  id: 'rb.self-comparison',
  languages: ['ruby'],
  type: 'bug',
  severity: 'warning',
  message:
    'A value compared with itself is always true (or always false): one side is probably a typo, e.g. plan_id == other.plan_id.',
  rule: {
    kind: 'binary',
    any: [{ pattern: '$A == $A' }, { pattern: '$A != $A' }],
  },
  constraints: {
    A: {
      any: [
        { kind: 'identifier', not: { regex: '^(rand|gets|readline|srand)$' } },
        { kind: 'instance_variable' },
        { kind: 'call', regex: '^@?[a-z_]\\w*\\.[a-z_]\\w*[?]?$' },
      ],
    },
  },
};

/** The number of pages: `total_pages`, `page.total_pages`, `num_pages`. */
const PAGE_COUNT = '(^|\\.)(total_pages|page_count|pages_count|num_pages|last_page)$';

export const offByOneCountRangeRule: Rule = {
  id: 'rb.off-by-one-count-range',
  languages: ['ruby'],
  type: 'bug',
  severity: 'important',
  message:
    'The inclusive range 0..count runs count + 1 times: one round too many. Use 0...count (three dots) or count.times.',
  rule: {
    kind: 'range',
    regex: '^0\\s*\\.\\.\\s*[^.]',
    has: {
      nthChild: 2,
      any: [
        { kind: 'identifier', regex: '^(count|[a-z_]*_count|total_pages|pages|num_[a-z_]+)$' },
        // A number of pages or chunks worked out in place: `(items.length.to_f / size).ceil`.
        { kind: 'call', has: { field: 'method', regex: '^ceil$' } },
      ],
    },
    // Iterated: `(0..count).each`, `.map`, `.each_with_object`, ...
    inside: {
      kind: 'parenthesized_statements',
      inside: {
        kind: 'call',
        has: { field: 'method', regex: '^(each|map|each_with_index|each_with_object|flat_map|select|sum|to_a)$' },
      },
    },
  },
};

export const offByOneUptoRule: Rule = {
  id: 'rb.off-by-one-upto',
  languages: ['ruby'],
  type: 'bug',
  severity: 'important',
  message:
    '`upto` includes its end: pages counted from 1 (or 2, after a first page) up to the page count minus one never reach the last page, and batches counted from 0 up to `length / size + 1` run past the last one. Go up to the page count, or use `(length.to_f / size).ceil.times`.',
  rule: {
    kind: 'call',
    has: { field: 'method', regex: '^upto$' },
    any: [
      {
        all: [
          { has: { field: 'receiver', regex: '^[12]$' } },
          {
            has: {
              field: 'arguments',
              has: { kind: 'binary', pattern: '$N - 1', has: { field: 'left', regex: PAGE_COUNT } },
            },
          },
        ],
      },
      {
        all: [
          { has: { field: 'receiver', regex: '^0$' } },
          { has: { field: 'arguments', has: { kind: 'binary', pattern: '$A / $B + 1' } } },
        ],
      },
    ],
  },
};

export const offByOneWhileRule: Rule = {
  id: 'rb.off-by-one-while',
  languages: ['ruby'],
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs while i <= x.length and reads x[i]: its last round reads x[x.length], which is nil. Use i < x.length (or each / each_with_index).',
  rule: {
    kind: 'binary',
    all: [
      { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
      { has: { field: 'operator', regex: '^<=$' } },
      {
        has: {
          field: 'right',
          kind: 'call',
          all: [
            { has: { field: 'receiver', pattern: '$X' } },
            { has: { field: 'method', regex: '^(length|size|count)$' } },
          ],
        },
      },
      {
        inside: {
          kind: 'while',
          field: 'condition',
          has: {
            field: 'body',
            has: {
              stopBy: 'end',
              kind: 'element_reference',
              all: [{ has: { nthChild: 1, pattern: '$X' } }, { has: { nthChild: 2, pattern: '$I' } }],
            },
          },
        },
      },
    ],
  },
};

/** A literal value: a string without interpolation, a number, a symbol, true or false. */
const RUBY_LITERAL = {
  any: [
    { kind: 'string', not: { has: { kind: 'interpolation' } } },
    { kind: 'integer' },
    { kind: 'simple_symbol' },
    { kind: 'true' },
    { kind: 'false' },
  ],
};

export const assignmentInConditionRule: Rule = {
  id: 'rb.assignment-in-condition',
  languages: ['ruby'],
  type: 'bug',
  severity: 'important',
  message:
    'This condition assigns instead of comparing, so it overwrites the value and tests what was assigned: use `==`.',
  rule: {
    kind: 'assignment',
    // `if (user = find(id))` is idiomatic Ruby: a local takes any value. A literal (always true)
    // or an object's attribute (a setter has no business in a test) is a typo for `==`.
    any: [
      { has: { field: 'right', ...RUBY_LITERAL } },
      // `if kind = "percent" && total >= min`: `=` binds last, so the literal is the left operand
      // of `&&` (or `||`), where no one writes a literal on purpose.
      {
        has: {
          field: 'right',
          kind: 'binary',
          all: [
            { has: { field: 'operator', regex: '^(&&|\\|\\||and|or)$' } },
            { has: { field: 'left', ...RUBY_LITERAL } },
          ],
        },
      },
      { has: { field: 'left', kind: 'call' } },
    ],
    all: [
      {
        any: [
          {
            inside: {
              any: [{ kind: 'if' }, { kind: 'unless' }, { kind: 'elsif' }, { kind: 'while' }, { kind: 'until' }],
              field: 'condition',
            },
          },
          { inside: { any: [{ kind: 'if_modifier' }, { kind: 'unless_modifier' }], field: 'condition' } },
        ],
      },
    ],
  },
};

export const unreachableCodeRule: Rule = {
  id: 'rb.unreachable-code',
  languages: ['ruby'],
  type: 'bug',
  severity: 'warning',
  message:
    'This statement comes right after an unconditional return, break, next or raise in the same block, so it never runs: remove it or move it before the jump.',
  rule: {
    any: [
      'call',
      'assignment',
      'operator_assignment',
      'if',
      'unless',
      'while',
      'until',
      'case',
      'return',
      'yield',
      'identifier',
    ].map((kind) => ({ kind })),
    follows: {
      any: [
        { kind: 'return' },
        { kind: 'break' },
        { kind: 'next' },
        // `raise Error, "..."` / `raise` (a re-raise): nothing after it in the block runs.
        {
          kind: 'call',
          not: { has: { field: 'receiver', regex: '[\\s\\S]' } },
          has: { field: 'method', regex: '^(raise|fail)$' },
        },
        { kind: 'identifier', regex: '^raise$' },
      ],
    },
    inside: { any: [{ kind: 'body_statement' }, { kind: 'then' }, { kind: 'else' }, { kind: 'block_body' }] },
  },
};
