/** A string literal without interpolation: `"ls"`, `'x'`, `f"static"`. */
export const plainString = { kind: 'string', not: { has: { kind: 'interpolation' } } };

/** A request value (Flask, Django, FastAPI/Starlette): `request.args.get("x")`, `request.GET["x"]`. */
const REQUEST_VALUE =
  '^request\\.(args|form|values|files|GET|POST|json|data|cookies|headers|query_params|path_params|get_json|get_data|path|full_path|url|query_string|view_args|body|match_info|query)\\b';

/**
 * The parsed body of a request kept in a variable: `payload = request.get_json()`,
 * `data = json.loads(request.body)`, `body = await request.json()`.
 */
const REQUEST_BODY = {
  any: [
    { regex: '^request\\.(get_json|json|form|args|values|GET|POST|data|query_params)\\b' },
    { kind: 'await', regex: '^await\\s+request\\.(json|form|body)\\(' },
    {
      kind: 'call',
      has: { field: 'function', regex: '^json\\.loads$' },
      all: [{ has: { field: 'arguments', has: { nthChild: 1, regex: REQUEST_VALUE } } }],
    },
  ],
};

/** A variable assigned from the request body in the same function (`$BODY`). */
const requestBodyVariable = {
  kind: 'identifier',
  pattern: '$BODY',
  inside: {
    stopBy: 'end',
    kind: 'function_definition',
    has: {
      stopBy: 'end',
      kind: 'assignment',
      all: [{ has: { field: 'left', pattern: '$BODY' } }, { has: { field: 'right', ...REQUEST_BODY } }],
    },
  },
};

/** A field of a request body kept in a variable: `payload["url"]`, `data.get("path")`. */
const REQUEST_BODY_FIELD = {
  any: [
    { kind: 'subscript', has: { field: 'value', ...requestBodyVariable } },
    {
      kind: 'call',
      has: {
        field: 'function',
        kind: 'attribute',
        all: [{ has: { field: 'attribute', regex: '^get$' } }, { has: { field: 'object', ...requestBodyVariable } }],
      },
    },
  ],
};

/**
 * A parameter of a web route function (FastAPI `@router.get(...)`, Flask `@app.route(...)`): the
 * framework fills it from the path, query or body. Numbers, dates, the request object and
 * injected dependencies are left out.
 */
const routeParameter = (meta: string): Record<string, unknown> => ({
  kind: 'identifier',
  pattern: meta,
  not: { regex: '^(request|self|cls|db|session|background_tasks|response)$' },
  inside: {
    stopBy: 'end',
    kind: 'function_definition',
    inside: {
      kind: 'decorated_definition',
      has: { kind: 'decorator', regex: '^@\\w+\\.(get|post|put|patch|delete|api_route|route)\\(' },
    },
    has: {
      field: 'parameters',
      has: {
        any: [
          { kind: 'identifier', pattern: meta },
          {
            any: [{ kind: 'typed_parameter' }, { kind: 'typed_default_parameter' }, { kind: 'default_parameter' }],
            has: { kind: 'identifier', pattern: meta },
          },
        ],
        not: {
          any: [
            { has: { field: 'type', regex: '^(int|float|bool|UUID|uuid\\.UUID|date|datetime|Request|Session)$' } },
            { has: { field: 'value', regex: '^Depends\\(' } },
          ],
        },
      },
    },
  },
});

/**
 * The expression carries a request value: the value itself, a string, concatenation or path
 * join built from it, or a variable assigned from it in the same function.
 */
export function fromRequest(): Record<string, unknown> {
  const direct = {
    any: [
      { regex: REQUEST_VALUE },
      REQUEST_BODY_FIELD,
      routeParameter('$ROUTEPARAM'),
      // A field of a route's body model: `body.url`, `payload.path`.
      { kind: 'attribute', has: { field: 'object', ...routeParameter('$ROUTEMODEL') } },
    ],
  };
  const containsRequest = {
    has: {
      stopBy: 'end',
      any: [{ kind: 'attribute', regex: REQUEST_VALUE }, routeParameter('$ROUTEPARTS')],
    },
  };
  const built = {
    any: [
      { kind: 'string', ...containsRequest },
      { kind: 'binary_operator', ...containsRequest },
      {
        kind: 'call',
        all: [
          {
            has: {
              field: 'function',
              regex: '^(os\\.path\\.join|str|Path|urljoin|urllib\\.parse\\.urljoin)$|\\.format$',
            },
          },
          containsRequest,
        ],
      },
    ],
  };
  const tainted = {
    stopBy: 'end',
    kind: 'assignment',
    all: [{ has: { field: 'left', pattern: '$TAINTED' } }, { has: { field: 'right', any: [direct, built] } }],
  };
  return {
    any: [
      direct,
      built,
      // A join, f-string or concatenation of a variable assigned from the request in the same function.
      {
        any: [
          { kind: 'string' },
          { kind: 'binary_operator' },
          {
            kind: 'call',
            has: { field: 'function', regex: '^(os\\.path\\.join|Path|urljoin|urllib\\.parse\\.urljoin)$' },
          },
        ],
        has: {
          stopBy: 'end',
          kind: 'identifier',
          pattern: '$TAINTED',
          inside: { stopBy: 'end', kind: 'function_definition', has: tainted },
        },
      },
      {
        kind: 'identifier',
        pattern: '$TAINTED',
        inside: {
          stopBy: 'end',
          kind: 'function_definition',
          has: {
            stopBy: 'end',
            kind: 'assignment',
            all: [{ has: { field: 'left', pattern: '$TAINTED' } }, { has: { field: 'right', any: [direct, built] } }],
          },
        },
      },
    ],
  };
}

/** The call's first argument matches `rule`. */
export function firstArgument(rule: Record<string, unknown>): Record<string, unknown> {
  return { has: { field: 'arguments', has: { nthChild: 1, ...rule } } };
}

/** A string literal, alone or implicitly concatenated: `"a"`, `"a " "b"`. */
const STRING_LITERAL = { any: [{ kind: 'string' }, { kind: 'concatenated_string' }] };

/** A string built by formatting: f-string, `%`, concatenation with a value, or `"...".format(...)`. */
export const FORMATTED_STRING = {
  any: [
    { kind: 'string', has: { kind: 'interpolation' } },
    { kind: 'concatenated_string', has: { kind: 'string', has: { kind: 'interpolation' } } },
    {
      kind: 'binary_operator',
      all: [{ has: { field: 'operator', regex: '^%$' } }, { has: { field: 'left', ...STRING_LITERAL } }],
    },
    {
      kind: 'binary_operator',
      all: [
        { has: { field: 'operator', regex: '^\\+$' } },
        { has: { stopBy: 'end', kind: 'string' } },
        { has: { stopBy: 'end', any: [{ kind: 'identifier' }, { kind: 'call' }] } },
      ],
    },
    {
      kind: 'call',
      has: {
        field: 'function',
        kind: 'attribute',
        all: [{ has: { field: 'object', ...STRING_LITERAL } }, { has: { field: 'attribute', regex: '^format$' } }],
      },
    },
  ],
};

/**
 * A value that cannot carry a quote into a query: a number, a lookup in a constant mapping (an
 * allow-list: `SORT_COLUMNS.get(sort, "id")`, `COLUMNS[key]`), a choice checked against a constant
 * set, or a variable assigned from one of those (or checked with `if x not in ALLOWED:`) in the
 * same function.
 */
const SAFE_EXPRESSION = {
  any: [
    { kind: 'integer' },
    { kind: 'identifier', regex: '^[A-Z][A-Z0-9_]*$' },
    { kind: 'call', has: { field: 'function', regex: '^(int|float|len|abs|round)$|^[A-Z][A-Z0-9_]*\\.get$' } },
    { kind: 'subscript', has: { field: 'value', regex: '^[A-Z][A-Z0-9_]*$' } },
    { kind: 'conditional_expression', regex: '\\bin\\s+[A-Z][A-Z0-9_]*\\b' },
  ],
};

const safeValue = {
  any: [
    SAFE_EXPRESSION,
    {
      kind: 'identifier',
      pattern: '$SAFE',
      inside: {
        stopBy: 'end',
        kind: 'function_definition',
        has: {
          stopBy: 'end',
          any: [
            {
              kind: 'assignment',
              all: [{ has: { field: 'left', pattern: '$SAFE' } }, { has: { field: 'right', ...SAFE_EXPRESSION } }],
            },
            { kind: 'comparison_operator', pattern: '$SAFE not in $ALLOWED' },
          ],
        },
      },
    },
  ],
};

/** A formatted string whose every formatted value is safe (see `safeValue`). */
export const ONLY_SAFE_VALUES = {
  any: [
    {
      any: [{ kind: 'string' }, { kind: 'concatenated_string' }],
      not: { has: { stopBy: 'end', kind: 'interpolation', not: { has: { field: 'expression', ...safeValue } } } },
    },
    {
      kind: 'call',
      has: { field: 'function', kind: 'attribute', regex: '\\.format$' },
      not: { has: { field: 'arguments', has: { not: safeValue } } },
    },
    {
      kind: 'binary_operator',
      has: { field: 'operator', regex: '^%$' },
      all: [
        {
          has: {
            field: 'right',
            any: [safeValue, { kind: 'tuple', not: { has: { not: safeValue } } }],
          },
        },
      ],
    },
    // Concatenation of literals and constants only: `"SELECT * FROM " + TABLE + " WHERE id = %s"`.
    {
      kind: 'binary_operator',
      has: { field: 'operator', regex: '^\\+$' },
      not: { has: { stopBy: 'end', kind: 'identifier', not: { regex: '^[A-Z][A-Z0-9_]*$' } } },
    },
  ],
};

/** A string built by formatting with at least one value that may carry a quote. */
export const UNSAFE_FORMATTED_STRING = { all: [FORMATTED_STRING, { not: ONLY_SAFE_VALUES }] };
