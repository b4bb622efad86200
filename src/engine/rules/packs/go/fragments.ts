export const stringLiteral = { any: [{ kind: 'interpreted_string_literal' }, { kind: 'raw_string_literal' }] };

/** A call whose callee text matches `regex`. */
export const callTo = (regex: string): Record<string, unknown> => ({
  kind: 'call_expression',
  has: { field: 'function', regex },
});

/** net/http, gin and echo request values. */
export const REQUEST_CALL =
  '^chi\\.URLParam(\\(|$)|^mux\\.Vars\\((r|req|request)\\)\\[|^(r|req|request)\\.(URL\\.Query\\(\\)\\.Get|FormValue|PostFormValue|PathValue|Header\\.Get|URL\\.Query\\(\\)\\[)|^(c|ctx)\\.(Query|Param|Params|PostForm|DefaultQuery|DefaultPostForm|QueryParam|FormValue|QueryArray|PostFormArray|GetQuery|GetPostForm|GetHeader|QueryParams\\(\\)\\.Get)(\\(|$)|^(r|req|request)\\.URL\\.Query\\(\\)\\[';

/**
 * A field of a struct the handler decoded from the request body: `json.NewDecoder(r.Body).Decode(&req)`
 * (or gin's `c.ShouldBindJSON(&req)`, echo's `c.Bind(&req)`) and then `req.CallbackURL`.
 */
const decodedField = {
  kind: 'selector_expression',
  has: { field: 'operand', kind: 'identifier', pattern: '$DECODED' },
  inside: {
    stopBy: 'end',
    any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
    has: {
      stopBy: 'end',
      kind: 'call_expression',
      all: [
        {
          has: {
            field: 'function',
            regex:
              '(NewDecoder\\((r|req|request)\\.Body\\)\\.Decode|^(c|ctx)\\.(Bind|BindJSON|ShouldBind|ShouldBindJSON))$',
          },
        },
        { has: { field: 'arguments', has: { kind: 'unary_expression', regex: '^&', has: { pattern: '$DECODED' } } } },
      ],
    },
  },
};

export const requestValue = {
  any: [callTo(REQUEST_CALL), { kind: 'index_expression', regex: REQUEST_CALL }, decodedField],
};

const containsRequest = {
  has: { stopBy: 'end', any: [callTo(REQUEST_CALL), { kind: 'index_expression', regex: REQUEST_CALL }, decodedField] },
};

const builtFromRequest = {
  any: [
    requestValue,
    { kind: 'binary_expression', ...containsRequest },
    {
      kind: 'call_expression',
      all: [
        { has: { field: 'function', regex: '^(fmt\\.Sprintf|filepath\\.Join|path\\.Join|strings\\.Join)$' } },
        containsRequest,
      ],
    },
  ],
};

/** A request value, something built from one, or a variable assigned from one in the same function. */
export const fromRequest = {
  any: [
    builtFromRequest,
    {
      kind: 'identifier',
      pattern: '$TAINTED',
      inside: {
        stopBy: 'end',
        any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
        has: {
          stopBy: 'end',
          any: [{ kind: 'short_var_declaration' }, { kind: 'assignment_statement' }, { kind: 'var_spec' }],
          all: [
            {
              any: ['left', 'name'].map((field) => ({
                has: { field, any: [{ pattern: '$TAINTED' }, { has: { pattern: '$TAINTED' } }] },
              })),
            },
            {
              any: ['right', 'value'].map((field) => ({
                has: { field, any: [builtFromRequest, { has: builtFromRequest }] },
              })),
            },
          ],
        },
      },
    },
  ],
};

/** The argument at `position` (1-based) matches `rule`. */
export const argument = (position: number, rule: Record<string, unknown>): Record<string, unknown> => ({
  has: { field: 'arguments', has: { nthChild: position, ...rule } },
});

/** A variable assigned, in the same function, from a value matching `value`: `query := fmt.Sprintf(...)`. */
export const assignedFrom = (value: Record<string, unknown>, meta: string): Record<string, unknown> => ({
  kind: 'identifier',
  pattern: meta,
  inside: {
    stopBy: 'end',
    any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
    has: {
      stopBy: 'end',
      any: [{ kind: 'short_var_declaration' }, { kind: 'assignment_statement' }, { kind: 'var_spec' }],
      all: [
        {
          any: ['left', 'name'].map((field) => ({
            has: { field, any: [{ pattern: meta }, { has: { pattern: meta } }] },
          })),
        },
        { any: ['right', 'value'].map((field) => ({ has: { field, has: value } })) },
      ],
    },
  },
});

/** A string built from data: fmt.Sprintf with a %s/%v verb, or + with a literal and a value. */
export const formattedQuery = {
  any: [
    {
      kind: 'call_expression',
      all: [{ has: { field: 'function', regex: '^fmt\\.Sprintf$' } }, argument(1, { regex: '%[-+# 0-9.]*[svq]' })],
    },
    {
      kind: 'binary_expression',
      all: [
        { has: { field: 'operator', regex: '^\\+$' } },
        { has: { stopBy: 'end', ...stringLiteral } },
        {
          has: {
            stopBy: 'end',
            any: [{ kind: 'identifier' }, { kind: 'call_expression' }, { kind: 'selector_expression' }],
          },
        },
      ],
    },
  ],
};

/** `$meta` is a parameter of the enclosing function, of a type matching `type` (any type when omitted). */
export const functionParameter = (meta: string, type?: string): Record<string, unknown> => ({
  kind: 'identifier',
  pattern: meta,
  inside: {
    stopBy: 'end',
    any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }],
    has: {
      field: 'parameters',
      has: {
        kind: 'parameter_declaration',
        all: [
          { has: { field: 'name', pattern: meta } },
          ...(type === undefined ? [] : [{ has: { field: 'type', regex: type } }]),
        ],
      },
    },
  },
});
