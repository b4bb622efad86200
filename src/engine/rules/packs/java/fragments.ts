/** `"..." + value`: a string literal concatenated with something that is not a literal. */
const concatenation = {
  kind: 'binary_expression',
  all: [
    { has: { field: 'operator', regex: '^\\+$' } },
    { has: { stopBy: 'end', kind: 'string_literal' } },
    {
      has: {
        stopBy: 'end',
        any: [{ kind: 'identifier' }, { kind: 'method_invocation' }, { kind: 'field_access' }],
        not: {
          any: [
            // `(activeOnly ? " AND u.active = true" : "")`: the condition only picks one of two literals.
            {
              inside: {
                stopBy: 'end',
                kind: 'ternary_expression',
                all: [
                  { has: { field: 'consequence', kind: 'string_literal' } },
                  { has: { field: 'alternative', kind: 'string_literal' } },
                ],
              },
            },
            // `column` from `String column = SORTS.getOrDefault(sort, "created_at");`: an allow-list.
            {
              kind: 'identifier',
              pattern: '$ALLOWED',
              inside: {
                stopBy: 'end',
                kind: 'method_declaration',
                has: {
                  stopBy: 'end',
                  kind: 'variable_declarator',
                  all: [
                    { has: { field: 'name', pattern: '$ALLOWED' } },
                    { has: { field: 'value', regex: '^[A-Z][A-Z0-9_]*\\.(get|getOrDefault)\\(' } },
                  ],
                },
              },
            },
          ],
        },
      },
    },
  ],
};

const stringFormat = { kind: 'method_invocation', regex: '^(String\\.format|\\w+\\.formatted)\\(|\\.formatted\\(' };

export const builtString = { any: [concatenation, stringFormat] };

/** The first argument of the call or constructor matches `rule`. */
export const firstArgument = (rule: Record<string, unknown>): Record<string, unknown> => ({
  has: { field: 'arguments', has: { nthChild: 1, ...rule } },
});

/** `$meta` is a parameter of the enclosing method bound from the request (@RequestParam, @PathVariable, @RequestHeader). */
export const requestParameter = (meta: string): Record<string, unknown> => ({
  kind: 'identifier',
  pattern: meta,
  inside: {
    stopBy: 'end',
    kind: 'method_declaration',
    has: {
      field: 'parameters',
      has: {
        kind: 'formal_parameter',
        all: [
          { has: { kind: 'modifiers', regex: '@(RequestParam|PathVariable|RequestHeader)\\b' } },
          { has: { field: 'name', pattern: meta } },
        ],
      },
    },
  },
});

/** `$meta` is a local declared in the same method from a value matching `value` (no `field` key in it). */
export const declaredFrom = (meta: string, value: Record<string, unknown>): Record<string, unknown> => ({
  kind: 'identifier',
  pattern: meta,
  inside: {
    stopBy: 'end',
    any: [{ kind: 'method_declaration' }, { kind: 'constructor_declaration' }],
    has: {
      stopBy: 'end',
      kind: 'variable_declarator',
      all: [{ has: { field: 'name', pattern: meta } }, { has: { field: 'value', ...value } }],
    },
  },
});

/** Inside a class that declares a field `$meta` from a value matching `value` (no `field` key in it). */
export const classWithField = (meta: string, value: Record<string, unknown>): Record<string, unknown> => ({
  stopBy: 'end',
  kind: 'class_body',
  has: {
    kind: 'field_declaration',
    has: {
      kind: 'variable_declarator',
      all: [{ has: { field: 'name', pattern: meta } }, { has: { field: 'value', ...value } }],
    },
  },
});

/** `$meta` names a field of the enclosing class declared from a value matching `value`. */
export const fieldFrom = (meta: string, value: Record<string, unknown>): Record<string, unknown> => ({
  kind: 'identifier',
  pattern: meta,
  inside: classWithField(meta, value),
});

/** Handler methods of a Spring controller. */
export const MAPPING = '@(Get|Post|Put|Delete|Patch|Request)Mapping\\b';

/** Servlet request getters that return what the client sent (the flow analysis' sources). */
export const REQUEST_GETTERS = [
  'getParameter',
  'getParameterValues',
  'getParameterMap',
  'getParameterNames',
  'getHeader',
  'getHeaders',
  'getHeaderNames',
  'getCookies',
  'getQueryString',
  'getInputStream',
  'getReader',
  'getPart',
  'getParts',
];

/** Annotations by which Spring MVC and JAX-RS bind a handler's parameter from the request. */
export const REQUEST_BINDINGS = [
  'RequestParam',
  'PathVariable',
  'MatrixVariable',
  'ModelAttribute',
  'RequestBody',
  'RequestPart',
  'RequestHeader',
  'CookieValue',
  'QueryParam',
  'PathParam',
  'FormParam',
  'HeaderParam',
  'CookieParam',
];

/** Parameter types a handler is given by its framework, not by a caller's code. */
export const FRAMEWORK_OBJECTS = [
  'HttpServletRequest',
  'HttpServletResponse',
  'ServletRequest',
  'ServletResponse',
  'HttpSession',
  'Model',
  'ModelMap',
  'BindingResult',
  'Principal',
  'Authentication',
  'Locale',
  'RedirectAttributes',
];

/**
 * The first argument is a string literal matching `literal` (a regex on its text, quotes
 * included), or a name the file shows holding one: a local declared from it in the same method, a
 * field of the class initialised with it, or a local read from a properties lookup whose default
 * it is (`props.getProperty("cipher", "DES/ECB/PKCS5Padding")`: the default is what runs when
 * nothing is configured). An algorithm name is a choice written once, so reassignments are not
 * followed.
 */
export const literalArgument = (literal: string): Record<string, unknown> => {
  const lookupDefault = {
    kind: 'method_invocation',
    all: [
      { has: { field: 'name', regex: '^getProperty$' } },
      { has: { field: 'arguments', has: { nthChild: 2, kind: 'string_literal', regex: literal } } },
    ],
  };
  const holding = { any: [{ kind: 'string_literal', regex: literal }, lookupDefault] };
  return firstArgument({
    any: [
      { kind: 'string_literal', regex: literal },
      lookupDefault,
      declaredFrom('$ALGORITHM', holding),
      fieldFrom('$ALGORITHM', { kind: 'string_literal', regex: literal }),
    ],
  });
};

/** MD5 or SHA-1 (and older) asked of MessageDigest or Commons Codec's DigestUtils. */
export const WEAK_DIGEST = {
  any: [
    {
      kind: 'method_invocation',
      all: [
        { has: { field: 'object', regex: '^(java\\.security\\.)?MessageDigest$' } },
        { has: { field: 'name', regex: '^getInstance$' } },
        literalArgument('^"(?i)(md2|md4|md5|sha-?1|sha)"$'),
      ],
    },
    { kind: 'method_invocation', regex: '^DigestUtils\\.(md5|md5Hex|sha1|sha1Hex|sha|shaHex)\\(' },
  ],
};

/** Method names of digests used as checksums: cache keys, ETags, content hashes (a "fingerprint" may be of a token). */
export const NON_SECURITY_DIGEST = '(?i)(checksum|etag|cache_?key|content_?hash|file_?hash|dedup)';
