import type { Rule } from '../../rule-schema.js';
import { firstArgument, insideMethodWithParameter } from './fragments.js';

const ITERATION_METHODS =
  '^(each|each_with_index|each_with_object|map|flat_map|collect|select|filter|reject|find|detect|find_each|each_line|times|upto|downto|sum|count|group_by|sort_by|min_by|max_by|partition|filter_map|to_h|index_with|index_by|each_slice|in_batches)$';

/** Plural methods that are usually plain collections, not associations: `errors`, `values`, `lines`. */
const NOT_ASSOCIATION =
  '^(errors|values|keys|lines|words|chars|bytes|args|arguments|options|params|attributes|changes|headers|parts|elements|entries|segments|fields|columns|rows|cells|pages|items_for|ids|tags_list|names|results|records)$';

export const queryInLoopRule: Rule = {
  id: 'rb.query-in-loop',
  languages: ['ruby'],
  type: 'performance',
  severity: 'warning',
  message:
    'A query runs once per element of a loop (N+1 queries). Load the rows in one query before the loop, e.g. Project.where(id: ids).index_by(&:id), Comment.where(post_id: ids).group(:post_id).count, or use includes.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'receiver', kind: 'constant' } },
      {
        any: [
          { has: { field: 'method', regex: '^(find|find_by|find_by!|find_by_id)$' } },
          // A query keyed by the item: `Comment.where(post_id: post.id).count`.
          {
            has: {
              field: 'method',
              regex: '^(where|exists\\?|count|sum|pluck|find_or_create_by!?|find_or_initialize_by)$',
            },
            all: [
              {
                has: {
                  field: 'arguments',
                  has: {
                    stopBy: 'end',
                    kind: 'identifier',
                    pattern: '$ITEM',
                    inside: {
                      stopBy: { kind: 'method' },
                      any: [{ kind: 'do_block' }, { kind: 'block' }],
                      has: { kind: 'block_parameters', has: { stopBy: 'end', kind: 'identifier', pattern: '$ITEM' } },
                    },
                  },
                },
              },
            ],
          },
        ],
      },
      {
        inside: {
          stopBy: { kind: 'method' },
          any: [{ kind: 'do_block' }, { kind: 'block' }],
          inside: {
            kind: 'call',
            has: { field: 'method', regex: ITERATION_METHODS },
          },
        },
      },
    ],
  },
};

export const associationQueryInLoopRule: Rule = {
  id: 'rb.association-query-in-loop',
  languages: ['ruby'],
  type: 'performance',
  severity: 'warning',
  message:
    'An aggregate over an association of each element (post.comments.count) runs one SQL query per element (N+1 queries), even when the association is preloaded. Count in one grouped query before the loop (Comment.where(post_id: ids).group(:post_id).count), use a counter cache, or .size on a preloaded association.',
  rule: {
    kind: 'call',
    all: [
      {
        any: [
          { has: { field: 'method', regex: '^count$' }, not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
          { has: { field: 'method', regex: '^exists\\?$' } },
          {
            has: { field: 'method', regex: '^(pluck|sum|average|maximum|minimum)$' },
            all: [firstArgument({ kind: 'simple_symbol' })],
          },
        ],
      },
      { not: { has: { field: 'block', regex: '[\\s\\S]' } } },
      { not: { has: { any: [{ kind: 'block' }, { kind: 'do_block' }, { kind: 'block_argument' }] } } },
      {
        has: {
          field: 'receiver',
          kind: 'call',
          all: [
            { has: { field: 'method', regex: '^[a-z_]+s$', not: { regex: NOT_ASSOCIATION } } },
            { not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
            {
              has: {
                field: 'receiver',
                kind: 'identifier',
                pattern: '$ITEM',
                inside: {
                  stopBy: { kind: 'method' },
                  any: [{ kind: 'do_block' }, { kind: 'block' }],
                  all: [
                    { has: { kind: 'block_parameters', has: { kind: 'identifier', pattern: '$ITEM' } } },
                    { inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } } },
                  ],
                },
              },
            },
          ],
        },
      },
    ],
  },
};

export const stringConcatInLoopRule: Rule = {
  id: 'rb.string-concat-in-loop',
  languages: ['ruby'],
  type: 'performance',
  severity: 'warning',
  message:
    'str += in a loop allocates a new string and copies the old one on every iteration (quadratic). Append with << to a mutable string, or collect the parts and join them.',
  rule: {
    kind: 'operator_assignment',
    all: [
      { regex: '^\\S+\\s*\\+=' },
      { has: { field: 'right', any: [{ kind: 'string' }, { has: { stopBy: 'end', kind: 'string' } }] } },
      {
        inside: {
          stopBy: { kind: 'method' },
          any: [{ kind: 'do_block' }, { kind: 'block' }, { kind: 'while' }, { kind: 'until' }, { kind: 'for' }],
        },
      },
    ],
  },
};

export const regexpNewInLoopRule: Rule = {
  id: 'rb.regexp-new-in-loop',
  languages: ['ruby'],
  type: 'performance',
  severity: 'warning',
  message:
    'Regexp.new with a constant pattern inside a loop or an iteration block compiles the same regular expression on every item: build it once (a constant, or a /literal/) before the loop.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'receiver', regex: '^Regexp$' } },
      { has: { field: 'method', regex: '^(new|compile)$' } },
      firstArgument({ kind: 'string', not: { has: { kind: 'interpolation' } } }),
      {
        inside: {
          stopBy: 'end',
          any: [
            { kind: 'do_block', inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } } },
            { kind: 'block', inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } } },
            { kind: 'while' },
            { kind: 'until' },
            { kind: 'for' },
          ],
        },
      },
    ],
  },
};

export const loopInvariantParseRule: Rule = {
  id: 'rb.loop-invariant-parse',
  languages: ['ruby'],
  type: 'performance',
  severity: 'warning',
  message:
    'JSON.parse / YAML.safe_load / Regexp.new inside an iteration block on a value that does not change between items: the same document is parsed (or the same pattern compiled) once per item. Do it once before the loop.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'receiver', regex: '^(::)?(JSON|YAML|Psych|Regexp|Oj)$' } },
      { has: { field: 'method', regex: '^(parse|safe_load|load|new|compile|union)$' } },
      // A literal pattern is rb.regexp-new-in-loop.
      firstArgument({ not: { kind: 'string', not: { has: { kind: 'interpolation' } } } }),
      {
        inside: {
          stopBy: { any: [{ kind: 'method' }, { kind: 'singleton_method' }] },
          any: [{ kind: 'do_block' }, { kind: 'block' }],
          inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } },
        },
      },
      // No name in the argument is a block parameter or set inside the block...
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              any: [{ kind: 'identifier' }, { kind: 'instance_variable' }],
              pattern: '$V',
              inside: {
                stopBy: { any: [{ kind: 'method' }, { kind: 'singleton_method' }] },
                any: [{ kind: 'do_block' }, { kind: 'block' }],
                has: {
                  stopBy: 'end',
                  any: [
                    { kind: 'block_parameters', has: { stopBy: 'end', kind: 'identifier', pattern: '$V' } },
                    { kind: 'assignment', has: { field: 'left', pattern: '$V' } },
                    { kind: 'operator_assignment', has: { field: 'left', pattern: '$V' } },
                  ],
                },
              },
            },
          },
        },
      },
      // ...and every other bare name is a method name or a parameter of the method (not a call that may change).
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              kind: 'identifier',
              pattern: '$W',
              all: [
                { not: { inside: { kind: 'call', has: { field: 'method', pattern: '$W' } } } },
                { not: insideMethodWithParameter('$W') },
              ],
            },
          },
        },
      },
      // Not reading a stream or response that moves on: `JSON.parse(io.gets)`, `JSON.parse(http.get(...).body)`.
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              kind: 'call',
              has: {
                field: 'method',
                regex: '^(gets|read|readline|get|post|request|call|next|shift|pop|fetch_next)$',
              },
            },
          },
        },
      },
    ],
  },
};
