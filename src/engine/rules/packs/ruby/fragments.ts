export const interpolated = { kind: 'string', has: { kind: 'interpolation' } };

export const concatenated = {
  kind: 'binary',
  all: [
    { has: { field: 'operator', regex: '^\\+$' } },
    { has: { stopBy: 'end', kind: 'string' } },
    { has: { stopBy: 'end', any: [{ kind: 'identifier' }, { kind: 'call' }, { kind: 'element_reference' }] } },
  ],
};

/** The first argument of the call matches `rule`. */
export const firstArgument = (rule: Record<string, unknown>): Record<string, unknown> => ({
  has: { field: 'arguments', has: { nthChild: 1, ...rule } },
});

/** Methods whose block runs once per item. */
/** Inside a method (instance or singleton) that has `meta` among its parameters. */
export const insideMethodWithParameter = (meta: string): Record<string, unknown> => ({
  inside: {
    stopBy: 'end',
    any: [{ kind: 'method' }, { kind: 'singleton_method' }],
    has: { field: 'parameters', has: { stopBy: 'end', kind: 'identifier', pattern: meta } },
  },
});

/** A request parameter: `params[:x]`, `params.fetch(:x)`, `request.params[...]`. */
export const PARAMS = '^(request\\.)?params(\\[|\\.(fetch|dig|require|permit)\\b)';

export const fromParams = {
  any: [
    { regex: PARAMS },
    { has: { stopBy: 'end', any: [{ kind: 'element_reference' }, { kind: 'call' }], regex: PARAMS } },
  ],
};

/** A scope with its own local variables: a method, or a block (a Sinatra route, an iteration). */
export const SCOPE = {
  any: [{ kind: 'method' }, { kind: 'singleton_method' }, { kind: 'do_block' }, { kind: 'block' }],
};

/** A local variable (`meta`) assigned, in the same method or block, a value matching `value`. */
export function assignedFrom(meta: string, value: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'identifier',
    pattern: meta,
    inside: {
      stopBy: 'end',
      ...SCOPE,
      has: {
        stopBy: 'end',
        kind: 'assignment',
        all: [{ has: { field: 'left', pattern: meta } }, { has: { field: 'right', ...value } }],
      },
    },
  };
}

/**
 * An interpolation that cannot carry a quote or a shell metacharacter: a number conversion, a
 * constant, or a value passed through a quoting helper (`quote`, `sanitize_sql`, `Shellwords.escape`).
 */
export const SAFE_INTERPOLATION =
  '^#\\{\\s*([^{}]*\\.(to_i|to_f|to_d|shellescape|length|size|count|pid)|\\$\\$|(Integer|Float)\\([^{}]*\\)|[A-Z][A-Z0-9_]*|[^{}]*\\b(quote|quote_column_name|quote_table_name|sanitize_sql\\w*|escape|shellescape|table_name|quoted_table_name)\\([^{}]*\\)|[^{}]*\\.map\\(&:to_i\\)\\.join\\([^{}]*\\))\\s*\\}$';

/** A string built with at least one value that may carry a quote or shell metacharacter. */
const UNSAFE_INTERPOLATED = { kind: 'string', has: { kind: 'interpolation', not: { regex: SAFE_INTERPOLATION } } };

export const unsafeBuiltString = {
  any: [
    UNSAFE_INTERPOLATED,
    concatenated,
    // Adjacent literals continued over lines: `"SELECT ... " \ "WHERE id = #{id}"`.
    { kind: 'chained_string', has: UNSAFE_INTERPOLATED },
    // Words joined into one string: `["convert", "uploads/#{name}", geometry].join(" ")`.
    {
      kind: 'call',
      all: [
        { has: { field: 'method', regex: '^join$' } },
        { has: { field: 'receiver', kind: 'array', has: UNSAFE_INTERPOLATED } },
      ],
    },
  ],
};

/** `x.to_i` and the like: whatever `x` held, the result is a number. */
const NUMBER_CONVERSION = { kind: 'call', has: { field: 'method', regex: '^(to_i|to_f|to_d|to_r)$' } };

/** A value taken from params: `params[:x]`, `params[:x] || "index"`, `params.fetch(:x).to_s`, `"#{params[:x]}.md"`. */
export const paramsDerived = {
  any: [
    { regex: PARAMS, not: NUMBER_CONVERSION },
    {
      has: {
        stopBy: 'end',
        any: [{ kind: 'element_reference' }, { kind: 'call' }],
        regex: PARAMS,
        // `"#{params[:id].to_i}.png"`: a number carries no `../`.
        not: { any: [NUMBER_CONVERSION, { inside: { stopBy: 'end', ...NUMBER_CONVERSION } }] },
      },
    },
  ],
  not: { has: { stopBy: 'end', kind: 'call', regex: '^(::)?File\\.basename\\b' } },
};
