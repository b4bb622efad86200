import type { Rule } from '../../rule-schema.js';
import { calleeProperty, declaredFrom, FUNCTION_KINDS, LANGUAGES } from './fragments.js';

/** Methods that store or move data (database writes, payments): their failure loses data. */
const WRITE_METHOD =
  '^(save|saveAll|persist|commit|upsert|insert|insertOne|insertMany|update|updateOne|updateMany|create|createMany|bulkWrite|replaceOne|capture|charge|refund|transfer|payout|mark[A-Z]\\w*)$';

/** The text of a promise chain that contains such a write: `this.payments.save(p)`, `...capture(id).then(...)`. */
const WRITE_CALL_TEXT =
  '\\.(save|saveAll|persist|commit|upsert|insert|insertOne|insertMany|update|updateOne|updateMany|create|createMany|bulkWrite|replaceOne|capture|charge|refund|transfer|payout|execute|executeTakeFirst|send|sendMail|publish|deliver)\\s*\\(|\\bmark[A-Z]\\w*\\(';

export const assignmentInConditionRule: Rule = {
  id: 'js.assignment-in-condition',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'This `if` assigns instead of comparing, so the branch depends on the assigned value and the variable is overwritten. Compare with `===` (or wrap in extra parentheses if the assignment is intended).',
  rule: {
    pattern: '$A = $B',
    kind: 'assignment_expression',
    any: [
      { inside: { kind: 'parenthesized_expression', inside: { kind: 'if_statement', field: 'condition' } } },
      // A constant assigned anywhere in a condition (`if (d.tries < 5 && (d.status = 'failed'))`):
      // its truth never depends on the data, so it is a mistyped comparison even in parentheses.
      {
        has: {
          field: 'right',
          any: ['string', 'number', 'true', 'false', 'null'].map((kind) => ({ kind })),
        },
        inside: {
          kind: 'parenthesized_expression',
          any: ['if_statement', 'while_statement', 'do_statement'].map((kind) => ({
            inside: { kind, field: 'condition' },
          })),
          stopBy: { any: [{ kind: 'statement_block' }, ...FUNCTION_KINDS.map((kind) => ({ kind }))] },
        },
      },
    ],
  },
  fix: '$A === $B',
};

export const selfComparisonRule: Rule = {
  id: 'js.self-comparison',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'Both sides of this comparison are the same expression, so the result never depends on the data: one side is probably meant to be something else.',
  rule: {
    any: [
      { pattern: '$A === $A' },
      { pattern: '$A == $A' },
      { pattern: '$A < $A' },
      { pattern: '$A > $A' },
      { pattern: '$A <= $A' },
      { pattern: '$A >= $A' },
      // `x !== x` is the NaN test, but only on a plain variable: on a property path it is a typo.
      ...['$A !== $A', '$A != $A'].map((pattern) => ({
        pattern,
        has: {
          field: 'left',
          any: [
            { kind: 'member_expression' },
            { kind: 'subscript_expression' },
            // `a.email.toLowerCase() !== a.email.toLowerCase()`, but not a fresh value per call.
            { kind: 'call_expression', not: { regex: '(?i)(random|now|uuid|next|read|shift|pop|id)\\w*\\(' } },
          ],
        },
      })),
    ],
  },
};

export const unreachableCodeRule: Rule = {
  id: 'js.unreachable-code',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'warning',
  message:
    'This statement comes right after a return, throw, break or continue in the same block, so it never runs: remove it or move it before the jump.',
  rule: {
    any: [
      'expression_statement',
      'lexical_declaration',
      'variable_declaration',
      'if_statement',
      'for_statement',
      'for_in_statement',
      'while_statement',
      'do_statement',
      'return_statement',
      'throw_statement',
      'try_statement',
      'switch_statement',
    ].map((kind) => ({ kind })),
    follows: {
      any: [
        { kind: 'return_statement' },
        { kind: 'throw_statement' },
        { kind: 'break_statement' },
        { kind: 'continue_statement' },
      ],
    },
    inside: { any: [{ kind: 'statement_block' }, { kind: 'switch_case' }, { kind: 'switch_default' }] },
  },
};

/** A value that a call computes: what a try-to-compute-else-fall-back `try` tries. */
/** A statement after this one in its block (the block's closing brace is a sibling too). */
const FOLLOWED = { precedes: { regex: '^[^}]' } };

const COMPUTED = { any: [{ kind: 'call_expression' }, { kind: 'new_expression' }, { kind: 'await_expression' }] };

export const emptyCatchRule: Rule = {
  id: 'js.empty-catch',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'warning',
  message:
    'This catch swallows the error silently, so failures vanish without a trace: handle it, log it, rethrow it, or say in a comment why ignoring it is safe.',
  // Only catch blocks: `.catch(() => {})` is the common deliberate "ignore" idiom. Nor a try whose
  // one statement returns or assigns a value (`try { return new URL(s) } catch {}`) when code
  // follows: the failure leaves the value unset, and that code is the fallback. (Without it, the
  // function returns undefined on any failure, which is the swallowing this rule is about.)
  rule: {
    kind: 'catch_clause',
    has: { field: 'body', regex: '^\\{\\s*\\}$' },
    not: {
      inside: {
        kind: 'try_statement',
        // The fallback: a statement after the try, or after the `if` whose block holds it.
        any: [FOLLOWED, { inside: { kind: 'statement_block', inside: { kind: 'if_statement', ...FOLLOWED } } }],
        has: {
          field: 'body',
          not: { has: { nthChild: 2 } },
          has: {
            any: [
              { kind: 'return_statement', has: { stopBy: 'end', ...COMPUTED } },
              {
                kind: 'expression_statement',
                has: { kind: 'assignment_expression', has: { field: 'right', ...COMPUTED } },
              },
            ],
          },
        },
      },
    },
  },
};

export const swallowedWriteErrorRule: Rule = {
  id: 'js.swallowed-write-error',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'The failure of a write (a payment capture, a save, an update) is swallowed here: the caller carries on as if the data were stored, and nothing records that it was not. Let the error propagate, or log it and report the failure.',
  rule: {
    any: [
      // `await payments.save(p).catch(() => {})`: reported on the `.catch(...)` line of a chain.
      {
        any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
        has: { field: 'body', regex: '^(\\{\\s*\\}|undefined|null)$' },
        inside: {
          kind: 'arguments',
          inside: {
            kind: 'call_expression',
            ...calleeProperty('^catch$'),
            all: [{ has: { field: 'function', has: { field: 'object', regex: WRITE_CALL_TEXT } } }],
          },
        },
      },
      // `try { await gateway.capture(...) } catch (error) { // ignore }`: no statement in the catch.
      {
        kind: 'catch_clause',
        has: {
          field: 'body',
          regex: '^\\{(\\s|//[^\\n]*|/\\*([^*]|\\*[^/])*\\*/)*\\}$',
          // A comment that says why the failure is harmless: `// duplicate key: already recorded`.
          not: { regex: '(?i)(duplicate|already|exists|unique|idempot|conflict)' },
        },
        inside: {
          kind: 'try_statement',
          has: {
            field: 'body',
            has: {
              kind: 'await_expression',
              stopBy: 'end',
              has: { kind: 'call_expression', ...calleeProperty(WRITE_METHOD) },
            },
          },
        },
      },
    ],
  },
};

export const offByOneLoopRule: Rule = {
  id: 'js.off-by-one-loop',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs while the index is <= length, so the last iteration reads one past the end (undefined), or slices an empty chunk: use `<`.',
  rule: {
    pattern: '$I <= $A.length',
    inside: {
      kind: 'for_statement',
      field: 'condition',
      all: [
        { has: { field: 'initializer', regex: '=\\s*[01]\\s*;?$' } },
        // `items[i]`, or a chunk from `i` (`items.slice(i, i + size)`): at `i === length` it is empty.
        { has: { any: [{ pattern: '$A[$I]' }, { pattern: '$A.slice($I, $$$)' }], stopBy: 'end' } },
      ],
      stopBy: { kind: 'for_statement' },
    },
  },
  fix: '$I < $A.length',
};

/**
 * `x[i + 1]` used where undefined is wrong at once: an item of a pair or tuple (`[x[i], x[i + 1]]`),
 * an object whose property is read (`x[i + 1].t`), or a number in arithmetic (`x[i + 1] - x[i]`).
 * Read into a variable, it may be tested later (a scanner's lookahead).
 */
const NEXT_ITEM_USED = {
  any: [
    { inside: { kind: 'array' } },
    { inside: { kind: 'member_expression', field: 'object', not: { has: { kind: 'optional_chain' } } } },
    { inside: { kind: 'binary_expression', has: { field: 'operator', regex: '^[-*/]$' } } },
  ],
};

export const offByOneNextRule: Rule = {
  id: 'js.off-by-one-next',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'The loop runs while i < length and reads the next item, x[i + 1]: on the last iteration that is undefined (the last pair holds undefined). Stop at `i < x.length - 1`, or test for the last item.',
  rule: {
    pattern: '$I < $A.length',
    inside: {
      kind: 'for_statement',
      field: 'condition',
      stopBy: { kind: 'for_statement' },
      all: [
        { has: { field: 'initializer', regex: '=\\s*0\\s*;?$' } },
        {
          has: {
            field: 'body',
            all: [
              { has: { stopBy: 'end', kind: 'subscript_expression', pattern: '$A[$I + 1]', ...NEXT_ITEM_USED } },
              // A guard of its own (`if (i + 1 < xs.length)`, `i === xs.length - 1`) knows the end;
              // a body that moves the index itself (a scanner skipping what it read) is another loop.
              { not: { has: { stopBy: 'end', pattern: '$A.length' } } },
              {
                not: {
                  has: { stopBy: 'end', any: [{ pattern: '$I++' }, { pattern: '$I += $$$' }, { pattern: '$I = $$$' }] },
                },
              },
            ],
          },
        },
      ],
    },
  },
  fix: '$I < $A.length - 1',
};

export const offByOneMixedBoundsRule: Rule = {
  id: 'js.off-by-one-mixed-bounds',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'The loop keeps the index below the length with `<` but lets it reach its other bound with `<=`: counted from `start`, `i <= start + size` takes size + 1 items. Use `<` for both.',
  rule: {
    kind: 'binary_expression',
    pattern: '$I <= $N',
    inside: {
      kind: 'binary_expression',
      all: [{ has: { field: 'operator', regex: '^&&$' } }, { has: { pattern: '$I < $A.length' } }],
      inside: { kind: 'for_statement', field: 'condition', stopBy: { kind: 'for_statement' } },
    },
  },
  fix: '$I < $N',
};

/** The last page's number, or the number of pages. */
const PAGE_COUNT_NAME =
  '(?i)(^|\\.)(total_?pages|page_?count|pages_?count|num_?pages|number_?of_?pages|last_?page|max_?page|pages)$';

export const offByOnePageLoopRule: Rule = {
  id: 'js.off-by-one-page-loop',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'Pages are numbered from 1 to the page count, but this loop stops while the page is < the count, so the last page is never fetched: use `<=`.',
  rule: {
    kind: 'binary_expression',
    pattern: '$P < $N',
    has: {
      field: 'right',
      regex: PAGE_COUNT_NAME,
    },
    inside: {
      kind: 'for_statement',
      field: 'condition',
      // Counted from page 1 (or 2, after a first page fetched before the loop).
      has: { field: 'initializer', regex: '=\\s*[12]\\s*;?$' },
      stopBy: { kind: 'for_statement' },
    },
  },
  fix: '$P <= $N',
};

/** A number of pages or chunks: named so, or computed as `Math.ceil(total / size)`. */
const PAGE_COUNT = {
  any: [
    {
      regex:
        '(?i)(^|\\.)(total_?pages|page_?count|pages_?count|num_?pages|number_?of_?pages|pages|chunk_?count|batch_?count|num_?batches|num_?chunks)$',
    },
    declaredFrom({ kind: 'call_expression', regex: '^Math\\.ceil\\(' }, '$N'),
  ],
};

export const offByOneCountLoopRule: Rule = {
  id: 'js.off-by-one-count-loop',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'The loop counts from 0 up to and including the number of pages, one time too many (the last round gets an empty page or a page that does not exist): use `<`, or count from 1.',
  rule: {
    kind: 'binary_expression',
    pattern: '$P <= $N',
    has: { field: 'right', ...PAGE_COUNT },
    inside: {
      kind: 'for_statement',
      field: 'condition',
      has: { field: 'initializer', regex: '=\\s*0\\s*;?$' },
      stopBy: { kind: 'for_statement' },
    },
  },
  fix: '$P < $N',
};

export const offByOneReverseLoopRule: Rule = {
  id: 'js.off-by-one-reverse-loop',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'The loop counts down from length, so its first iteration reads one past the end (undefined): start at `length - 1`.',
  rule: {
    pattern: '$I >= 0',
    inside: {
      kind: 'for_statement',
      field: 'condition',
      all: [
        {
          has: {
            field: 'initializer',
            has: {
              kind: 'variable_declarator',
              all: [{ has: { field: 'name', pattern: '$I' } }, { has: { field: 'value', pattern: '$A.length' } }],
            },
          },
        },
        { has: { field: 'body', pattern: '$A[$I]', stopBy: 'end' } },
      ],
    },
  },
};
