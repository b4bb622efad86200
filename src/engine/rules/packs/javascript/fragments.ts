import type { Rule } from '../../rule-schema.js';

export const LANGUAGES: Rule['languages'] = ['javascript', 'typescript'];

export const FUNCTION_KINDS = [
  'function_declaration',
  'function_expression',
  'arrow_function',
  'method_definition',
  'generator_function_declaration',
  'generator_function',
];

export const LOOP_KINDS = ['for_statement', 'for_in_statement', 'while_statement', 'do_statement'];

export const anyKind = (kinds: string[]) => ({ any: kinds.map((kind) => ({ kind })) });

export const FUNCTION = anyKind(FUNCTION_KINDS);

/** A module constant: `INBOX_ICON`, `DEFAULT_TEMPLATE`. */
export const CONSTANT_NAME = { kind: 'identifier', regex: '^[A-Z][A-Z0-9_]*$' };

/**
 * Inside the body of a loop (not its header), with no function in between: a callback defined in
 * a loop runs elsewhere. `stopBy` halts at the nearest loop or function, which must be a loop
 * whose `body` holds the node.
 */
export const LOOP_OR_FUNCTION = anyKind([...FUNCTION_KINDS, ...LOOP_KINDS]);

/** A template literal with at least one `${...}`. */
export const INTERPOLATED_TEMPLATE = { kind: 'template_string', has: { kind: 'template_substitution' } };

/** `'...' + x` (any concatenation that involves a string or template literal). */
export const CONCATENATION = {
  kind: 'binary_expression',
  has: { field: 'operator', regex: '^\\+$' },
  all: [
    { has: { any: [{ kind: 'string' }, { kind: 'template_string' }], stopBy: 'end' } },
    {
      has: {
        any: [{ kind: 'identifier' }, { kind: 'member_expression' }, { kind: 'call_expression' }],
        stopBy: 'end',
      },
    },
  ],
};

export const DYNAMIC_STRING = { any: [INTERPOLATED_TEMPLATE, CONCATENATION] };

/** A function of this file named by `metavariable`: a declaration, or a const bound to an arrow or function expression. */
export function functionNamed(metavariable: string) {
  return [
    { kind: 'function_declaration', has: { field: 'name', pattern: metavariable } },
    {
      kind: 'variable_declarator',
      has: { field: 'name', pattern: metavariable },
      all: [{ has: { field: 'value', any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }] } }],
    },
  ];
}

/**
 * A call of a function of this file (`meta` names it, as the caller's metavariable) whose
 * definition matches every rule of `definition`.
 */
export function callOfFileFunction(meta: string, definition: Record<string, unknown>[]): Record<string, unknown> {
  return {
    kind: 'call_expression',
    has: { field: 'function', kind: 'identifier', pattern: meta },
    inside: {
      kind: 'program',
      stopBy: 'end',
      has: {
        stopBy: 'end',
        // In this order (ast-grep checks `all` before `any`): the function's name, then its text.
        all: [{ any: functionNamed(meta) }, ...definition],
      },
    },
  };
}

/** The identifier `meta`, a parameter of the function it is in. */
export function parameterOfEnclosingFunction(meta: string): Record<string, unknown> {
  return {
    kind: 'identifier',
    pattern: meta,
    stopBy: 'end',
    inside: { ...FUNCTION, stopBy: 'end', has: { field: 'parameters', has: { pattern: meta, stopBy: 'end' } } },
  };
}

/** Anything but a string literal or a template literal without substitutions. */
export const NON_LITERAL = {
  not: { any: [{ kind: 'string' }, { kind: 'template_string', not: { has: { kind: 'template_substitution' } } }] },
};

/**
 * Text that reads straight from a request: Express/Fastify (`req.query.x`, `request.body`), Koa
 * (`ctx.request.body`, `ctx.params.x`, `ctx.query`; not `ctx.body`, the response) and AWS Lambda
 * (`event.queryStringParameters.x`).
 */
const REQUEST_INPUT =
  '^((req|request|ctx\\.request)\\.(query|body|params|headers|cookies)|ctx\\.(query|params|headers|cookies)|event\\.(queryStringParameters|pathParameters|multiValueQueryStringParameters))\\b';

/** A query-string read through URLSearchParams: `request.nextUrl.searchParams.get('file')`. */
const SEARCH_PARAMS_GET = '^([\\w$]+\\.)*searchParams\\.get(All)?\\(';

const CONTAINS_REQUEST_INPUT = { has: { kind: 'member_expression', regex: REQUEST_INPUT, stopBy: 'end' } };

/**
 * An identifier `meta` declared in an enclosing function (`const x = ...`, or destructured:
 * `const { x } = ...`) from a value matching `value`: one local step of data flow.
 */
export const declaredFrom = (value: Record<string, unknown>, meta: string) => ({
  kind: 'identifier',
  pattern: meta,
  inside: {
    ...FUNCTION,
    stopBy: 'end',
    has: {
      kind: 'variable_declarator',
      stopBy: 'end',
      all: [
        { has: { field: 'name', any: [{ pattern: meta }, { has: { pattern: meta, stopBy: 'end' } }] } },
        { has: { field: 'value', ...value } },
      ],
    },
  },
});

/** The identifier `meta`, bound at the module's top level (`const IV = ...`) to a value matching `value`. */
export const moduleConstant = (value: Record<string, unknown>, meta: string) => ({
  kind: 'identifier',
  pattern: meta,
  inside: {
    kind: 'program',
    stopBy: 'end',
    has: {
      any: [{ kind: 'lexical_declaration' }, { kind: 'variable_declaration' }],
      has: {
        kind: 'variable_declarator',
        all: [{ has: { field: 'name', pattern: meta } }, { has: { field: 'value', ...value } }],
      },
    },
  },
});

/** A parameter bound from the request by a NestJS decorator: `@Query('file') file: string`, `@Body() dto`. */
export const nestRequestParameter = (meta: string) => ({
  kind: 'identifier',
  pattern: meta,
  inside: {
    ...FUNCTION,
    stopBy: 'end',
    has: {
      field: 'parameters',
      has: { regex: '^@(Body|Query|Param|Headers)\\(', has: { kind: 'identifier', pattern: meta } },
    },
  },
});

/** Not a choice made from the request (`req.params.doc === 'privacy' ? 'privacy.md' : 'terms.md'`). */
const NOT_A_TEST = {
  not: {
    any: [
      { kind: 'ternary_expression' },
      {
        kind: 'binary_expression',
        has: { field: 'operator', regex: '^(===|!==|==|!=|<|>|<=|>=|in|instanceof)$' },
      },
    ],
  },
};

export const REQUEST_VALUE_TEXT =
  '^((String|Number|decodeURIComponent|decodeURI)\\(\\s*)?(((req|request|ctx\\.request|ctx)\\.(query|body|params|headers|cookies)|event\\.(queryStringParameters|pathParameters))\\b|([\\w$]+\\.)*searchParams\\.get(All)?\\(|\\(?(await\\s+)?(req|request)\\.(json|formData)\\(\\))';

/**
 * A dynamic segment of a Next.js route handler: `params.slug` in
 * `export async function GET(req, { params }: { params: { slug: string } })`.
 */
const NEXT_ROUTE_PARAM = {
  kind: 'member_expression',
  regex: '^params\\.\\w+',
  inside: {
    stopBy: 'end',
    any: [
      { kind: 'function_declaration', has: { field: 'name', regex: '^(GET|POST|PUT|PATCH|DELETE|HEAD)$' } },
      { kind: 'variable_declarator', has: { field: 'name', regex: '^(GET|POST|PUT|PATCH|DELETE|HEAD)$' } },
    ],
  },
};

/** A value read from the request: `req.query.x`, a local holding it, or a NestJS request parameter. */
const REQUEST_VALUE = {
  any: [
    { kind: 'member_expression', regex: REQUEST_INPUT },
    NEXT_ROUTE_PARAM,
    { kind: 'call_expression', regex: SEARCH_PARAMS_GET },
    // `const name = req.query.name`, `String(req.query.q ?? '')`, `const { file } = req.params`.
    declaredFrom({ regex: REQUEST_VALUE_TEXT, ...NOT_A_TEST }, '$REQVAR'),
    nestRequestParameter('$NESTPARAM'),
  ],
};

/** A request value without the NestJS case (smaller, for nested uses): `req.query.x`, or a local read from it. */
export const REQUEST_VALUE_LITE = {
  any: [
    { kind: 'member_expression', regex: REQUEST_INPUT },
    NEXT_ROUTE_PARAM,
    { kind: 'call_expression', regex: SEARCH_PARAMS_GET },
    declaredFrom({ regex: REQUEST_VALUE_TEXT, ...NOT_A_TEST }, '$REQLOCAL'),
  ],
};

/**
 * An expression carrying request input: a request value, an expression built from one (a path
 * join, a template, a concatenation), or a local declared from such an expression. `clean`
 * (e.g. "no basename() call") must hold on the expression and on the local's value.
 */
export const carriesRequest = (clean?: Record<string, unknown>) => {
  const built = { any: [{ kind: 'call_expression' }, DYNAMIC_STRING], has: { ...REQUEST_VALUE, stopBy: 'end' } };
  const checks = clean ? [clean] : [];
  return {
    all: [
      ...checks,
      {
        any: [
          REQUEST_VALUE,
          CONTAINS_REQUEST_INPUT,
          built,
          declaredFrom(
            { all: [...checks, NOT_A_TEST, { any: [{ regex: REQUEST_INPUT }, CONTAINS_REQUEST_INPUT, built] }] },
            '$BUILTVAR',
          ),
        ],
      },
    ],
  };
};

export const firstArgument = (rule: Record<string, unknown>) => ({
  has: { field: 'arguments', kind: 'arguments', has: { nthChild: 1, ...rule } },
});

export const calleeProperty = (regex: string, object?: string) => ({
  has: {
    field: 'function',
    kind: 'member_expression',
    all: [{ has: { field: 'property', regex } }, ...(object ? [{ has: { field: 'object', regex: object } }] : [])],
  },
});

export const calleeName = (regex: string) => ({ has: { field: 'function', kind: 'identifier', regex } });
