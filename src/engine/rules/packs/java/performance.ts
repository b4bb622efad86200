import type { Rule } from '../../rule-schema.js';
import { firstArgument } from './fragments.js';

/** Inside the body of a loop, not in the loop header. */
const inLoopBody = {
  inside: {
    stopBy: { any: [{ kind: 'method_declaration' }, { kind: 'lambda_expression' }, { kind: 'class_body' }] },
    kind: 'block',
    inside: {
      any: [
        { kind: 'for_statement' },
        { kind: 'enhanced_for_statement' },
        { kind: 'while_statement' },
        { kind: 'do_statement' },
      ],
    },
  },
};

/** `$meta` is a parameter of the enclosing method or a field of the class: the same on every loop iteration. */
const parameterOrField = (meta: string): Record<string, unknown> => ({
  kind: 'identifier',
  pattern: meta,
  any: [
    {
      inside: {
        stopBy: 'end',
        kind: 'method_declaration',
        has: { field: 'parameters', has: { kind: 'formal_parameter', has: { field: 'name', pattern: meta } } },
      },
    },
    {
      inside: {
        stopBy: 'end',
        kind: 'class_body',
        has: { kind: 'field_declaration', has: { field: 'declarator', has: { field: 'name', pattern: meta } } },
      },
    },
  ],
});

/** A value that does not change inside a loop: a parameter or field, or a getter without arguments on one. */
const loopInvariant = {
  any: [
    parameterOrField('$INVARIANT'),
    {
      kind: 'method_invocation',
      all: [
        { has: { field: 'object', ...parameterOrField('$INVARIANT') } },
        { has: { field: 'arguments', regex: '^\\(\\s*\\)$' } },
      ],
    },
  ],
};

/** Stops a search for an enclosing node at the method or class. */
const IN_METHOD = { any: [{ kind: 'method_declaration' }, { kind: 'class_body' }] };

/** A lambda passed to a stream or collection operation: it runs once per element. */
const streamLambda = {
  kind: 'lambda_expression',
  inside: {
    kind: 'argument_list',
    inside: {
      kind: 'method_invocation',
      has: {
        field: 'name',
        regex: '^(filter|map|flatMap|forEach|anyMatch|allMatch|noneMatch|removeIf|replaceAll|mapToObj|peek)$',
      },
    },
  },
};

export const stringConcatInLoopRule: Rule = {
  id: 'java.string-concat-in-loop',
  languages: ['java'],
  type: 'performance',
  severity: 'warning',
  message:
    'String += inside a loop copies the whole string on every iteration (quadratic time). Use a StringBuilder, or String.join / Collectors.joining.',
  rule: {
    kind: 'assignment_expression',
    all: [
      { has: { field: 'operator', regex: '^\\+=$' } },
      {
        any: [
          {
            has: {
              field: 'right',
              any: [{ kind: 'string_literal' }, { has: { stopBy: 'end', kind: 'string_literal' } }],
            },
          },
          {
            has: { field: 'left', kind: 'identifier', pattern: '$S' },
            inside: {
              stopBy: 'end',
              kind: 'method_declaration',
              has: {
                stopBy: 'end',
                kind: 'local_variable_declaration',
                all: [
                  { has: { field: 'type', regex: '^String$' } },
                  { has: { field: 'declarator', has: { field: 'name', pattern: '$S' } } },
                ],
              },
            },
          },
        ],
      },
      inLoopBody,
    ],
  },
};

export const regexCompileInLoopRule: Rule = {
  id: 'java.regex-compile-in-loop',
  languages: ['java'],
  type: 'performance',
  severity: 'warning',
  message:
    'A constant regular expression is compiled for every element (in a loop or a stream lambda). Compile it once into a static final Pattern.',
  rule: {
    kind: 'method_invocation',
    regex: '^Pattern\\.compile\\(',
    any: [
      {
        all: [
          // A literal, or a parameter or field: the same pattern on every iteration.
          firstArgument({ any: [{ kind: 'string_literal' }, loopInvariant] }),
          { any: [inLoopBody, { inside: { stopBy: IN_METHOD, ...streamLambda } }] },
        ],
      },
      // In a lambda nested in another per-element lambda or loop: compiled once per pair of elements.
      {
        inside: {
          stopBy: IN_METHOD,
          all: [
            streamLambda,
            {
              inside: {
                stopBy: IN_METHOD,
                any: [
                  streamLambda,
                  {
                    kind: 'block',
                    inside: {
                      any: [
                        { kind: 'for_statement' },
                        { kind: 'enhanced_for_statement' },
                        { kind: 'while_statement' },
                        { kind: 'do_statement' },
                      ],
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

export const queryInLoopRule: Rule = {
  id: 'java.query-in-loop',
  languages: ['java'],
  type: 'performance',
  severity: 'warning',
  message:
    'A repository lookup or query runs once per loop iteration or stream element (N+1 queries). Load all the rows at once, e.g. findAllById(ids) or WHERE id IN (...), and index them in a map.',
  rule: {
    kind: 'method_invocation',
    any: [
      {
        has: { field: 'name', regex: '^(findById|getById|getReferenceById|findOne|getOne)$' },
        // In a loop, or in a stream lambda (`orders.stream().map(o -> customers.findById(...))`).
        any: [inLoopBody, { inside: { stopBy: IN_METHOD, ...streamLambda } }],
      },
      // JDBC: a prepared statement executed once per element instead of one `IN (...)` / batch query.
      {
        all: [
          { has: { field: 'name', regex: '^executeQuery$' } },
          { has: { field: 'arguments', regex: '^\\(\\s*\\)$' } },
          inLoopBody,
        ],
      },
    ],
  },
};

export const objectMapperInLoopRule: Rule = {
  id: 'java.object-mapper-in-loop',
  languages: ['java'],
  type: 'performance',
  severity: 'warning',
  message:
    'A new ObjectMapper (or Gson/JAXBContext) per loop iteration rebuilds its serializer caches every time: create it once (a static final field or an injected bean) and reuse it; it is thread-safe.',
  rule: {
    kind: 'object_creation_expression',
    has: { field: 'type', regex: '^(ObjectMapper|XmlMapper|JsonMapper|Gson|GsonBuilder)$' },
    ...inLoopBody,
  },
};

export const blockingCallInReactiveRule: Rule = {
  id: 'java.blocking-call-in-reactive',
  languages: ['java'],
  type: 'performance',
  severity: 'warning',
  message:
    'A blocking call (file I/O, RestTemplate, JDBC, Thread.sleep, block()) in a method that returns a Mono/Flux runs on the event loop: it stalls every other request on that thread. Use the reactive client (WebClient, R2DBC), or wrap it in Mono.fromCallable(...).subscribeOn(Schedulers.boundedElastic()).',
  rule: {
    any: [
      {
        kind: 'method_invocation',
        regex:
          '^(Files\\.(readAllBytes|readString|readAllLines|lines|write|writeString|copy|move|newInputStream|newOutputStream|newBufferedReader|newBufferedWriter)|Thread\\.sleep)\\(',
      },
      {
        kind: 'method_invocation',
        all: [
          {
            has: {
              field: 'name',
              regex: '^(getForObject|getForEntity|postForObject|postForEntity|exchange|executeQuery|executeUpdate)$',
            },
          },
          { has: { field: 'object', regex: '(?i)(rest|resttemplate|template|jdbc\\w*|statement|stmt|ps)$' } },
        ],
      },
      { kind: 'method_invocation', has: { field: 'name', regex: '^(block|blockFirst|blockLast|blockOptional)$' } },
      {
        kind: 'object_creation_expression',
        has: { field: 'type', regex: '^(FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile)$' },
      },
    ],
    inside: {
      stopBy: 'end',
      kind: 'method_declaration',
      all: [
        { has: { field: 'type', regex: '^(Mono|Flux)\\s*<' } },
        { not: { regex: 'boundedElastic|fromCallable|publishOn|subscribeOn' } },
      ],
    },
  },
};

export const parseInvariantInLoopRule: Rule = {
  id: 'java.parse-invariant-in-loop',
  languages: ['java'],
  type: 'performance',
  severity: 'warning',
  message:
    'The same JSON (a parameter or a field, unchanged by the loop) is parsed again on every iteration. Parse it once before the loop and reuse the result.',
  rule: {
    kind: 'method_invocation',
    all: [
      { has: { field: 'name', regex: '^(readValue|readTree|fromJson)$' } },
      firstArgument(loopInvariant),
      inLoopBody,
    ],
  },
};
