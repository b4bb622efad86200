import type { Rule } from '../../rule-schema.js';
import { plainString } from './fragments.js';

/** A Django queryset that does not load its relations: `Comment.objects.filter(...)[:100]`. */
const lazyQueryset = {
  regex: '^[A-Z]\\w*\\.objects\\.',
  not: { regex: '\\.(select_related|prefetch_related|values|values_list|in_bulk|count|exists|aggregate)\\(' },
};

/** Attribute names that are fields, not relations: timestamps, ids, data and text columns. */
const NOT_RELATION =
  '(_at|_on|_id|_date|_time|_json|_data|_set|_count)$|^(id|pk|date|time|data|meta|metadata|payload|config|settings|extra|name|title|body|text|email|slug|status|state|amount|total|price|kind|type|objects|_meta|__class__|__dict__)$';

/** Inside the body of a `for` or `while` loop (not its header, not a comprehension). */
const inLoopBody = {
  inside: {
    stopBy: { kind: 'function_definition' },
    kind: 'block',
    inside: { any: [{ kind: 'for_statement' }, { kind: 'while_statement' }] },
  },
};

/** A statement in a loop body that binds or changes the variable `v` (so it is not loop-invariant). */
function boundOrChanged(v: string): Record<string, unknown> {
  const named = { any: [{ pattern: v }, { has: { stopBy: 'end', kind: 'identifier', pattern: v } }] };
  return {
    any: [
      { kind: 'assignment', has: { field: 'left', ...named } },
      { kind: 'augmented_assignment', has: { field: 'left', ...named } },
      { kind: 'as_pattern_target', has: { pattern: v } },
      { kind: 'for_statement', has: { field: 'left', ...named } },
      { kind: 'named_expression', has: { field: 'name', pattern: v } },
      {
        kind: 'call',
        has: {
          field: 'function',
          kind: 'attribute',
          all: [
            { has: { field: 'object', pattern: v } },
            {
              has: {
                field: 'attribute',
                regex: '^(append|extend|insert|write|update|add|pop|clear|seek|read|readline|readlines|send|recv|put)$',
              },
            },
          ],
        },
      },
    ],
  };
}

export const stringConcatInLoopRule: Rule = {
  id: 'py.string-concat-in-loop',
  languages: ['python'],
  type: 'performance',
  severity: 'warning',
  message:
    'Building a string with += inside a loop copies it on every iteration (quadratic in the worst case). Collect the parts in a list and "".join() them once.',
  rule: {
    kind: 'augmented_assignment',
    has: { field: 'operator', regex: '^\\+=$' },
    all: [
      {
        has: {
          field: 'right',
          any: [
            { kind: 'string' },
            { pattern: 'str($$$)' },
            // A string operand of `+` (not a string used as a key: `price * item["qty"]`).
            {
              kind: 'binary_operator',
              has: {
                stopBy: 'end',
                kind: 'string',
                inside: { kind: 'binary_operator', has: { field: 'operator', regex: '^\\+$' } },
              },
            },
            { kind: 'call', has: { field: 'function', regex: '\\.(format|join)$' } },
          ],
        },
      },
      inLoopBody,
    ],
  },
};

export const queryInLoopRule: Rule = {
  id: 'py.query-in-loop',
  languages: ['python'],
  type: 'performance',
  severity: 'warning',
  message:
    'A Django ORM query per loop iteration (N+1 queries): fetch all the rows once before the loop (filter(pk__in=...), in_bulk(), select_related/prefetch_related) and look them up in a dict.',
  rule: {
    kind: 'call',
    has: {
      field: 'function',
      regex: '^[A-Z]\\w*\\.objects\\.(get|filter|exclude|get_or_create|first|last|count|exists)$',
    },
    ...inLoopBody,
  },
};

export const lazyRelationInLoopRule: Rule = {
  id: 'py.lazy-relation-in-loop',
  languages: ['python'],
  type: 'performance',
  severity: 'warning',
  message:
    'A related object read for each row of a Django queryset that was not told to load it (comment.author.username): every iteration runs one more query (N+1). Add select_related("author") (or prefetch_related for many-valued relations) to the queryset.',
  rule: {
    kind: 'attribute',
    all: [
      {
        has: {
          field: 'object',
          kind: 'attribute',
          all: [
            { has: { field: 'object', kind: 'identifier', pattern: '$ROW' } },
            { has: { field: 'attribute', not: { regex: NOT_RELATION } } },
          ],
        },
      },
      { not: { inside: { kind: 'call', field: 'function' } } },
      {
        inside: {
          stopBy: 'end',
          kind: 'for_statement',
          all: [
            { has: { field: 'left', kind: 'identifier', pattern: '$ROW' } },
            {
              has: {
                field: 'right',
                any: [
                  lazyQueryset,
                  {
                    kind: 'identifier',
                    pattern: '$QS',
                    inside: {
                      stopBy: 'end',
                      kind: 'function_definition',
                      has: {
                        stopBy: 'end',
                        kind: 'assignment',
                        all: [{ has: { field: 'left', pattern: '$QS' } }, { has: { field: 'right', ...lazyQueryset } }],
                      },
                    },
                  },
                ],
              },
            },
          ],
        },
      },
    ],
  },
};

export const regexCompileInLoopRule: Rule = {
  id: 'py.regex-compile-in-loop',
  languages: ['python'],
  type: 'performance',
  severity: 'warning',
  message:
    'A constant regular expression (or JSON document) is compiled or parsed on every loop iteration. Hoist it out of the loop, e.g. a module-level PATTERN = re.compile(...).',
  rule: {
    any: [
      { pattern: 're.compile($$$)', has: { field: 'arguments', has: { nthChild: 1, ...plainString } } },
      { pattern: 'json.loads($P)', has: { field: 'arguments', has: { nthChild: 1, ...plainString } } },
    ],
    ...inLoopBody,
  },
};

export const awaitInLoopRule: Rule = {
  id: 'py.await-in-loop',
  languages: ['python'],
  type: 'performance',
  severity: 'warning',
  message:
    'An await inside a for loop runs the calls one after another. When they are independent, start them together: results = await asyncio.gather(*(client.get(u.id) for u in users)).',
  rule: {
    kind: 'await',
    not: {
      has: {
        kind: 'call',
        has: { field: 'function', regex: '^asyncio\\.(sleep|gather|wait|wait_for)$|\\.(acquire|put|send|sleep)$' },
      },
    },
    inside: {
      stopBy: { any: [{ kind: 'function_definition' }, { kind: 'lambda' }] },
      kind: 'block',
      inside: { kind: 'for_statement', not: { regex: '^async\\s' } },
    },
  },
};

export const blockingCallInAsyncRule: Rule = {
  id: 'py.blocking-call-in-async',
  languages: ['python'],
  type: 'performance',
  severity: 'warning',
  message:
    'A blocking call inside async def stops the whole event loop: no other request is served meanwhile. Use await asyncio.sleep() / an async client (httpx.AsyncClient), or run it with asyncio.to_thread().',
  rule: {
    kind: 'call',
    has: {
      field: 'function',
      regex:
        '^(open|time\\.sleep|requests\\.(get|post|put|patch|delete|head|request)|urllib\\.request\\.urlopen|subprocess\\.(run|call|check_output|check_call))$',
    },
    inside: { stopBy: { kind: 'function_definition' }, kind: 'function_definition', regex: '^async\\s' },
  },
};

export const loopInvariantJsonRule: Rule = {
  id: 'py.loop-invariant-json',
  languages: ['python'],
  type: 'performance',
  severity: 'warning',
  message:
    'json.loads / re.compile / yaml.safe_load is called in a loop on a value that does not change between iterations: the same document is parsed (or the same pattern compiled) every time. Do it once before the loop.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'function', regex: '^(json\\.loads|re\\.compile|yaml\\.safe_load)$' } },
      // A literal argument is py.regex-compile-in-loop.
      { has: { field: 'arguments', has: { nthChild: 1, not: plainString } } },
      {
        inside: {
          stopBy: { kind: 'function_definition' },
          kind: 'block',
          inside: { kind: 'for_statement', not: { regex: '^async\\s' } },
        },
      },
      // Nothing in the argument is bound or changed by the loop.
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              kind: 'identifier',
              pattern: '$V',
              inside: {
                stopBy: { kind: 'function_definition' },
                kind: 'for_statement',
                any: [
                  { has: { field: 'left', any: [{ pattern: '$V' }, { has: { stopBy: 'end', pattern: '$V' } }] } },
                  { has: { field: 'body', has: { stopBy: 'end', ...boundOrChanged('$V') } } },
                ],
              },
            },
          },
        },
      },
      // Only pure helpers in the argument: `"|".join(map(re.escape, words))`, not `fh.read()`.
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              kind: 'call',
              not: {
                has: { field: 'function', regex: '^(map|str|sorted|tuple|list|len|re\\.escape)$|\\.(join|format)$' },
              },
            },
          },
        },
      },
    ],
  },
};
