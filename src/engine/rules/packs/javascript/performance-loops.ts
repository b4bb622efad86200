import type { Rule } from '../../rule-schema.js';
import {
  anyKind,
  CONCATENATION,
  CONSTANT_NAME,
  calleeProperty,
  FUNCTION,
  firstArgument,
  INTERPOLATED_TEMPLATE,
  LANGUAGES,
  LOOP_KINDS,
  LOOP_OR_FUNCTION,
} from './fragments.js';

const inLoopBody = (loops: string[] = LOOP_KINDS) => ({
  any: loops.map((kind) => ({ inside: { kind, field: 'body', stopBy: LOOP_OR_FUNCTION } })),
});

/** A callback run once per item: `items.map((item) => ...)`, `items.forEach(function (item) {...})`. */
const ITERATION_CALLBACK = {
  any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
  inside: {
    kind: 'arguments',
    inside: { kind: 'call_expression', ...calleeProperty('^(map|flatMap|forEach|filter|reduce|some|every|find)$') },
  },
};

/** The node (an outer loop or callback) declares, binds or assigns `$LIST`, so it may change per item. */
const DECLARES_LIST = {
  any: [
    { has: { kind: 'variable_declarator', has: { field: 'name', pattern: '$LIST' }, stopBy: 'end' } },
    { has: { kind: 'assignment_expression', has: { field: 'left', pattern: '$LIST' }, stopBy: 'end' } },
    { has: { field: 'left', pattern: '$LIST' } },
    { has: { field: 'parameters', has: { pattern: '$LIST', stopBy: 'end' } } },
    { has: { field: 'parameter', pattern: '$LIST' } },
  ],
};

/**
 * The node (a loop or a per-item callback) does not bind or change `meta`: no parameter,
 * declaration, for-of variable, assignment or update of it inside, so its value is the same on
 * every iteration.
 */
const boundIn = (meta: string) => {
  const names = { any: [{ pattern: meta }, { has: { pattern: meta, stopBy: 'end' } }] };
  return {
    any: [
      { has: { field: 'parameters', has: { pattern: meta, stopBy: 'end' } } },
      { has: { field: 'parameter', pattern: meta } },
      { has: { field: 'left', ...names } },
      { has: { field: 'initializer', has: { pattern: meta, stopBy: 'end' } } },
      { has: { kind: 'variable_declarator', stopBy: 'end', has: { field: 'name', ...names } } },
      { has: { kind: 'for_in_statement', stopBy: 'end', has: { field: 'left', ...names } } },
      { has: { kind: 'assignment_expression', stopBy: 'end', has: { field: 'left', ...names } } },
      { has: { kind: 'augmented_assignment_expression', stopBy: 'end', has: { field: 'left', ...names } } },
      { has: { kind: 'update_expression', stopBy: 'end', has: { pattern: meta, stopBy: 'end' } } },
      { has: { kind: 'catch_clause', stopBy: 'end', has: { field: 'parameter', ...names } } },
      { has: { ...FUNCTION, stopBy: 'end', has: { field: 'parameters', has: { pattern: meta, stopBy: 'end' } } } },
    ],
  };
};

const notBoundIn = (meta: string) => ({ not: boundIn(meta) });

/** The nearest loop (its body) or per-item callback around the node, with `extra` checked on it. */
const nearestIteration = (extra?: Record<string, unknown>) => {
  const checks = extra ? { all: [extra] } : {};
  return {
    any: [
      { inside: { ...anyKind(LOOP_KINDS), field: 'body', stopBy: LOOP_OR_FUNCTION, ...checks } },
      { inside: { ...ITERATION_CALLBACK, stopBy: FUNCTION, ...checks } },
    ],
  };
};

/** A variable in a RegExp's arguments (not the name of a function it calls). */
const REGEX_VARIABLE = { kind: 'identifier', not: { inside: { kind: 'call_expression', field: 'function' } } };

export const stringConcatInLoopRule: Rule = {
  id: 'js.string-concat-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'info',
  message:
    'Building a string with += inside a loop copies it again and again for large outputs: collect the parts in an array and join them once.',
  rule: {
    kind: 'augmented_assignment_expression',
    has: { field: 'operator', regex: '^\\+=$' },
    all: [
      // Output being built (markup, lines, CSV cells): the loops whose size grows with the data.
      {
        has: {
          field: 'right',
          any: [{ kind: 'string' }, { kind: 'template_string' }, CONCATENATION],
          regex: '<[A-Za-z/]|\\\\n|[\'"`],\\s*[\'"`]',
        },
      },
      inLoopBody(),
    ],
  },
};

export const regexInLoopRule: Rule = {
  id: 'js.regex-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'info',
  message: 'A constant regular expression is compiled again on every iteration: build it once before the loop.',
  rule: {
    kind: 'new_expression',
    has: { field: 'constructor', regex: '^RegExp$' },
    all: [
      { has: { field: 'arguments', has: { nthChild: 1, kind: 'string' } } },
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              any: [
                { kind: 'identifier' },
                { kind: 'member_expression' },
                INTERPOLATED_TEMPLATE,
                { kind: 'call_expression' },
              ],
            },
          },
        },
      },
      inLoopBody(),
    ],
  },
};

export const regexInvariantInLoopRule: Rule = {
  id: 'js.regex-invariant-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'warning',
  message:
    "This RegExp is built only from the function's parameters, which do not change inside the loop, so the same pattern is compiled again on every iteration: build it once before the loop.",
  rule: {
    kind: 'new_expression',
    has: { field: 'constructor', regex: '^RegExp$' },
    all: [
      inLoopBody(),
      { has: { field: 'arguments', has: { kind: 'identifier', stopBy: 'end' } } },
      // Every name in the pattern is a parameter of the enclosing function (not a loop variable).
      {
        not: {
          has: {
            field: 'arguments',
            stopBy: 'end',
            kind: 'identifier',
            pattern: '$NAME',
            not: {
              inside: {
                ...FUNCTION,
                stopBy: FUNCTION,
                has: { field: 'parameters', has: { kind: 'identifier', pattern: '$NAME', stopBy: 'end' } },
              },
            },
          },
        },
      },
      { not: { has: { field: 'arguments', has: { kind: 'call_expression', stopBy: 'end' } } } },
    ],
  },
};

export const regexUnchangedInLoopRule: Rule = {
  id: 'js.regex-unchanged-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'warning',
  message:
    'This RegExp is built only from values that do not change inside the loop (parameters or locals set before it), so the same pattern is compiled again for every item: build it once before the loop.',
  rule: {
    kind: 'new_expression',
    has: { field: 'constructor', regex: '^RegExp$' },
    all: [
      nearestIteration(),
      // It uses at least one variable (a constant pattern is js.regex-in-loop's) ...
      { has: { field: 'arguments', has: { ...REGEX_VARIABLE, stopBy: 'end' } } },
      // ... only helper calls that escape text (`escapeRegExp(term)`) ...
      {
        not: {
          has: {
            field: 'arguments',
            has: { kind: 'call_expression', stopBy: 'end', not: { regex: '(?i)^[\\w$.]*escape\\w*\\(' } },
          },
        },
      },
      // ... and none of its variables is bound or changed by the nearest loop or callback.
      {
        not: {
          has: {
            field: 'arguments',
            has: { ...REGEX_VARIABLE, pattern: '$RXVAR', stopBy: 'end', ...nearestIteration(boundIn('$RXVAR')) },
          },
        },
      },
    ],
  },
};

export const regexRebuiltPerItemRule: Rule = {
  id: 'js.regex-rebuilt-per-item',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'warning',
  message:
    'This RegExp is built only from the inner loop item, so the same patterns are compiled again for every item of the outer loop: compile them once before it (e.g. `const patterns = terms.map((t) => new RegExp(t))`).',
  rule: {
    kind: 'new_expression',
    has: { field: 'constructor', regex: '^RegExp$' },
    all: [
      // The nearest loop is a for-of over a list ($LIST) that does not change with the outer iteration.
      {
        inside: {
          kind: 'for_in_statement',
          field: 'body',
          stopBy: LOOP_OR_FUNCTION,
          all: [
            { has: { field: 'left', kind: 'identifier', pattern: '$ITEM' } },
            { has: { field: 'right', kind: 'identifier', pattern: '$LIST' } },
            {
              any: [
                ...LOOP_KINDS.map((kind) => ({
                  inside: { kind, field: 'body', stopBy: LOOP_OR_FUNCTION, not: DECLARES_LIST },
                })),
                { inside: { ...ITERATION_CALLBACK, stopBy: LOOP_OR_FUNCTION, not: DECLARES_LIST } },
              ],
            },
          ],
        },
      },
      // The pattern uses the inner item and nothing else that could vary (helper calls are fine).
      { has: { field: 'arguments', has: { kind: 'identifier', pattern: '$ITEM', stopBy: 'end' } } },
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              kind: 'identifier',
              not: { any: [{ pattern: '$ITEM' }, { inside: { kind: 'call_expression', field: 'function' } }] },
              stopBy: 'end',
            },
          },
        },
      },
    ],
  },
};

export const jsonParseInvariantInLoopRule: Rule = {
  id: 'js.json-parse-invariant-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'warning',
  message:
    'JSON.parse of the same stored value (a fixed localStorage key, file or environment variable) runs again on every iteration, re-reading and re-parsing it each time: parse it once before the loop.',
  rule: {
    pattern: 'JSON.parse($$$)',
    all: [
      firstArgument({
        any: [
          {
            kind: 'call_expression',
            all: [
              calleeProperty('^(getItem|readFileSync)$'),
              {
                has: {
                  field: 'arguments',
                  regex: '^\\(\\s*([\'"][^\'"]*[\'"]|[A-Z][A-Z0-9_]*)(\\s*,\\s*[\'"][^\'"]*[\'"])*\\s*,?\\s*\\)$',
                },
              },
            ],
          },
          { kind: 'member_expression', regex: '^process\\.env\\.\\w+$' },
          // With a literal default: `JSON.parse(process.env.FEATURE_FLAGS ?? '{}')`.
          {
            kind: 'binary_expression',
            regex: '^process\\.env\\.\\w+\\s*(\\?\\?|\\|\\|)\\s*([\'"`][^\'"`]*[\'"`]|[A-Z][A-Z0-9_]*)$',
          },
          // A module constant: `JSON.parse(DEFAULTS_JSON)`.
          { kind: 'identifier', regex: '^[A-Z][A-Z0-9_]*$' },
        ],
      }),
      { any: [inLoopBody(), { inside: { ...ITERATION_CALLBACK, stopBy: FUNCTION } }] },
    ],
  },
};

export const jsonParseUnchangedInLoopRule: Rule = {
  id: 'js.json-parse-unchanged-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'warning',
  message:
    'JSON.parse of a value that does not change inside the loop (a parameter or a local set before it) runs again for every item, re-parsing the same text each time: parse it once before the loop.',
  rule: {
    pattern: 'JSON.parse($$$)',
    all: [
      // `JSON.parse(rawOverrides)`, `JSON.parse(settings.rulesJson)`: the root name is $P.
      firstArgument({
        any: [
          { kind: 'identifier', pattern: '$P', not: CONSTANT_NAME },
          {
            kind: 'member_expression',
            has: {
              field: 'object',
              any: [
                { kind: 'identifier', pattern: '$P' },
                { kind: 'member_expression', has: { field: 'object', kind: 'identifier', pattern: '$P' } },
              ],
            },
          },
        ],
      }),
      nearestIteration(notBoundIn('$P')),
    ],
  },
};

export const jsonCloneInLoopRule: Rule = {
  id: 'js.json-clone-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'info',
  message:
    'JSON.parse(JSON.stringify(...)) inside a loop serializes and re-parses the whole value every iteration: use structuredClone, or clone once outside the loop.',
  rule: {
    pattern: 'JSON.parse(JSON.stringify($X))',
    all: [inLoopBody()],
  },
  fix: 'structuredClone($X)',
};
