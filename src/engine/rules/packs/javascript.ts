// biome-ignore-all lint/suspicious/noTemplateCurlyInString: rule examples are JavaScript source held in strings
import type { Rule } from '../rule-schema.js';

/**
 * JavaScript and TypeScript rules. Precision first: each rule matches a shape that is wrong (or
 * dangerous) as written, and its `valid` examples are the safe near-misses it must leave alone.
 */

const LANGUAGES: Rule['languages'] = ['javascript', 'typescript'];

const FUNCTION_KINDS = [
  'function_declaration',
  'function_expression',
  'arrow_function',
  'method_definition',
  'generator_function_declaration',
  'generator_function',
];
const LOOP_KINDS = ['for_statement', 'for_in_statement', 'while_statement', 'do_statement'];

const anyKind = (kinds: string[]) => ({ any: kinds.map((kind) => ({ kind })) });
const FUNCTION = anyKind(FUNCTION_KINDS);
/** A module constant: `INBOX_ICON`, `DEFAULT_TEMPLATE`. */
const CONSTANT_NAME = { kind: 'identifier', regex: '^[A-Z][A-Z0-9_]*$' };

/**
 * Inside the body of a loop (not its header), with no function in between: a callback defined in
 * a loop runs elsewhere. `stopBy` halts at the nearest loop or function, which must be a loop
 * whose `body` holds the node.
 */
const LOOP_OR_FUNCTION = anyKind([...FUNCTION_KINDS, ...LOOP_KINDS]);
const inLoopBody = (loops: string[] = LOOP_KINDS) => ({
  any: loops.map((kind) => ({ inside: { kind, field: 'body', stopBy: LOOP_OR_FUNCTION } })),
});

/** A template literal with at least one `${...}`. */
const INTERPOLATED_TEMPLATE = { kind: 'template_string', has: { kind: 'template_substitution' } };
/** `'...' + x` (any concatenation that involves a string or template literal). */
const CONCATENATION = {
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
const DYNAMIC_STRING = { any: [INTERPOLATED_TEMPLATE, CONCATENATION] };
/** SQL text built from values: `SELECT ... ${x}`, `'DELETE FROM t WHERE id = ' + id`. */
const SQL_STRING = {
  all: [DYNAMIC_STRING, { regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b' }],
};
/**
 * A local chosen from a fixed set, so safe to splice into SQL: `const dir = q.dir === 'asc' ? 'ASC' : 'DESC'`,
 * `const column = SORTABLE[req.query.sort] || 'created_at'`.
 */
const ALLOWLISTED_LOCAL = {
  kind: 'identifier',
  pattern: '$PICKED',
  inside: {
    ...FUNCTION,
    stopBy: 'end',
    has: {
      kind: 'variable_declarator',
      stopBy: 'end',
      all: [
        { has: { field: 'name', pattern: '$PICKED' } },
        {
          has: {
            field: 'value',
            any: [
              {
                kind: 'ternary_expression',
                all: [
                  { has: { field: 'consequence', kind: 'string' } },
                  { has: { field: 'alternative', kind: 'string' } },
                ],
              },
              { kind: 'subscript_expression', has: { field: 'object', regex: '^[A-Z][A-Z0-9_]*$' } },
              {
                kind: 'binary_expression',
                has: {
                  field: 'left',
                  kind: 'subscript_expression',
                  has: { field: 'object', regex: '^[A-Z][A-Z0-9_]*$' },
                },
              },
            ],
          },
        },
      ],
    },
  },
};
/** SQL text spliced from values, unless every spliced value is a constant or an allow-listed local. */
const RAW_SQL_FRAGMENT = {
  any: [
    CONCATENATION,
    {
      kind: 'template_string',
      has: {
        kind: 'template_substitution',
        not: { has: { any: [ALLOWLISTED_LOCAL, { kind: 'identifier', regex: '^[A-Z][A-Z0-9_]*$' }] } },
      },
    },
  ],
};
/** A function of this file named by `metavariable`: a declaration, or a const bound to an arrow or function expression. */
function functionNamed(metavariable: string) {
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
function callOfFileFunction(meta: string, definition: Record<string, unknown>[]): Record<string, unknown> {
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
function parameterOfEnclosingFunction(meta: string): Record<string, unknown> {
  return {
    kind: 'identifier',
    pattern: meta,
    stopBy: 'end',
    inside: { ...FUNCTION, stopBy: 'end', has: { field: 'parameters', has: { pattern: meta, stopBy: 'end' } } },
  };
}

/**
 * A call of a function of this file that builds SQL text by concatenating or interpolating one of
 * its parameters: `const sql = buildSearchSql(req.query.q)` with `sql += " AND name LIKE '%" + term + "%'"`.
 */
const SQL_HELPER_CALL = callOfFileFunction('$SQLHELPER', [
  { regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b' },
  {
    has: {
      stopBy: 'end',
      ...DYNAMIC_STRING,
      has: {
        ...parameterOfEnclosingFunction('$SQLPARAM'),
        not: {
          inside: {
            kind: 'call_expression',
            regex: '^(Number|parseInt|parseFloat|Math\\.\\w+)\\(',
            stopBy: 'end',
          },
        },
      },
    },
  },
]);
/**
 * Template source read from a record rather than a file: `page.source`, `template.body`,
 * `campaign.bodyHtml`, or custom text with a default (`customText ?? 'Thanks <%= name %>'`).
 */
const TEMPLATE_SOURCE_FROM_DATA = {
  any: [
    {
      kind: 'member_expression',
      has: { field: 'property', regex: '(?i)(body|source|src|template|tpl|content|markup|html|text)$' },
      not: { regex: '^(this\\.|[A-Z][A-Z0-9_]*\\.|__dirname|process\\.)' },
    },
    {
      kind: 'binary_expression',
      has: { field: 'operator', regex: '^(\\?\\?|\\|\\|)$' },
      all: [
        { has: { field: 'left', any: [{ kind: 'identifier', not: CONSTANT_NAME }, { kind: 'member_expression' }] } },
        { has: { field: 'right', kind: 'string', regex: '(<%|\\{\\{|#\\{|\\$\\{)' } },
      ],
    },
  ],
};
/** Methods that store or move data (database writes, payments): their failure loses data. */
const WRITE_METHOD =
  '^(save|saveAll|persist|commit|upsert|insert|insertOne|insertMany|update|updateOne|updateMany|create|createMany|bulkWrite|replaceOne|capture|charge|refund|transfer|payout|mark[A-Z]\\w*)$';
/** The text of a promise chain that contains such a write: `this.payments.save(p)`, `...capture(id).then(...)`. */
const WRITE_CALL_TEXT =
  '\\.(save|saveAll|persist|commit|upsert|insert|insertOne|insertMany|update|updateOne|updateMany|create|createMany|bulkWrite|replaceOne|capture|charge|refund|transfer|payout|execute|executeTakeFirst|send|sendMail|publish|deliver)\\s*\\(|\\bmark[A-Z]\\w*\\(';
/** Names of variables and keys that hold a secret: `JWT_SECRET`, `sessionSecret`, `apiKey`, `dbPassword`. */
const SECRET_VAR_NAME = '(?i)(password|passwd|secret|api_?key|private_?key|access_?token|auth_?token|signing_?key)$';
/** `process.env.JWT_SECRET || 'b7f1...'`: an environment variable with a key-like literal default. */
const ENV_WITH_LITERAL_FALLBACK = {
  kind: 'binary_expression',
  has: { field: 'operator', regex: '^(\\|\\||\\?\\?)$' },
  all: [
    { has: { field: 'left', regex: '^process\\.env\\b' } },
    {
      has: {
        field: 'right',
        kind: 'string',
        regex: '^.[^\\s\'"]{8,}.$',
        any: [{ regex: '[0-9]' }, { regex: '[a-z].*[A-Z]|[A-Z].*[a-z]' }],
        not: {
          regex:
            '(?i)(example|changeme|change-me|change_me|placeholder|your[-_]|xxx|\\*\\*\\*|dummy|redacted|fake|test|localhost|http|<|\\$\\{|\\{\\{)',
        },
      },
    },
  ],
};
/** Anything but a string literal or a template literal without substitutions. */
const NON_LITERAL = {
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
const SANITIZED = { regex: '(?i)(sanitize|purify|escape)' };

/**
 * An identifier `meta` declared in an enclosing function (`const x = ...`, or destructured:
 * `const { x } = ...`) from a value matching `value`: one local step of data flow.
 */
const declaredFrom = (value: Record<string, unknown>, meta: string) => ({
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
/** A parameter bound from the request by a NestJS decorator: `@Query('file') file: string`, `@Body() dto`. */
const nestRequestParameter = (meta: string) => ({
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
const REQUEST_VALUE_TEXT =
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
const REQUEST_VALUE_LITE = {
  any: [
    { kind: 'member_expression', regex: REQUEST_INPUT },
    NEXT_ROUTE_PARAM,
    { kind: 'call_expression', regex: SEARCH_PARAMS_GET },
    declaredFrom({ regex: REQUEST_VALUE_TEXT, ...NOT_A_TEST }, '$REQLOCAL'),
  ],
};
/**
 * A URL whose host (or whole value) the request controls: a template that starts with a request
 * value (`${req.body.callbackHost}/hooks`, `http://${req.query.service}.internal`), or
 * `new URL(req.query.path, base)` (an absolute path replaces the base), or a base built that way.
 */
const HOST_TEMPLATE = {
  kind: 'template_string',
  regex: '^`(https?://)?\\$\\{',
  has: {
    kind: 'template_substitution',
    not: { follows: { kind: 'template_substitution', stopBy: 'end' } },
    has: { ...REQUEST_VALUE_LITE, stopBy: 'end' },
  },
};
const URL_HOST_FROM_REQUEST = {
  any: [
    HOST_TEMPLATE,
    {
      kind: 'new_expression',
      has: { field: 'constructor', regex: '^URL$' },
      all: [
        {
          has: {
            field: 'arguments',
            any: [
              { has: { nthChild: 1, ...REQUEST_VALUE_LITE } },
              { has: { nthChild: 2, any: [HOST_TEMPLATE, declaredFrom(HOST_TEMPLATE, '$BASEVAR')] } },
            ],
          },
        },
      ],
    },
  ],
};
/**
 * An expression carrying request input: a request value, an expression built from one (a path
 * join, a template, a concatenation), or a local declared from such an expression. `clean`
 * (e.g. "no basename() call") must hold on the expression and on the local's value.
 */
const carriesRequest = (clean?: Record<string, unknown>) => {
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

/** HTML markup built from a request value, with no escaping call: `'<p>' + email + '</p>'`. */
const REQUEST_HTML = {
  all: [
    DYNAMIC_STRING,
    { regex: '<[a-zA-Z]' },
    { has: { ...REQUEST_VALUE_LITE, stopBy: 'end' } },
    { not: { has: { kind: 'call_expression', regex: '(?i)^[\\w$.]*(escape|sanitize|purify|encode)', stopBy: 'end' } } },
  ],
};

const FS_PROMISE_FUNCTIONS =
  '^(readFile|writeFile|appendFile|mkdir|rm|rmdir|unlink|rename|copyFile|cp|readdir|stat|access|open|truncate|chmod)$';

const firstArgument = (rule: Record<string, unknown>) => ({
  has: { field: 'arguments', kind: 'arguments', has: { nthChild: 1, ...rule } },
});
const calleeProperty = (regex: string, object?: string) => ({
  has: {
    field: 'function',
    kind: 'member_expression',
    all: [{ has: { field: 'property', regex } }, ...(object ? [{ has: { field: 'object', regex: object } }] : [])],
  },
});
const calleeName = (regex: string) => ({ has: { field: 'function', kind: 'identifier', regex } });

/** Names of values that must be unpredictable. */
const SECRET_NAME = '(?i)(token|secret|passw|pwd|nonce|salt|otp|apikey|api_key|csrf|session)';
/** A declaration, object key or assignment whose name matches `regex`. */
const namedTarget = (regex: string) => ({
  any: [
    { kind: 'variable_declarator', has: { field: 'name', regex } },
    { kind: 'pair', has: { field: 'key', regex } },
    { kind: 'assignment_expression', has: { field: 'left', regex } },
  ],
});
/**
 * Where a random value ends up that must not be guessable: a token/secret/session-like name, or an
 * `id` made inside a function that creates a session, token or nonce (`newSession() { const id = ... }`).
 */
const RANDOM_SECRET_TARGET = {
  any: [
    namedTarget(SECRET_NAME),
    {
      ...namedTarget('^(id|_id|sid)$'),
      inside: {
        any: ['function_declaration', 'method_definition', 'variable_declarator'].map((kind) => ({
          kind,
          has: { field: 'name', regex: '(?i)(session|token|secret|nonce|csrf|passw|apikey|api_key|otp)' },
        })),
        stopBy: 'end',
      },
    },
  ],
};
/** A function that makes a secret value: `createResetToken`, `inviteCode`, `generateApiKey`, `newOtp`. */
const SECRET_MAKER_NAME =
  '(?i)(^(random|generate|gen|make|create|new)_?(key|pin|passcode)s?$|(token|secret|password|passwd|nonce|salt|otp|api_?key|csrf|session_?id)s?|(invite|invitation|verification|verify|reset|confirmation|confirm|access|auth|promo|coupon|voucher|referral|license|activation|recovery|backup|pairing|magic|login|one_?time|signing|encryption)_?(code|key|link|pin)s?)$';
const RANDOM_TARGET_STOP = anyKind(['variable_declarator', 'pair', 'assignment_expression', ...FUNCTION_KINDS]);

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

/** A line comment whose text parses as a JavaScript statement. */
const CODE_COMMENT = {
  any: [
    { regex: '^//\\s*(const|let|var)\\s+[\\w${}\\[\\], ]+\\s*=.*;\\s*$' },
    { regex: '^//\\s*(return\\b.*|[\\w$.]+\\(.*\\)|[\\w$.\\[\\]]+\\s*=[^=].*|await\\s.+|import\\s.+from\\s.+);\\s*$' },
    { regex: '^//\\s*(if|for|while)\\s*\\(.*\\)\\s*\\{\\s*$' },
    // A call that opens a callback: `// client.interceptors.response.use(undefined, async (error) => {`.
    { regex: '^//\\s*(await\\s+)?[\\w$.]+\\(.*(=>|\\bfunction\\s*\\([^)]*\\))\\s*\\{\\s*$' },
    // A decorator switched off: `// @UseGuards(AdminGuard)`, `// @Authorized('admin')`.
    { regex: '^//\\s*@[A-Z][\\w$]*\\(.*\\)\\s*$' },
  ],
};

const URL_NAME = '(?i)(url|uri|link|endpoint|host|callback|webhook|target)';
/** A member `$DTO.<url-like>` whose object the function's parameters declare with `parameter` (a DTO). */
const urlFieldOfParameter = (parameter: Record<string, unknown>) => ({
  kind: 'member_expression',
  all: [
    { has: { field: 'object', kind: 'identifier', pattern: '$DTO' } },
    { has: { field: 'property', regex: URL_NAME } },
    {
      inside: {
        ...FUNCTION,
        stopBy: 'end',
        has: { field: 'parameters', has: { ...parameter, has: { kind: 'identifier', pattern: '$DTO' } } },
      },
    },
  ],
});
/** A URL a client controls: read from the request, or built with the request choosing the host. */
const SSRF_URL = {
  any: [
    REQUEST_VALUE_LITE,
    // The host comes from the request: `${req.body.callbackHost}/hooks`, `new URL(req.query.path, base)`.
    URL_HOST_FROM_REQUEST,
    declaredFrom(URL_HOST_FROM_REQUEST, '$URLVAR'),
    // A NestJS request parameter named like a URL: `@Query('url') url: string`.
    { ...nestRequestParameter('$URLPARAM'), regex: URL_NAME },
    // A URL field of a body read in the same function: `const body = await request.json(); fetch(body.url)`.
    {
      kind: 'member_expression',
      all: [
        { has: { field: 'property', regex: URL_NAME } },
        { has: { field: 'object', ...declaredFrom({ regex: REQUEST_VALUE_TEXT }, '$BODYVAR') } },
      ],
    },
    // The URL field of a record just stored from the request:
    // `const hook = await Webhook.create({ url: req.body.url })` ... `fetch(hook.url)`.
    {
      kind: 'member_expression',
      all: [
        { has: { field: 'property', regex: URL_NAME } },
        {
          has: {
            field: 'object',
            ...declaredFrom(
              {
                has: {
                  kind: 'pair',
                  stopBy: 'end',
                  all: [
                    { has: { field: 'key', regex: URL_NAME } },
                    { has: { field: 'value', regex: REQUEST_VALUE_TEXT } },
                  ],
                },
              },
              '$RECORDVAR',
            ),
          },
        },
      ],
    },
    // A field of a NestJS request DTO: `@Body() dto: WebhookDto` ... `fetch(dto.url)`.
    urlFieldOfParameter({ regex: '^@(Body|Query|Param)\\(' }),
    // A URL field of a request DTO handed to a service: `importFromUrl(dto: ImportImageDto)` ... `get(dto.sourceUrl)`
    // (a TypeScript parameter, read as text: `kind` would not compile for JavaScript).
    urlFieldOfParameter({ regex: '^[\\w$]+\\??\\s*:\\s*\\w*(Dto|DTO|Input|Payload|Body)\\b' }),
  ],
};

/** A value wrapped in quotes by hand: `"'" + k + "'"`, `name = '${name}'` (a placeholder's job). */
const HAND_QUOTED = "'[\"`]\\s*\\+|'\\$\\{";
/**
 * SQL text with a hand-quoted value, directly or through a local list: `'... IN (' + kindList + ')'`
 * with `const kindList = kinds.map((k) => "'" + k + "'").join(', ')`. Injection even when other
 * values are bound as parameters.
 */
const HAND_QUOTED_SQL = {
  all: [
    SQL_STRING,
    {
      any: [{ regex: HAND_QUOTED }, { has: { stopBy: 'end', ...declaredFrom({ regex: HAND_QUOTED }, '$QUOTEDLIST') } }],
    },
  ],
};

/** Such a helper called with request input: `buildListQuery(req.query)`. */
const SQL_HELPER_CALL_FROM_REQUEST = {
  ...SQL_HELPER_CALL,
  all: [{ has: { field: 'arguments', has: REQUEST_VALUE_LITE } }],
};

/** An awaited call per loop item (see js.await-in-loop): the item `$ITEM` in its arguments. */
const ITEM_CALL = {
  kind: 'call_expression',
  // `find(id)`, or the item in an object argument: `update({ where: { id } })`.
  has: {
    field: 'arguments',
    has: {
      any: [
        { kind: 'identifier' },
        {
          kind: 'shorthand_property_identifier',
          inside: { kind: 'pair', regex: '^where\\s*:', stopBy: 'end' },
        },
      ],
      pattern: '$ITEM',
      stopBy: 'end',
    },
  },
  not: {
    any: [
      { has: { field: 'arguments', has: { kind: 'identifier', regex: '^(trx|tx|transaction)$' } } },
      { regex: '^(\\w+\\.)*(sleep|delay|wait|setTimeout|timeout|backoff)\\w*\\(' },
    ],
  },
};

/**
 * A call of a function of this file that opens a file at a path built from one of its parameters,
 * with no basename/containment check: `loadTemplate(name)` with `fs.readFile(`${DIR}/${name}.html`)`.
 */
const FILE_HELPER_CALL = callOfFileFunction('$FILEHELPER', [
  {
    regex:
      '\\b(readFile|readFileSync|createReadStream|createWriteStream|writeFile|writeFileSync|appendFile|unlink|unlinkSync|rm|rmSync|readdir|sendFile)\\(',
  },
  { not: { regex: '\\bbasename\\(|\\.startsWith\\(|\\brelative\\(' } },
  {
    has: {
      stopBy: 'end',
      any: [DYNAMIC_STRING, { kind: 'call_expression', regex: '^(path\\.)?(join|resolve)\\(' }],
      has: parameterOfEnclosingFunction('$FPARAM'),
    },
  },
]);

export const javascriptRules: Rule[] = [
  // ---------------------------------------------------------------- security
  {
    id: 'js.sql-injection',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'SQL built by interpolating or concatenating values is open to SQL injection: pass the values as query parameters (placeholders) instead.',
    rule: {
      kind: 'call_expression',
      all: [
        calleeProperty('^(query|execute|raw|queryRaw|executeRaw|\\$queryRawUnsafe|\\$executeRawUnsafe|unsafe)$'),
        {
          any: [
            {
              all: [
                firstArgument({ any: [SQL_STRING, declaredFrom(SQL_STRING, '$SQL')] }),
                // A parameter array means the author is using placeholders for the values.
                { not: { has: { field: 'arguments', has: { kind: 'array' } } } },
              ],
            },
            // A request value spliced in where placeholders cannot go (a column or table name):
            // `SET ${key} = $1` with `key` from req.body, even though the values are bound.
            firstArgument({
              all: [
                SQL_STRING,
                // Only the value itself (`${key}`), not placeholders built from it (`${ids.map(() => '?')}`).
                { has: { kind: 'template_substitution', has: REQUEST_VALUE_LITE } },
              ],
            }),
            // Hand-quoted values spliced into the SQL, whatever else is bound.
            firstArgument({ any: [HAND_QUOTED_SQL, declaredFrom(HAND_QUOTED_SQL, '$SQL')] }),
            // SQL text from a helper of this file that splices its arguments, given request input:
            // `db.raw(buildListQuery(req.query), [status])` (the bound values do not cover the splice).
            firstArgument({ any: [SQL_HELPER_CALL_FROM_REQUEST, declaredFrom(SQL_HELPER_CALL_FROM_REQUEST, '$SQL')] }),
            // SQL text returned by a helper of this file that splices its arguments into the query.
            {
              all: [
                { not: { has: { field: 'arguments', has: { nthChild: 2, not: FUNCTION } } } },
                firstArgument({ any: [SQL_HELPER_CALL, declaredFrom(SQL_HELPER_CALL, '$SQL')] }),
              ],
            },
          ],
        },
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        'const rows = await db.query(`SELECT * FROM users WHERE id = ${req.params.id}`);',
        "connection.query('SELECT * FROM orders WHERE owner = \\'' + name + '\\'', cb);",
        'await knex.raw(`DELETE FROM sessions WHERE token = ${token}`);',
        "async function find(req) {\n  const sql = `SELECT * FROM accounts WHERE email = '${req.query.email}'`;\n  const [rows] = await pool.query(sql);\n}",
        'async function update(req) {\n  const { key, value } = req.body;\n  await pool.query(`UPDATE settings SET ${key} = $1 WHERE id = $2`, [value, req.user.id]);\n}',
        'function buildSql(term) {\n  let sql = \'SELECT id FROM products WHERE deleted_at IS NULL\';\n  if (term) sql += " AND name LIKE \'%" + term + "%\'";\n  return sql;\n}\nasync function search(req) {\n  const sql = buildSql(req.query.q);\n  const [rows] = await pool.query(sql);\n}',
        "async function entries(accountId, kinds) {\n  const list = kinds.map((k) => \"'\" + k + \"'\").join(', ');\n  const sql = 'SELECT id FROM ledger WHERE account_id = $1 AND kind IN (' + list + ')';\n  return this.dataSource.query(sql, [accountId]);\n}",
        "function listSql({ sort, dir }) {\n  return 'SELECT id FROM tickets WHERE status = ? ORDER BY ' + sort + ' ' + dir;\n}\nasync function list(req) {\n  const sql = listSql(req.query);\n  return db.raw(sql, [req.query.status]);\n}",
      ],
      valid: [
        "const rows = await db.query('SELECT * FROM users WHERE id = $1', [req.params.id]);",
        "async function find(email) {\n  const sql = 'SELECT * FROM accounts WHERE email = ?';\n  const [rows] = await pool.query(sql, [email]);\n}",
        'async function find(email) {\n  const sql = `SELECT * FROM accounts WHERE email = $1`;\n  return db.query(sql, [email]);\n}',
        'const rows = await db.query(`SELECT * FROM users WHERE id = $1`, [id]);',
        'const rows = await sql`SELECT * FROM users WHERE id = ${id}`;',
        'const match = pattern.exec(`select ${a} from ${b}`);',
        "async function list(req) {\n  return pool.query(`SELECT * FROM items WHERE id IN (${req.body.ids.map(() => '?').join(', ')})`, [...req.body.ids]);\n}",
        "function buildSql(term) {\n  let sql = 'SELECT id FROM products WHERE deleted_at IS NULL';\n  if (term) sql += ' AND name LIKE ?';\n  return sql;\n}\nasync function search(req) {\n  const sql = buildSql(req.query.q);\n  const [rows] = await pool.query(sql, [`%${req.query.q}%`]);\n}",
        "function buildSql(limit) {\n  return 'SELECT id FROM products LIMIT ' + Number(limit);\n}\nasync function search(req) {\n  const [rows] = await pool.query(buildSql(req.query.limit));\n}",
        'async function update(req) {\n  const { value } = req.body;\n  await pool.query(`UPDATE settings SET ${COLUMN} = $1 WHERE id = $2`, [value, req.user.id]);\n}',
        "async function entries(accountId, kinds) {\n  const list = kinds.map((_, i) => '$' + (i + 2)).join(', ');\n  const sql = 'SELECT id FROM ledger WHERE account_id = $1 AND kind IN (' + list + ')';\n  return this.dataSource.query(sql, [accountId, ...kinds]);\n}",
      ],
    },
  },
  {
    id: 'js.command-injection',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'A shell command built from interpolated or concatenated values is open to command injection: use execFile/spawn with an argument array and no shell.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeProperty('^(exec|execSync)$', '^(child_process|childProcess|cp|proc|shell)$'),
            calleeProperty('^execSync$'),
            calleeName('^(exec|execSync)$'),
          ],
        },
        firstArgument({ any: [DYNAMIC_STRING, declaredFrom(DYNAMIC_STRING, '$CMD')] }),
      ],
    },
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        "const { exec } = require('child_process');\nexec(`git log ${req.query.branch}`, cb);",
        "child_process.execSync('convert ' + file + ' out.png');",
        'const out = cp.exec(`ls ${dir}`);',
        "function backup(name) {\n  const command = 'tar czf /backups/' + name + '.tgz data';\n  execSync(command);\n}",
      ],
      valid: [
        "function backup() {\n  const command = 'tar czf /backups/all.tgz data';\n  execSync(command);\n}",
        "execFile('git', ['log', req.query.branch], cb);",
        "child_process.execSync('npm run build');",
        'const m = /a(b)/.exec(`ab${x}`);',
      ],
    },
  },
  {
    id: 'js.command-injection-wrapper',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'This function is child_process.exec promisified in this file, so the interpolated or concatenated string runs in a shell: a value containing `;` or `$(...)` injects commands. Use execFile with an argument array instead.',
    rule: {
      kind: 'call_expression',
      all: [
        { has: { field: 'function', kind: 'identifier', pattern: '$RUN' } },
        firstArgument({ any: [DYNAMIC_STRING, declaredFrom(DYNAMIC_STRING, '$CMD')] }),
        {
          inside: {
            kind: 'program',
            stopBy: 'end',
            has: {
              stopBy: 'end',
              any: [
                // `const run = promisify(exec)` (or util.promisify(child_process.exec)) in the same file.
                {
                  kind: 'variable_declarator',
                  all: [
                    { has: { field: 'name', pattern: '$RUN' } },
                    {
                      has: {
                        field: 'value',
                        kind: 'call_expression',
                        regex: '^(util\\.)?promisify\\(\\s*((child_process|childProcess|cp)\\.)?exec\\s*\\)$',
                      },
                    },
                  ],
                },
                // A helper of this file that runs its first parameter with `sh -c`:
                // `function run(command) { return spawn('sh', ['-c', command]) }`.
                {
                  any: functionNamed('$RUN'),
                  has: {
                    kind: 'call_expression',
                    stopBy: 'end',
                    regex:
                      '^([\\w$.]+\\.)?(spawn|spawnSync|execFile|execFileSync|execa|execaSync)\\(\\s*[\'"](/usr)?(/bin/)?(ba|z|da|a)?sh[\'"]\\s*,\\s*\\[\\s*[\'"]-c[\'"]\\s*,\\s*[\\w$]+\\s*\\]',
                  },
                },
              ],
            },
          },
        },
      ],
    },
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        'const run = promisify(exec);\nasync function thumb(upload) {\n  await run(`convert ${upload.name} out.png`);\n}',
        "const sh = util.promisify(child_process.exec);\nawait sh('git checkout ' + branch);",
        "const run = promisify(exec);\nasync function log(ctx) {\n  const command = 'git log -n 50 ' + ctx.params.branch;\n  await run(command, { cwd });\n}",
        "function run(command, cwd) {\n  return new Promise((resolve) => spawn('sh', ['-c', command], { cwd }).on('exit', resolve));\n}\nasync function deploy(job) {\n  await run('git checkout ' + job.ref, job.dir);\n}",
      ],
      valid: [
        "const run = promisify(execFile);\nawait run('convert', [upload.name, 'out.png']);",
        "const run = promisify(exec);\nawait run('npm run build');",
        'const run = (cmd) => queue.push(cmd);\nrun(`convert ${name}`);',
        "function run(command, cwd) {\n  return new Promise((resolve) => spawn('sh', ['-c', command], { cwd }).on('exit', resolve));\n}\nasync function deploy(job) {\n  await run('git fetch origin', job.dir);\n}",
      ],
    },
  },
  {
    id: 'js.spawn-shell',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'spawn/execFile with `shell: true` hands non-literal arguments to a shell, which re-opens command injection: drop the shell option and pass an argument array.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeProperty('^(spawn|spawnSync|execFile|execFileSync)$'),
            calleeName('^(spawn|spawnSync|execFile|execFileSync)$'),
          ],
        },
        { has: { field: 'arguments', has: { kind: 'object', has: { kind: 'pair', regex: '^shell\\s*:\\s*true$' } } } },
        {
          has: {
            field: 'arguments',
            any: [
              { has: { nthChild: 1, not: { kind: 'string' } } },
              {
                has: {
                  kind: 'array',
                  has: { any: [{ kind: 'identifier' }, { kind: 'member_expression' }, INTERPOLATED_TEMPLATE] },
                },
              },
            ],
          },
        },
      ],
    },
    cwe: 'CWE-78',
    examples: {
      invalid: [
        'spawn(cmd, args, { shell: true });',
        "child_process.spawnSync('git', ['checkout', branch], { stdio: 'inherit', shell: true });",
      ],
      valid: [
        "spawn('git', ['checkout', branch], { stdio: 'inherit' });",
        "spawn('npm', ['run', 'build'], { shell: true });",
        'spawn(cmd, args, { shell: false });',
      ],
    },
  },
  {
    id: 'js.shell-c-command',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'spawn/execFile of `sh -c` (or bash -c) with a built string runs that string in a shell, so the argument list protects nothing: a value containing `;` or `$(...)` injects commands. Call the program itself with an argument array.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeProperty('^(spawn|spawnSync|execFile|execFileSync)$'),
            calleeName('^(spawn|spawnSync|execFile|execFileSync|execa|execaSync)$'),
          ],
        },
        firstArgument({ kind: 'string', regex: '^.(/usr)?(/bin/)?(sh|bash|zsh|dash|ash)[\'"]$' }),
        {
          has: {
            field: 'arguments',
            has: {
              nthChild: 2,
              kind: 'array',
              all: [
                { has: { kind: 'string', regex: '^.-c.$' } },
                {
                  has: {
                    any: [
                      DYNAMIC_STRING,
                      { kind: 'member_expression' },
                      // Not a parameter of the function around: that wrapper is reported where it
                      // is called with a built string (js.command-injection-wrapper).
                      {
                        kind: 'identifier',
                        pattern: '$SHELLCMD',
                        not: {
                          inside: {
                            ...FUNCTION,
                            stopBy: 'end',
                            has: {
                              field: 'parameters',
                              has: { kind: 'identifier', pattern: '$SHELLCMD', stopBy: 'end' },
                            },
                          },
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        },
      ],
    },
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        "const child = spawn('sh', ['-c', `tar -czf ${out}/${project.name}.tgz ${project.path}`]);",
        "execFileSync('/bin/bash', ['-c', 'convert ' + file + ' out.png']);",
        "child_process.spawn('sh', ['-c', command], { stdio: 'inherit' });",
      ],
      valid: [
        "const child = spawn('tar', ['-czf', `${out}/${project.name}.tgz`, project.path]);",
        "spawn('sh', ['-c', 'npm run build && npm test']);",
        "spawn('sh', ['./scripts/build.sh', target]);",
        "function run(command) {\n  return spawn('sh', ['-c', command], { stdio: 'inherit' });\n}",
      ],
    },
  },
  {
    id: 'js.eval',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'eval/new Function run a string as code: with any outside input this is code injection. Parse data with JSON.parse or dispatch on known names instead.',
    rule: {
      any: [
        { kind: 'call_expression', all: [calleeName('^eval$'), firstArgument(NON_LITERAL)] },
        {
          kind: 'new_expression',
          has: { field: 'constructor', regex: '^Function$' },
          all: [{ has: { field: 'arguments', has: { any: [{ kind: 'identifier' }, DYNAMIC_STRING] } } }],
        },
      ],
    },
    cwe: 'CWE-95',
    cvss: 9.8,
    examples: {
      invalid: [
        'const result = eval(req.body.expression);',
        "const fn = new Function('a', 'b', body);",
        'eval(`compute(${input})`);',
      ],
      valid: [
        'const result = JSON.parse(req.body.expression);',
        "const globalThisRef = new Function('return this')();",
        'const value = evaluate(req.body.expression);',
      ],
    },
  },
  {
    id: 'js.string-timer',
    languages: LANGUAGES,
    type: 'security',
    severity: 'warning',
    message:
      'setTimeout/setInterval with a string evaluates it like eval (and breaks under a CSP): pass a function instead.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeName('^(setTimeout|setInterval)$'),
            calleeProperty('^(setTimeout|setInterval)$', '^(window|globalThis|self)$'),
          ],
        },
        firstArgument({ any: [{ kind: 'string' }, { kind: 'template_string' }, CONCATENATION] }),
      ],
    },
    cwe: 'CWE-95',
    examples: {
      invalid: ["setTimeout('refresh()', 1000);", "window.setInterval('tick(' + id + ')', 500);"],
      valid: ['setTimeout(() => refresh(), 1000);', 'setInterval(tick, 500);'],
    },
  },
  {
    id: 'js.vm-run',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'The vm module is not a security boundary: running non-constant code with vm.runIn*Context or new vm.Script can escape to the host process.',
    rule: {
      any: [
        {
          kind: 'call_expression',
          all: [
            calleeProperty('^(runInNewContext|runInThisContext|runInContext|compileFunction)$', '^vm$'),
            firstArgument(NON_LITERAL),
          ],
        },
        {
          kind: 'new_expression',
          has: { field: 'constructor', regex: '^vm\\.Script$' },
          all: [{ has: { field: 'arguments', has: { nthChild: 1, ...NON_LITERAL } } }],
        },
      ],
    },
    cwe: 'CWE-95',
    examples: {
      invalid: ['vm.runInNewContext(userCode, sandbox);', 'const script = new vm.Script(req.body.code);'],
      valid: ["vm.runInNewContext('1 + 1', {});", "const script = new vm.Script('x = 1');"],
    },
  },
  {
    id: 'js.inner-html',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'Assigning a non-literal to innerHTML/outerHTML renders it as HTML (cross-site scripting): use textContent, or sanitize it (e.g. DOMPurify.sanitize).',
    rule: {
      any: [{ kind: 'assignment_expression' }, { kind: 'augmented_assignment_expression' }],
      has: { field: 'left', kind: 'member_expression', has: { field: 'property', regex: '^(innerHTML|outerHTML)$' } },
      all: [
        { has: { field: 'right', all: [NON_LITERAL, { not: SANITIZED }, { not: declaredFrom(SANITIZED, '$CLEAN') }] } },
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        'el.innerHTML = comment.body;',
        'list.innerHTML += `<li>${item.name}</li>`;',
        'function show(el, md) {\n  const html = marked.parse(md);\n  el.innerHTML = html;\n}',
      ],
      valid: [
        'el.textContent = comment.body;',
        "el.innerHTML = '';",
        'el.innerHTML = DOMPurify.sanitize(comment.body);',
        'function show(el, md) {\n  const clean = DOMPurify.sanitize(marked.parse(md));\n  el.innerHTML = clean;\n}',
      ],
    },
  },
  {
    id: 'js.html-sink',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'document.write and insertAdjacentHTML render their argument as HTML: with non-constant input this is cross-site scripting. Build DOM nodes or sanitize first.',
    rule: {
      kind: 'call_expression',
      any: [
        {
          all: [
            calleeProperty('^(write|writeln)$', '^document$'),
            firstArgument({ all: [NON_LITERAL, { not: SANITIZED }] }),
          ],
        },
        {
          all: [
            calleeProperty('^insertAdjacentHTML$'),
            {
              has: {
                field: 'arguments',
                has: { nthChild: 2, all: [NON_LITERAL, { not: SANITIZED }] },
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        'document.write(location.hash.slice(1));',
        "container.insertAdjacentHTML('beforeend', `<p>${message}</p>`);",
      ],
      valid: [
        "document.write('<p>Loading</p>');",
        "container.insertAdjacentHTML('beforeend', DOMPurify.sanitize(html));",
        "container.insertAdjacentText('beforeend', message);",
      ],
    },
  },
  {
    id: 'js.reflected-html-response',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      "The response is HTML built by splicing in a value read from the request, so a crafted link runs script in the visitor's browser (reflected cross-site scripting): render it through an escaping template, or escape the value (e.g. with escape-html) before splicing it in.",
    rule: {
      any: [
        // Express/Fastify: `res.send(`<p>No results for ${q}</p>`)`, `reply.type('text/html').send('<p>' + name)`.
        {
          kind: 'call_expression',
          all: [
            calleeProperty('^(send|write|end)$', '^(res|response|reply)\\b'),
            firstArgument({ any: [REQUEST_HTML, declaredFrom(REQUEST_HTML, '$HTML')] }),
          ],
        },
        // Koa: `ctx.body = `<h1>${ctx.query.q}</h1>``.
        {
          kind: 'assignment_expression',
          has: { field: 'left', regex: '^ctx\\.(body|response\\.body)$' },
          all: [{ has: { field: 'right', any: [REQUEST_HTML, declaredFrom(REQUEST_HTML, '$HTML')] } }],
        },
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        "router.get('/search', async (req, res) => {\n  const q = String(req.query.q || '');\n  return res.send(`<div>No results for <strong>${q}</strong></div>`);\n});",
        "router.get('/u', (req, res) => {\n  const email = String(req.query.email ?? '');\n  res.send('<p>' + email + ' has been unsubscribed.</p>');\n});",
        "app.get('/hello', (req, res) => res.status(200).send(`<h1>Hello ${req.query.name}</h1>`));",
        "router.get('/q', (ctx) => {\n  ctx.body = `<h1>${ctx.query.q}</h1>`;\n});",
      ],
      valid: [
        "router.get('/search', async (req, res) => {\n  const q = String(req.query.q || '');\n  return res.send(`<div>No results for <strong>${escapeHtml(q)}</strong></div>`);\n});",
        "router.get('/search', (req, res) => {\n  res.render('search', { q: req.query.q });\n});",
        "router.get('/u', (req, res) => {\n  res.send(`<p>Unsubscribed ${count} addresses.</p>`);\n});",
        "router.get('/u', (req, res) => {\n  res.send(`Hello ${req.query.name}`);\n});",
      ],
    },
  },
  {
    id: 'js.dangerously-set-inner-html',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'dangerouslySetInnerHTML with a non-literal `__html` renders unescaped HTML (cross-site scripting): sanitize it first or render it as text.',
    rule: {
      kind: 'pair',
      has: { field: 'key', regex: '^__html$' },
      all: [
        {
          has: {
            field: 'value',
            all: [
              NON_LITERAL,
              { not: SANITIZED },
              // `const html = DOMPurify.sanitize(...)`, or a module constant (`__html: INBOX_ICON`).
              { not: declaredFrom(SANITIZED, '$CLEAN') },
              { not: CONSTANT_NAME },
            ],
          },
        },
        { inside: { kind: 'jsx_attribute', regex: '^dangerouslySetInnerHTML', stopBy: 'end' } },
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        'const C = ({ post }) => <div dangerouslySetInnerHTML={{ __html: post.body }} />;',
        'return <span dangerouslySetInnerHTML={{ __html: marked(text) }} />;',
      ],
      valid: [
        'const C = ({ post }) => <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(post.body) }} />;',
        'function P({ source }) {\n  const html = DOMPurify.sanitize(marked.parse(source));\n  return <div dangerouslySetInnerHTML={{ __html: html }} />;\n}',
        'const Icon = () => <span dangerouslySetInnerHTML={{ __html: INBOX_ICON }} />;',
        "return <span dangerouslySetInnerHTML={{ __html: '&nbsp;' }} />;",
        'return <span>{text}</span>;',
      ],
    },
  },
  {
    id: 'js.path-traversal',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'A file path built from request input lets a client read or write outside the intended folder (`../`): resolve it against a fixed root and check the result stays inside.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeProperty(
              '^(readFile|readFileSync|createReadStream|createWriteStream|writeFile|writeFileSync|appendFile|unlink|unlinkSync|rm|rmSync|readdir|open)$',
              '^(fs|fsp|fsPromises|fs\\.promises|promises)$',
            ),
            // The same functions imported by name (`import { readFile } from 'node:fs/promises'`).
            calleeName(
              '^(readFile|readFileSync|createReadStream|createWriteStream|writeFile|writeFileSync|appendFile|unlink|unlinkSync|rm|rmSync|readdir)$',
            ),
            calleeProperty('^(sendFile|download)$', '^(res|response|reply)$'),
          ],
        },
        firstArgument(
          carriesRequest({ not: { has: { kind: 'call_expression', regex: '^(path\\.)?basename\\(', stopBy: 'end' } } }),
        ),
        // The function checks the path stays inside its folder: `if (!target.startsWith(BASE + sep))`.
        {
          not: {
            inside: {
              ...FUNCTION,
              stopBy: 'end',
              has: {
                kind: 'call_expression',
                stopBy: 'end',
                any: [{ regex: '^[\\w$.]+\\.startsWith\\(' }, { regex: '^(path\\.)?relative\\(' }],
              },
            },
          },
        },
        // Express's sendFile with a `root` option refuses paths that leave it.
        { not: { has: { field: 'arguments', has: { kind: 'object', has: { kind: 'pair', regex: '^root\\s*:' } } } } },
      ],
    },
    cwe: 'CWE-22',
    cvss: 7.5,
    examples: {
      invalid: [
        "fs.readFile(path.join(__dirname, 'uploads', req.params.name), cb);",
        'res.sendFile(req.query.file);',
        'const stream = fs.createReadStream(`./files/${req.query.name}`);',
        "const data = await readFile(join('/srv/avatars', request.params.file));",
        "fastify.get('/a/:name', async (request, reply) => {\n  const filePath = path.join(DIR, request.params.name);\n  return reply.send(fs.createReadStream(filePath));\n});",
        "class C {\n  download(@Query('file') file: string, @Res() res: Response) {\n    const fullPath = join(REPORTS_DIR, file);\n    return res.download(fullPath);\n  }\n}",
        "export async function GET(req, { params }) {\n  const file = path.join(DOCS_ROOT, `${decodeURIComponent(params.slug)}.md`);\n  return new Response(await readFile(file, 'utf8'));\n}",
        "router.get('/t', (req, res) => {\n  const { name } = req.query;\n  res.sendFile(`/srv/files/${name}`);\n});",
      ],
      valid: [
        "fs.readFile(path.join(__dirname, 'uploads', path.basename(req.params.name)), cb);",
        "res.sendFile(req.query.file, { root: path.join(__dirname, 'public') });",
        "fs.readFile(path.join(__dirname, 'uploads', name), cb);",
        "const data = await readFile(join('/srv/avatars', basename(request.params.file)));",
        'const text = await readFile(request.file.path);',
        "fastify.get('/a/:name', async (request, reply) => {\n  const filePath = path.join(DIR, path.basename(request.params.name));\n  return reply.send(fs.createReadStream(filePath));\n});",
        "function render(params) {\n  const file = path.join(DOCS_ROOT, `${params.slug}.md`);\n  return readFile(file, 'utf8');\n}",
        "export async function GET(req, { params }) {\n  const file = path.join(DOCS_ROOT, `${path.basename(params.slug)}.md`);\n  return new Response(await readFile(file, 'utf8'));\n}",
        "router.get('/legal/:doc', (req, res) => {\n  const doc = req.params.doc === 'privacy' ? 'privacy.md' : 'terms.md';\n  res.send(fs.readFileSync(path.join(DIR, doc), 'utf8'));\n});",
        'async function serve(request, reply) {\n  const target = resolve(BASE, request.params.file);\n  if (!target.startsWith(BASE + sep)) return reply.code(404).send();\n  return reply.send(await readFile(target));\n}',
        "class C {\n  download(@Query('file') file: string, @Res() res: Response) {\n    const fullPath = join(REPORTS_DIR, REPORTS[file]);\n    return res.download(fullPath, { root: REPORTS_DIR });\n  }\n}",
      ],
    },
  },
  {
    id: 'js.path-traversal-helper',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'This passes request input to a function of this file that builds a file path from it and opens the file: `../` in the value reads or writes outside the intended folder. Reduce it to a basename or an allow-listed name, or check the resolved path stays inside its root.',
    rule: {
      kind: 'call_expression',
      // Cheap checks first: a plain function called with a request value, then the helper's text.
      all: [
        { has: { field: 'function', kind: 'identifier' } },
        { has: { field: 'arguments', regex: '\\b(req|request|ctx|event|params)\\b' } },
        { has: { field: 'arguments', has: REQUEST_VALUE_LITE } },
        FILE_HELPER_CALL,
      ],
    },
    cwe: 'CWE-22',
    examples: {
      invalid: [
        "async function loadTemplate(name) {\n  return fs.readFile(`${TEMPLATES_DIR}/${name}.html`, 'utf8');\n}\nasync function preview(req, res) {\n  res.json({ html: await loadTemplate(req.query.name) });\n}",
        "const readDoc = (slug) => readFileSync(path.join(DOCS, slug + '.md'), 'utf8');\nrouter.get('/docs/:slug', (req, res) => res.send(readDoc(req.params.slug)));",
      ],
      valid: [
        "async function loadTemplate(name) {\n  return fs.readFile(`${TEMPLATES_DIR}/${path.basename(name)}.html`, 'utf8');\n}\nasync function preview(req, res) {\n  res.json({ html: await loadTemplate(req.query.name) });\n}",
        "async function loadTemplate(name) {\n  return fs.readFile(`${TEMPLATES_DIR}/${name}.html`, 'utf8');\n}\nasync function preview(req, res) {\n  res.json({ html: await loadTemplate('welcome') });\n}",
        'function format(name) {\n  return `Hello ${name}`;\n}\nasync function greet(req, res) {\n  res.send(format(req.query.name));\n}',
      ],
    },
  },
  {
    id: 'js.ssrf',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'Requesting a URL taken from the request lets a client make the server call internal addresses (SSRF): allow-list hosts or map ids to known URLs.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeName('^(fetch|axios|got|request|needle|ky|\\$fetch|ofetch)$'),
            calleeProperty(
              '^(get|post|put|patch|delete|head|request|fetch|stream)$',
              '^(axios|got|http|https|superagent|needle|ky|undici|(this\\.)?(http|httpService|httpClient))$',
            ),
          ],
        },
        firstArgument({
          any: [
            SSRF_URL,
            // An options object: `axios({ url: req.body.url })`, `http.get({ host: req.query.host })`.
            {
              kind: 'object',
              has: {
                kind: 'pair',
                all: [
                  { has: { field: 'key', regex: '^(url|baseURL|uri|host|hostname)$' } },
                  { has: { field: 'value', ...REQUEST_VALUE_LITE } },
                ],
              },
            },
          ],
        }),
      ],
    },
    cwe: 'CWE-918',
    cvss: 8.6,
    examples: {
      invalid: [
        'const r = await fetch(req.query.url);',
        'const { data } = await axios.get(req.body.webhook);',
        'https.get(`${req.query.host}/status`, onResponse);',
        'async function preview(req, res) {\n  const target = req.body.url;\n  const r = await axios.get(target, { timeout: 5000 });\n}',
        "class C {\n  async test(@Body() dto: WebhookDto) {\n    return fetch(dto.url, { method: 'POST' });\n  }\n}",
        'class C {\n  async test(@Body() dto: TestDto) {\n    return firstValueFrom(this.http.post(dto.url, { test: true }));\n  }\n}',
        "router.post('/preview', async (req, res) => {\n  const { url } = req.body;\n  res.json(await got(url).json());\n});",
        'async function ping(req, res) {\n  const target = `${req.body.callbackHost}/hooks/ping`;\n  await axios.post(target, payload, { timeout: 5000 });\n}',
        "export async function POST(request) {\n  const body = await request.json();\n  const res = await fetch(body.webhookUrl, { method: 'POST' });\n  return Response.json({ status: res.status });\n}",
        'export async function POST(request) {\n  const { url } = (await request.json());\n  return fetch(url);\n}',
        "async function preview(req, res) {\n  const { data } = await axios({ method: 'get', url: req.query.url });\n}",
        "async function forward(req, reply) {\n  const upstream = `http://${req.query.service}.internal:8080`;\n  const url = new URL(req.query.path, upstream);\n  return request(url, { method: 'GET' });\n}",
        "// typescript\nclass S {\n  async importFromUrl(owner: string, dto: ImportImageDto) {\n    return firstValueFrom(this.http.get(dto.sourceUrl, { responseType: 'arraybuffer' }));\n  }\n}",
        "async function testDelivery(req, res) {\n  const hook = await Webhook.create({ accountId: req.user.id, url: req.body.url });\n  const r = await fetch(hook.url, { method: 'POST' });\n  res.json({ status: r.status });\n}",
      ],
      valid: [
        'async function preview(req, res) {\n  const target = allowed.get(req.body.url);\n  const r = await axios.get(target);\n}',
        'class C {\n  async test(@Body() dto: WebhookDto) {\n    return fetch(WEBHOOK_URL, { body: dto.url });\n  }\n}',
        'const r = await fetch(`${API_BASE}/users/${req.params.id}`);',
        'const r = await fetch(config.url);',
        'const { data } = await axios.get(allowed.get(req.body.webhook));',
        'async function read(req) {\n  const url = new URL(`/v1/items/${req.params.id}`, API_BASE);\n  return fetch(url);\n}',
        'async function ping(req) {\n  const target = `${API_BASE}/hooks/${req.body.name}`;\n  return axios.post(target, {});\n}',
        '// typescript\nclass S {\n  async importFromUrl(owner: string, job: ImportJob) {\n    return firstValueFrom(this.http.get(job.sourceUrl));\n  }\n}',
        "async function testDelivery(req, res) {\n  const hook = await Webhook.create({ url: WEBHOOK_URL, name: req.body.name });\n  const r = await fetch(hook.url, { method: 'POST' });\n  res.json({ status: r.status });\n}",
      ],
    },
  },
  {
    id: 'js.weak-hash',
    languages: LANGUAGES,
    type: 'security',
    severity: 'warning',
    message:
      'MD5 and SHA-1 are broken for collision resistance: never use them for passwords, signatures or integrity; use SHA-256 (or bcrypt/scrypt/argon2 for passwords).',
    rule: {
      kind: 'call_expression',
      all: [
        { any: [calleeProperty('^createHash$'), calleeName('^createHash$')] },
        firstArgument({ kind: 'string', regex: '^.(?i)(md5|md4|sha1|sha-1).$' }),
        // A change detector or bucket, not a security control: `const etag = ...`, `cacheKey: ...`,
        // `res.set('ETag', ...)`.
        {
          not: {
            inside: {
              stopBy: RANDOM_TARGET_STOP,
              any: [
                namedTarget('(?i)(etag|cache_?key|checksum|fingerprint|shard|bucket|partition|gravatar)$'),
                { kind: 'call_expression', regex: '^[\\w$.]+\\.(set|setHeader|header)\\(\\s*[\'"](?i)etag[\'"]' },
              ],
            },
          },
        },
      ],
    },
    cwe: 'CWE-328',
    examples: {
      invalid: [
        "const digest = crypto.createHash('md5').update(password).digest('hex');",
        "const h = createHash('sha1').update(body).digest('hex');",
        "const passwordHash = crypto.createHash('md5').update(etag + password).digest('hex');",
      ],
      valid: [
        "const digest = crypto.createHash('sha256').update(body).digest('hex');",
        "const mac = crypto.createHmac('sha256', key).update(body).digest('hex');",
        "const etag = `W/\"${crypto.createHash('md5').update(body).digest('base64')}\"`;",
        "res.set('ETag', createHash('sha1').update(body).digest('hex'));",
      ],
    },
  },
  {
    id: 'js.weak-cipher',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'This cipher is weak or misused (createCipher derives a key without salt or IV; DES, RC4 and ECB leak patterns): use createCipheriv with aes-256-gcm and a random IV.',
    rule: {
      kind: 'call_expression',
      any: [
        { all: [{ any: [calleeProperty('^createCipher$'), calleeName('^createCipher$')] }] },
        {
          all: [
            { any: [calleeProperty('^createCipheriv$'), calleeName('^createCipheriv$')] },
            firstArgument({ kind: 'string', regex: '(?i)(des|rc4|rc2|blowfish|-ecb)' }),
          ],
        },
      ],
    },
    cwe: 'CWE-327',
    examples: {
      invalid: [
        "const c = crypto.createCipher('aes-256-cbc', password);",
        "const c = crypto.createCipheriv('aes-128-ecb', key, null);",
        "const c = createCipheriv('des-ede3-cbc', key, iv);",
      ],
      valid: [
        "const c = crypto.createCipheriv('aes-256-gcm', key, iv);",
        "const d = crypto.createDecipheriv('aes-256-gcm', key, iv);",
      ],
    },
  },
  {
    id: 'js.insecure-random',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'Math.random is predictable and must not generate tokens, passwords or secrets: use crypto.randomBytes, crypto.randomUUID or crypto.getRandomValues.',
    rule: {
      pattern: 'Math.random()',
      any: [
        { inside: { ...RANDOM_SECRET_TARGET, stopBy: RANDOM_TARGET_STOP } },
        // A random string built item by item: `Array.from({ length: 32 }, () => ...Math.random()...)`.
        {
          inside: {
            any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
            stopBy: FUNCTION,
            inside: {
              kind: 'arguments',
              inside: {
                kind: 'call_expression',
                regex:
                  '^(Array\\.from\\(|\\[\\.\\.\\.(new\\s+)?Array\\(\\w+\\)\\]\\.map\\(|(new\\s+)?Array\\(\\w+\\)\\.fill\\([^)]*\\)\\.map\\()',
                inside: { ...RANDOM_SECRET_TARGET, stopBy: RANDOM_TARGET_STOP },
              },
            },
          },
        },
        // A numeric code made in a function that makes a secret: `function issueLoginCode() { const code = ... }`.
        {
          all: [
            {
              inside: {
                any: [
                  {
                    kind: 'variable_declarator',
                    has: { field: 'name', regex: '(?i)^(code|pin|otp|token|secret|key)$' },
                  },
                  // `return Math.floor(Math.random() * 1e6)...`, `return String(...)`.
                  { kind: 'return_statement', regex: '^return\\s+(String\\(|Number\\(|Math\\.(floor|round|trunc)\\()' },
                ],
                stopBy: RANDOM_TARGET_STOP,
              },
            },
            {
              inside: {
                any: [
                  ...['function_declaration', 'method_definition', 'variable_declarator'].map((kind) => ({
                    kind,
                    has: { field: 'name', regex: SECRET_MAKER_NAME },
                  })),
                  // A method of a class that issues codes: `class OtpService { async issue() { const code = ... } }`.
                  {
                    kind: 'class_declaration',
                    has: {
                      field: 'name',
                      regex: '(?i)(otp|totp|mfa|two_?factor|2fa|verif|passcode|auth|login|token|password|reset)',
                    },
                  },
                ],
                stopBy: 'end',
              },
            },
          ],
        },
        // A random string built from Math.random (`.toString(36)`, `ALPHABET[Math.floor(Math.random() * n)]`)
        // inside a function that makes a secret: `function inviteCode()`, `generateApiKey()`.
        {
          all: [
            {
              any: [
                { inside: { kind: 'call_expression', regex: '^Math\\.random\\(\\)\\.toString\\(', stopBy: FUNCTION } },
                { inside: { kind: 'subscript_expression', stopBy: FUNCTION } },
                { inside: { kind: 'call_expression', regex: '^\\w+\\.charAt\\(', stopBy: FUNCTION } },
              ],
            },
            {
              inside: {
                any: ['function_declaration', 'method_definition', 'variable_declarator'].map((kind) => ({
                  kind,
                  has: { field: 'name', regex: SECRET_MAKER_NAME },
                })),
                stopBy: 'end',
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-338',
    examples: {
      invalid: [
        'const resetToken = Math.random().toString(36).slice(2);',
        'user.sessionId = Math.floor(Math.random() * 1e16).toString(16);',
        'return { csrf: Math.random().toString(36) };',
        "function newSession(userId) {\n  const id = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');\n  return { id, userId };\n}",
        "const apiKey = Array.from({ length: 40 }, () => CHARS[Math.floor(Math.random() * CHARS.length)]).join('');",
        'function createSession(user) {\n  return { id: Math.random().toString(36).slice(2), user };\n}',
        'function inviteCode() {\n  return Math.random().toString(36).slice(2, 10);\n}',
        'export async function issueLoginCode(userId) {\n  const code = String(Math.floor(100000 + Math.random() * 900000));\n  await store(userId, code);\n  return code;\n}',
        'function newOtp() {\n  return Math.floor(Math.random() * 1e6).toString().padStart(6, "0");\n}',
        'class OtpService {\n  async issue(userId) {\n    const code = String(Math.floor(100000 + Math.random() * 900000));\n    await this.store.set(userId, code);\n    return code;\n  }\n}',
        "function randomKey(length = 40) {\n  return Array.from({ length }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');\n}",
        "function generateApiKey(length = 32) {\n  let key = '';\n  for (let i = 0; i < length; i++) key += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];\n  return key;\n}",
      ],
      valid: [
        "const resetToken = crypto.randomBytes(32).toString('hex');",
        'const jitter = Math.random() * 100;',
        'const tokenDelay = () => { const d = 5; return d; };',
        'const samples = Array.from({ length: 5 }, () => Math.random());',
        "const id = Math.random().toString(36).slice(2);\nel.setAttribute('id', id);",
        "function renderChart(points) {\n  const id = Array.from({ length: 8 }, () => Math.floor(Math.random() * 16).toString(16)).join('');\n  return draw(id, points);\n}",
        'const tokenColors = tokens.map(() => `hsl(${Math.random() * 360}, 70%, 50%)`);',
        'function colorCode() {\n  return PALETTE[Math.floor(Math.random() * PALETTE.length)];\n}',
        'function retryToken() {\n  return setTimeout(retry, Math.random() * 1000);\n}',
        'function issueLoginCode(userId) {\n  const delay = Math.random() * 100;\n  return send(userId, delay);\n}',
        'class AuthService {\n  async backoff() {\n    const delay = Math.random() * 100;\n    return sleep(delay);\n  }\n}',
      ],
    },
  },
  {
    id: 'js.tls-disabled',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'Turning off TLS certificate verification lets anyone on the network impersonate the server (man-in-the-middle): fix the certificate chain or pass the right CA instead.',
    rule: {
      any: [
        { kind: 'pair', regex: '^(rejectUnauthorized|strictSSL)\\s*:\\s*false$' },
        // `checkServerIdentity: () => undefined`: accepts a certificate issued for any host name.
        {
          kind: 'pair',
          has: { field: 'key', regex: '^checkServerIdentity$' },
          all: [
            {
              has: {
                field: 'value',
                any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
                has: {
                  field: 'body',
                  regex:
                    '^(undefined|null|\\{\\s*\\}|\\{\\s*return(\\s+(undefined|null))?;?\\s*\\}|\\(\\s*\\{\\s*\\}\\s*\\))$',
                },
              },
            },
          ],
        },
        {
          kind: 'assignment_expression',
          has: { field: 'left', regex: 'NODE_TLS_REJECT_UNAUTHORIZED' },
          all: [{ has: { field: 'right', regex: '^([\'"`]0[\'"`]|0)$' } }],
        },
      ],
    },
    cwe: 'CWE-295',
    cvss: 7.4,
    examples: {
      invalid: [
        'const agent = new https.Agent({ rejectUnauthorized: false });',
        "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';",
        'request({ url, strictSSL: false }, cb);',
        'const socket = tls.connect({ host, port, ca, checkServerIdentity: () => undefined });',
      ],
      valid: [
        'const agent = new https.Agent({ rejectUnauthorized: true, ca });',
        "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '1';",
        'const socket = tls.connect({ host, port, ca, checkServerIdentity: (name, cert) => tls.checkServerIdentity(PINNED_HOST, cert) });',
      ],
    },
  },
  {
    id: 'js.unsafe-deserialization',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'This deserializer can construct functions or arbitrary objects from its input (remote code execution): use JSON.parse, or js-yaml load with the default safe schema.',
    rule: {
      kind: 'call_expression',
      any: [
        { all: [{ any: [calleeProperty('^unserialize$'), calleeName('^unserialize$')] }, firstArgument(NON_LITERAL)] },
        { all: [calleeProperty('^unsafeLoad(All)?$', '(?i)yaml'), firstArgument(NON_LITERAL)] },
        {
          all: [
            calleeProperty('^load(All)?$', '(?i)yaml'),
            {
              has: {
                field: 'arguments',
                has: { kind: 'object', has: { kind: 'pair', regex: '^schema\\s*:.*(FULL|UNSAFE)' } },
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-502',
    cvss: 9.8,
    examples: {
      invalid: [
        "const serialize = require('node-serialize');\nconst obj = serialize.unserialize(req.cookies.profile);",
        'const doc = yaml.load(text, { schema: yaml.DEFAULT_FULL_SCHEMA });',
        'const doc = jsyaml.unsafeLoad(body);',
      ],
      valid: ['const obj = JSON.parse(req.cookies.profile);', 'const doc = yaml.load(text);'],
    },
  },
  {
    id: 'js.jwt-none-algorithm',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      "Accepting or signing with the 'none' JWT algorithm means tokens are not signed at all: anyone can forge one. Pin a real algorithm (e.g. RS256 or HS256).",
    rule: {
      kind: 'call_expression',
      all: [
        calleeProperty('^(verify|sign)$', '^(jwt|jsonwebtoken|JWT)$'),
        {
          has: {
            field: 'arguments',
            has: {
              kind: 'object',
              has: { kind: 'pair', regex: '^algorithms?\\s*:.*[\'"]none[\'"]' },
            },
          },
        },
      ],
    },
    cwe: 'CWE-347',
    cvss: 9.1,
    examples: {
      invalid: [
        "const claims = jwt.verify(token, key, { algorithms: ['HS256', 'none'] });",
        "const t = jwt.sign(payload, '', { algorithm: 'none' });",
      ],
      valid: [
        "const claims = jwt.verify(token, key, { algorithms: ['HS256'] });",
        "const t = jwt.sign(payload, key, { algorithm: 'RS256' });",
      ],
    },
  },
  {
    id: 'js.jwt-decode-without-verify',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'jwt.decode does not check the signature: a request handler that trusts decoded claims accepts forged tokens. Use jwt.verify with the key and a pinned algorithm.',
    rule: {
      kind: 'call_expression',
      all: [
        calleeProperty('^decode$', '^(jwt|jsonwebtoken|JWT)$'),
        {
          inside: {
            ...FUNCTION,
            all: [
              { has: { kind: 'member_expression', regex: '^(req|request|ctx)\\.', stopBy: 'end' } },
              { not: { has: { kind: 'call_expression', regex: '^\\w+\\.verify\\(', stopBy: 'end' } } },
            ],
            stopBy: FUNCTION,
          },
        },
      ],
    },
    cwe: 'CWE-347',
    examples: {
      invalid: [
        'function auth(req, res, next) {\n  const claims = jwt.decode(req.headers.authorization.slice(7));\n  req.user = claims.sub;\n  next();\n}',
        'app.use((req, res, next) => { req.user = jwt.decode(req.cookies.token); next(); });',
      ],
      valid: [
        "function auth(req, res, next) {\n  const claims = jwt.verify(req.headers.authorization.slice(7), key, { algorithms: ['RS256'] });\n  req.user = claims.sub;\n  next();\n}",
        'function expiresAt(token) { return jwt.decode(token).exp; }',
      ],
    },
  },
  {
    id: 'js.template-injection',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'Compiling a template taken from the request runs attacker-written template code on the server (template injection): compile only your own templates and pass input as data.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeProperty(
              '^(compile|render|template|renderString)$',
              '^(_|lodash|Handlebars|handlebars|ejs|pug|nunjucks|Mustache|mustache)$',
            ),
            // nunjucks/liquidjs environments: `env.renderString(src, vars)`, `engine.parseAndRender(src)`.
            calleeProperty('^(renderString|parseAndRender|parseAndRenderSync)$'),
            // `import template from 'lodash/template'`, `import { compile } from 'handlebars'`.
            {
              all: [
                calleeName('^(template|compile)$'),
                {
                  inside: {
                    kind: 'program',
                    stopBy: 'end',
                    regex:
                      '(import|require)[^;\\n]*[\'"](lodash[./]template|lodash|lodash-es|handlebars|pug|ejs|nunjucks|dot)[\'"]',
                  },
                },
              ],
            },
          ],
        },
        firstArgument(carriesRequest()),
      ],
    },
    cwe: 'CWE-1336',
    examples: {
      invalid: [
        'const html = ejs.render(req.body.template, data);',
        'const t = Handlebars.compile(req.query.tpl);',
        "app.post('/preview', (req, res) => {\n  const { template, sample } = req.body;\n  res.send(ejs.render(template, { user: sample }));\n});",
        "import template from 'lodash/template';\nfunction preview(req, res) {\n  const source = req.body.template ?? DEFAULT;\n  res.send(template(source)({ user: req.user }));\n}",
      ],
      valid: [
        'const html = ejs.render(template, { name: req.body.name });',
        "const t = Handlebars.compile('<p>{{name}}</p>');",
        "app.post('/preview', (req, res) => {\n  const { sample } = req.body;\n  res.send(ejs.render(TEMPLATE, { user: sample }));\n});",
        "import template from 'lodash/template';\nfunction preview(req, res) {\n  res.send(template(TEMPLATE)({ name: req.body.name }));\n}",
      ],
    },
  },
  {
    id: 'js.template-from-data',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'This compiles template source that comes from data (a stored page, a user-edited template, custom text), not from your own template files: template syntax in it runs on the server (template injection). Render fixed templates and pass the custom text as a variable, or use a logic-less sandboxed engine.',
    rule: {
      kind: 'call_expression',
      // Cheap checks of the callee first, then the argument, then (for a bare `template(...)`) the imports.
      all: [
        {
          any: [
            calleeProperty('^(renderString|parseAndRender|parseAndRenderSync|compile|render|template)$'),
            calleeName('^(template|compile|render)$'),
          ],
        },
        {
          any: [
            firstArgument({ any: [TEMPLATE_SOURCE_FROM_DATA, declaredFrom(TEMPLATE_SOURCE_FROM_DATA, '$TPL')] }),
            // Template source spliced from values: `env.renderString(`{% block c %}${body}{% endblock %}`)`.
            // (Not `render`, which takes a file name in nunjucks: `env.render(`${name}.njk`)`.)
            {
              all: [
                { not: calleeProperty('^render$') },
                { not: calleeName('^render$') },
                firstArgument({
                  kind: 'template_string',
                  has: { kind: 'template_substitution', not: { has: { ...CONSTANT_NAME } } },
                }),
              ],
            },
          ],
        },
        {
          any: [
            // nunjucks: `env.renderString(src, vars)`; liquidjs: `engine.parseAndRender(src, vars)`.
            calleeProperty('^(renderString|parseAndRender|parseAndRenderSync)$'),
            calleeProperty(
              '^(compile|render|template)$',
              '^(_|lodash|Handlebars|handlebars|hbs|ejs|pug|jade|nunjucks|Mustache|mustache|dot|doT|Twig|twig|Hogan|hogan|Eta|eta)$',
            ),
            // `import template from 'lodash/template'`, `import { compile } from 'handlebars'`.
            {
              all: [
                calleeName('^(template|compile|render)$'),
                {
                  inside: {
                    kind: 'program',
                    stopBy: 'end',
                    regex:
                      '(import|require)[^;\\n]*[\'"](lodash[./]template|lodash|lodash-es|handlebars|pug|ejs|nunjucks|mustache|dot)[\'"]',
                  },
                },
              ],
            },
          ],
        },
      ],
    },
    cwe: 'CWE-1336',
    cvss: 9.8,
    examples: {
      invalid: [
        'async function render(siteId, slug, locals) {\n  const page = await store.findPage(siteId, slug);\n  return pug.compile(page.source)(locals);\n}',
        "import nunjucks from 'nunjucks';\nconst env = new nunjucks.Environment();\nfunction notify(template, vars) {\n  return env.renderString(template.body, vars);\n}",
        "import template from 'lodash/template';\nfunction reply(conversation, customText) {\n  const source = customText ?? 'Thanks <%= name %>';\n  const compiled = template(source);\n  return compiled({ name: conversation.name });\n}",
        'const html = Handlebars.compile(campaign.bodyHtml)(recipient);',
        'class Mail {\n  send(body, data) {\n    return this.env.renderString(`{% extends "base.njk" %}{% block content %}${body}{% endblock %}`, data);\n  }\n}',
      ],
      valid: [
        "const tpl = Handlebars.compile(fs.readFileSync(path.join(__dirname, 'welcome.hbs'), 'utf8'));",
        "import template from 'lodash/template';\nconst compiled = template('Thanks <%= name %>');",
        'const html = ejs.render(WELCOME_TEMPLATE, { name: user.name });',
        "async function render(name, vars) {\n  const source = await readFile(join(TEMPLATES_DIR, name), 'utf8');\n  return Handlebars.compile(source)(vars);\n}",
        'const out = env.render(`emails/${kind}.njk`, vars);',
        'const out = env.renderString(`{% include "${LAYOUT}" %}`, vars);',
      ],
    },
  },
  {
    id: 'js.hardcoded-credential',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'A password or secret written in the source ends up in every clone and log of the repository: read it from the environment or a secret store.',
    rule: {
      any: [
        {
          kind: 'variable_declarator',
          has: {
            field: 'name',
            regex: '(?i)(password|passwd|secret|api_?key|private_?key|access_?token|auth_?token)$',
          },
          all: [{ has: { field: 'value', kind: 'string', regex: '^.[^\\s\'"]{8,}.$' } }],
        },
        {
          kind: 'pair',
          has: { field: 'key', regex: '(?i)(password|passwd|secret|api_?key|private_?key|access_?token|auth_?token)$' },
          all: [{ has: { field: 'value', kind: 'string', regex: '^.[^\\s\'"]{8,}.$' } }],
        },
      ],
      has: { field: 'value', any: [{ regex: '[0-9]' }, { regex: '[a-z].*[A-Z]|[A-Z].*[a-z]' }] },
      not: {
        has: {
          field: 'value',
          any: [
            {
              regex:
                '(?i)(example|changeme|change-me|placeholder|your[-_]|xxx|\\*\\*\\*|dummy|redacted|fake|test|<|\\$\\{|\\{\\{)',
            },
            { regex: '^.[A-Z0-9_]+.$' },
          ],
        },
      },
    },
    cwe: 'CWE-798',
    examples: {
      invalid: ["const dbPassword = 'Pr0d-S3cret!2024';", "const config = { apiKey: 'ak_live_8f3d9a7e61b2c4d5' };"],
      valid: [
        'const dbPassword = process.env.DB_PASSWORD;',
        "const config = { apiKey: 'your-api-key-here' };",
        "const SECRET_ENV = 'GITHUB_WEBHOOK_SECRET';",
        "const password = '';",
      ],
    },
  },

  {
    id: 'js.secret-env-fallback',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'The secret falls back to a key written in the source when the environment variable is missing: every deployment that forgets the variable silently uses a key anyone with the repository can read (and forge tokens or sessions with). Fail at start-up when the variable is unset instead.',
    rule: {
      any: [
        ...[
          ['variable_declarator', 'name', 'value'],
          ['pair', 'key', 'value'],
          ['assignment_expression', 'left', 'right'],
        ].map(([kind, name, value]) => ({
          kind,
          has: { field: name, regex: SECRET_VAR_NAME },
          all: [{ has: { field: value, ...ENV_WITH_LITERAL_FALLBACK } }],
        })),
        // `jwt.sign(claims, process.env.JWT_SECRET || 'b7f1...')`.
        {
          kind: 'call_expression',
          all: [
            calleeProperty('^(sign|verify)$', '^(jwt|jsonwebtoken|JWT|jsonWebToken)$'),
            { has: { field: 'arguments', has: { nthChild: 2, ...ENV_WITH_LITERAL_FALLBACK } } },
          ],
        },
      ],
    },
    cwe: 'CWE-798',
    cvss: 9.1,
    examples: {
      invalid: [
        "const JWT_SECRET = process.env.JWT_SECRET || 'b7f1c2e9a4d8f3e6a1c0';",
        "const config = { sessionSecret: process.env.SESSION_SECRET ?? 'k3y-Pr0d-2024-xyz' };",
        "return jwt.sign({ sub: id }, process.env.JWT_KEY || 'b7f1c2e9a4d8f3e6a1c0');",
      ],
      valid: [
        'const JWT_SECRET = process.env.JWT_SECRET;',
        "const JWT_SECRET = process.env.JWT_SECRET || 'change-me-in-production';",
        "const PORT = process.env.PORT || '3000';",
        "const apiKey = process.env.API_KEY ?? '';",
      ],
    },
  },
  {
    id: 'js.query-builder-injection',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'A query-builder condition or raw fragment built by interpolating or concatenating values is open to SQL injection: use named parameters (`.where("u.email = :email", { email })`) or the builder\'s value helpers instead.',
    // Reported on the argument list, so that a fragment in a multi-line builder chain is flagged on
    // its own line (`.orderByRaw(...)`), not on the line where the chain starts.
    rule: {
      kind: 'arguments',
      inside: {
        kind: 'call_expression',
        any: [
          // TypeORM / MikroORM query builders: `repo.createQueryBuilder('u').where(`... ${x}`)`, `qb.andWhere('a = ' + b)`.
          {
            all: [
              calleeProperty('^(where|andWhere|orWhere|having|andHaving|orHaving)$'),
              {
                has: {
                  field: 'function',
                  has: {
                    field: 'object',
                    any: [{ regex: 'createQueryBuilder\\(' }, { regex: '^(this\\.)?(qb|queryBuilder|builder|query)$' }],
                  },
                },
              },
              firstArgument(RAW_SQL_FRAGMENT),
            ],
          },
          // Drizzle / Knex raw fragments: `sql.raw(`... ${x}`)`, `knex.raw('... ' + x)` inside a builder.
          { all: [calleeProperty('^raw$', '^(sql|Prisma\\.sql)$'), firstArgument(RAW_SQL_FRAGMENT)] },
          {
            all: [
              calleeProperty(
                '^(whereRaw|orWhereRaw|andWhereRaw|havingRaw|orderByRaw|groupByRaw|joinRaw|fromRaw|selectRaw)$',
              ),
              firstArgument(RAW_SQL_FRAGMENT),
              { not: { has: { field: 'arguments', has: { kind: 'array' } } } },
            ],
          },
          // Sequelize raw fragments: `literal(`tags @> ARRAY['${tag}']`)`, `sequelize.literal('...' + x)`.
          {
            all: [
              {
                any: [
                  calleeProperty('^literal$', '^(sequelize|Sequelize|this\\.sequelize)$'),
                  {
                    all: [
                      calleeName('^literal$'),
                      { inside: { kind: 'program', stopBy: 'end', regex: '[\'"]@?sequelize(-typescript)?[\'"]' } },
                    ],
                  },
                ],
              },
              firstArgument(RAW_SQL_FRAGMENT),
            ],
          },
        ],
      },
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        "return this.users.createQueryBuilder('u').where(`u.email LIKE '%@${domain}'`).getMany();",
        "const qb = repo.createQueryBuilder('o');\nqb.andWhere('o.status = \\'' + status + '\\'');",
        "const rows = await db.select().from(users).where(sql.raw(`name = '${name}'`));",
        'const rows = await knex("users").whereRaw(`email = \'${email}\'`);',
        "router.get('/i', async (req, res) => {\n  const { sort = 'created_at' } = req.query;\n  const rows = await db('invoices')\n    .where({ status })\n    .orderByRaw(`${sort} desc`);\n});",
        "import { Op, literal } from 'sequelize';\nconst where = { [Op.and]: literal(`tags @> ARRAY['${tag}']::text[]`) };",
        "const rows = await Post.findAll({ where: sequelize.literal('author_id = ' + authorId) });",
      ],
      valid: [
        "return this.users.createQueryBuilder('u').where('u.email LIKE :pattern', { pattern: `%@${domain}` }).getMany();",
        "const rows = await knex('users').whereRaw('email = ?', [email]);",
        'const rows = await db.select().from(users).where(sql`name = ${name}`);',
        'const active = items.where(`status-${kind}`);',
        "function list(req) {\n  const column = SORTABLE[req.query.sort] || 'created_at';\n  const direction = req.query.dir === 'asc' ? 'ASC' : 'DESC';\n  return db('payouts').orderByRaw(`${column} ${direction}`);\n}",
        "import { literal } from 'sequelize';\nconst where = literal('tags @> ARRAY[:tag]::text[]');",
        'const style = literal(`color: ${color}`);',
      ],
    },
  },
  {
    id: 'js.jquery-html',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      'jQuery .html()/.append() with HTML built from variables renders them as markup (cross-site scripting): set text with .text(), or build elements and set their text.',
    rule: {
      kind: 'call_expression',
      all: [
        calleeProperty('^(html|append|prepend|after|before|replaceWith|wrap)$'),
        { has: { field: 'function', has: { field: 'object', regex: '^(\\$|jQuery)\\(' } } },
        firstArgument({
          all: [DYNAMIC_STRING, { regex: '<[a-zA-Z]' }, { not: { has: { ...SANITIZED, stopBy: 'end' } } }],
        }),
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        "$('#search-summary').html('Results for <strong>' + query + '</strong>');",
        '$(list).append(`<li>${item.name}</li>`);',
      ],
      valid: [
        "$('#search-summary').text('Results for ' + query);",
        "$('#list').append('<li>Loading</li>');",
        '$(list).append(`<li>${escapeHtml(item.name)}</li>`);',
      ],
    },
  },
  {
    id: 'js.angular-bypass-sanitizer',
    languages: LANGUAGES,
    type: 'security',
    severity: 'important',
    message:
      "bypassSecurityTrust*() (or Renderer2 setting innerHTML) switches off Angular's sanitizer for a value that is not a constant: if it holds user content, that is cross-site scripting. Bind it normally (Angular sanitizes [innerHTML]) or sanitize it first.",
    rule: {
      kind: 'call_expression',
      any: [
        {
          all: [
            calleeProperty('^bypassSecurityTrust(Html|Script|Url|ResourceUrl|Style)$'),
            firstArgument({ all: [NON_LITERAL, { not: SANITIZED }] }),
          ],
        },
        {
          all: [
            calleeProperty('^setProperty$'),
            {
              has: {
                field: 'arguments',
                all: [
                  { has: { nthChild: 2, kind: 'string', regex: '^.(innerHTML|outerHTML).$' } },
                  { has: { nthChild: 3, all: [NON_LITERAL, { not: SANITIZED }] } },
                ],
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        'this.html = this.sanitizer.bypassSecurityTrustHtml(this.body);',
        "this.renderer.setProperty(this.el.nativeElement, 'innerHTML', comment.text);",
      ],
      valid: [
        'this.icon = this.sanitizer.bypassSecurityTrustHtml(\'<svg viewBox="0 0 1 1"></svg>\');',
        'this.html = this.sanitizer.bypassSecurityTrustHtml(DOMPurify.sanitize(this.body));',
        "this.renderer.setProperty(this.el.nativeElement, 'textContent', comment.text);",
      ],
    },
  },
  {
    id: 'js.jwt-hardcoded-secret',
    languages: LANGUAGES,
    type: 'security',
    severity: 'critical',
    message:
      'The JWT signing key is a string literal in the source: anyone who can read the repository can forge tokens for any user. Read the key from the environment or a secret store.',
    rule: {
      kind: 'call_expression',
      all: [
        calleeProperty('^(sign|verify)$', '^(jwt|jsonwebtoken|JWT|jsonWebToken)$'),
        {
          has: {
            field: 'arguments',
            has: {
              nthChild: 2,
              kind: 'string',
              regex: '^.[^\\s]{6,}.$',
              not: { regex: '(?i)(example|changeme|change-me|placeholder|your[-_]|xxx|dummy|fake|test|\\$\\{)' },
            },
          },
        },
      ],
    },
    cwe: 'CWE-798',
    examples: {
      invalid: [
        "return jwt.sign({ sub: userId }, 'b7f1c2e9a4d8f3e6', { expiresIn: '15m' });",
        "const claims = jwt.verify(token, 'sup3r-s3cret-key');",
      ],
      valid: [
        "return jwt.sign({ sub: userId }, process.env.JWT_SECRET, { expiresIn: '15m' });",
        "const claims = jwt.verify(token, 'test-secret');",
        "const t = jwt.sign(payload, key, { algorithm: 'RS256' });",
      ],
    },
  },

  // ---------------------------------------------------------------- bugs
  {
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
    examples: {
      invalid: [
        "if (user.role = 'admin') {\n  grant();\n}",
        'if (count = 0) return;',
        "if (d.attempts < 5 && (d.status = 'failed')) {\n  retry(d);\n}",
      ],
      valid: [
        "if (user.role === 'admin') {\n  grant();\n}",
        'if ((match = re.exec(text))) use(match);',
        'while ((m = re.exec(s))) n++;',
        "if (ready && (next = queue.shift())) {\n  next.status = 'running';\n}",
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'if (a.id === a.id) merge(a, b);',
        'const same = left.length >= left.length;',
        'if (after[i].updatedAt !== after[i].updatedAt) changes.push(after[i]);',
        'const moved = row.position != row.position;',
        'if (invite.email.toLowerCase() !== invite.email.toLowerCase()) deny();',
      ],
      valid: [
        'if (a.id === b.id) merge(a, b);',
        'const isNaNValue = x !== x;',
        'if (value !== value) return null;',
        'if (after[i].updatedAt !== before[i].updatedAt) changes.push(after[i]);',
        'if (invite.email.toLowerCase() !== user.email.toLowerCase()) deny();',
        'if (Math.random() !== Math.random()) roll();',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'function f(x) {\n  return x * 2;\n  console.log(x);\n}',
        "function g() {\n  throw new Error('no');\n  cleanup();\n}",
      ],
      valid: [
        'function f(x) {\n  if (x) return x * 2;\n  console.log(x);\n}',
        'function g() {\n  return helper();\n  function helper() { return 1; }\n}',
        "switch (k) {\n  case 1:\n    return 'a';\n  case 2:\n    return 'b';\n}",
      ],
    },
  },
  {
    id: 'js.empty-catch',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'warning',
    message:
      'This catch swallows the error silently, so failures vanish without a trace: handle it, log it, rethrow it, or say in a comment why ignoring it is safe.',
    // Only catch blocks: `.catch(() => {})` is the common deliberate "ignore" idiom.
    rule: { kind: 'catch_clause', has: { field: 'body', regex: '^\\{\\s*\\}$' } },
    examples: {
      invalid: ['try {\n  save(doc);\n} catch (err) {}', 'try {\n  await publish(event);\n} catch {\n}'],
      valid: [
        'try {\n  save(doc);\n} catch (err) {\n  logger.warn({ err }, "save failed");\n}',
        'try {\n  unlinkSync(tmp);\n} catch {\n  // already gone\n}',
        'fetchUser(id).catch(() => {});',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'async function confirm(payment) {\n  await this.payments.save(payment).catch(() => {});\n}',
        'async function capture(stripe, id) {\n  await stripe.paymentIntents\n    .capture(id)\n    .then((intent) => markCaptured(id, intent.id))\n    .catch(() => {});\n}',
        'async function capture(gateway, order) {\n  try {\n    await gateway.capture(order.intentId, order.total);\n  } catch (error) {\n    // ignore, the gateway retries\n  }\n  await markPaid(order.id);\n}',
      ],
      valid: [
        'async function confirm(payment) {\n  await this.payments.save(payment).catch((err) => log.error({ err }, "save failed"));\n}',
        'fetchUser(id).catch(() => {});',
        'await fs.rm(tmp, { recursive: true }).catch(() => {});',
        'try {\n  unlinkSync(tmp);\n} catch {\n  // already gone\n}',
        'async function capture(gateway, order) {\n  try {\n    await gateway.capture(order.intentId, order.total);\n  } catch (error) {\n    await markFailed(order.id, error);\n  }\n}',
        'async function record(db, event) {\n  try {\n    await db.insert(event);\n  } catch {\n    // duplicate delivery: the event is already stored\n  }\n}',
      ],
    },
  },
  {
    id: 'js.off-by-one-loop',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'important',
    message:
      'The loop runs while the index is <= length, so the last iteration reads one past the end (undefined): use `<`.',
    rule: {
      pattern: '$I <= $A.length',
      inside: {
        kind: 'for_statement',
        field: 'condition',
        all: [
          { has: { field: 'initializer', regex: '=\\s*[01]\\s*;?$' } },
          { has: { pattern: '$A[$I]', stopBy: 'end' } },
        ],
        stopBy: { kind: 'for_statement' },
      },
    },
    fix: '$I < $A.length',
    examples: {
      invalid: [
        'for (let i = 0; i <= items.length; i++) {\n  total += items[i].price;\n}',
        'for (var j = 0; j <= list.length; j += 1) sum(list[j]);',
        'for (let i = 1; i <= points.length; i++) {\n  out.push(points[i] - points[i - 1]);\n}',
      ],
      valid: [
        'for (let i = 0; i < items.length; i++) {\n  total += items[i].price;\n}',
        'for (let i = 1; i <= items.length; i++) {\n  label(items[i - 1], i);\n}',
        'for (let n = 0; n <= pages.length; n++) {\n  render(n);\n}',
      ],
    },
  },
  {
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
        regex:
          '(?i)(^|\\.)(total_?pages|page_?count|pages_?count|num_?pages|number_?of_?pages|last_?page|max_?page|pages)$',
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
    examples: {
      invalid: [
        'for (let page = 2; page < totalPages; page++) {\n  requests.push(api.get("/items", { params: { page } }));\n}',
        'for (let p = 1; p < res.meta.pageCount; p += 1) {\n  await load(p);\n}',
      ],
      valid: [
        'for (let page = 2; page <= totalPages; page++) {\n  requests.push(api.get("/items", { params: { page } }));\n}',
        'for (let page = 0; page < totalPages; page++) {\n  await load(page);\n}',
        'for (let i = 1; i < items.length; i++) {\n  diff(items[i - 1], items[i]);\n}',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'for (let i = stack.length; i >= 0; i--) {\n  stack[i].undo();\n}',
        'for (var j = items.length; j >= 0; j -= 1) out.push(items[j]);',
      ],
      valid: [
        'for (let i = stack.length - 1; i >= 0; i--) {\n  stack[i].undo();\n}',
        'for (let i = stack.length; i >= 0; i--) {\n  render(i);\n}',
        'for (let i = stack.length; i > 0; i--) {\n  stack[i - 1].undo();\n}',
      ],
    },
  },
  {
    id: 'js.floating-promise',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'warning',
    message:
      'This promise is neither awaited, returned nor given a rejection handler: a failure becomes an unhandled rejection (which crashes Node) and callers cannot wait for it.',
    rule: {
      kind: 'expression_statement',
      has: {
        any: [
          { kind: 'new_expression', has: { field: 'constructor', regex: '^Promise$' } },
          {
            kind: 'call_expression',
            all: [calleeProperty('^then$'), { has: { field: 'arguments', not: { has: { nthChild: 2 } } } }],
          },
        ],
      },
    },
    examples: {
      invalid: [
        'async function f() {\n  new Promise((resolve) => setTimeout(resolve, 100));\n  next();\n}',
        'loadUser(id).then((user) => render(user));',
      ],
      valid: [
        'async function f() {\n  await new Promise((resolve) => setTimeout(resolve, 100));\n  next();\n}',
        'loadUser(id).then((user) => render(user)).catch(showError);',
        'loadUser(id).then(render, showError);',
        'void loadUser(id).then((user) => render(user));',
      ],
    },
  },
  {
    id: 'js.missing-await-fs',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'important',
    message:
      'A fs.promises call whose promise is dropped: the code after it runs before the file operation finishes and its errors are never seen. Await it.',
    rule: {
      pattern: '$F($$$ARGS)',
      kind: 'call_expression',
      inside: { kind: 'expression_statement' },
      any: [
        calleeProperty(FS_PROMISE_FUNCTIONS, '^(fs\\.promises|fsp|fsPromises|promises)$'),
        // The same functions imported by name from `fs/promises`: `import { writeFile } from 'node:fs/promises'`.
        {
          ...calleeName(FS_PROMISE_FUNCTIONS),
          inside: {
            kind: 'program',
            stopBy: 'end',
            regex: '(from\\s*|require\\(\\s*)[\'"](node:)?fs/promises[\'"]',
          },
        },
      ],
    },
    fix: 'await $F($$$ARGS)',
    examples: {
      invalid: [
        "async function save() {\n  fs.promises.writeFile(file, data);\n  console.info('saved');\n}",
        'async function clean() {\n  fsp.rm(dir, { recursive: true });\n}',
        "import { writeFile } from 'node:fs/promises';\nexport async function save(file, state) {\n  writeFile(file, JSON.stringify(state));\n  return file;\n}",
      ],
      valid: [
        "async function save() {\n  await fs.promises.writeFile(file, data);\n  console.info('saved');\n}",
        'function clean() {\n  return fsp.rm(dir, { recursive: true });\n}',
        'fs.writeFile(file, data, cb);',
        "import { writeFile } from 'node:fs';\nwriteFile(file, data, cb);",
        "import { writeFile } from 'node:fs/promises';\nexport async function save(file, state) {\n  await writeFile(file, JSON.stringify(state));\n}",
      ],
    },
  },
  {
    id: 'js.async-foreach',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'important',
    message:
      'forEach ignores the promises its async callback returns: the caller carries on before any of the work finishes and a rejection is unhandled. Use a for-of loop with await, or await Promise.all(items.map(async ...)).',
    rule: {
      kind: 'call_expression',
      all: [
        calleeProperty('^forEach$'),
        firstArgument({ any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }], regex: '^async\\b' }),
      ],
    },
    examples: {
      invalid: [
        'async function cleanup(store) {\n  const expired = await store.listExpired();\n  expired.forEach(async (session) => {\n    await store.delete(session.id);\n  });\n}',
        'files.forEach(async function (file) {\n  await upload(file);\n});',
      ],
      valid: [
        'async function cleanup(store) {\n  for (const session of await store.listExpired()) {\n    await store.delete(session.id);\n  }\n}',
        'await Promise.all(files.map(async (file) => upload(file)));',
        'files.forEach((file) => queue.push(file));',
      ],
    },
  },
  {
    id: 'js.unawaited-write',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'important',
    message:
      'This database write (save/insert/update...) returns a promise that is dropped inside an async function: the function goes on (and may respond) before the write is done, and a failure becomes an unhandled rejection instead of an error. Await it.',
    rule: {
      kind: 'expression_statement',
      has: {
        kind: 'call_expression',
        all: [
          {
            any: [
              calleeProperty(
                '^(save|insertOne|insertMany|updateOne|updateMany|deleteOne|deleteMany|replaceOne|upsert|bulkWrite|findOneAndUpdate|findByIdAndUpdate|findByIdAndDelete|persist)$',
              ),
              // A model's static create/update (Mongoose, Sequelize): `AuditLog.create({...})`.
              {
                ...calleeProperty('^(create|bulkCreate|update|destroy|increment|decrement)$', '^[A-Z][a-z]\\w*$'),
                not: {
                  has: {
                    field: 'function',
                    has: {
                      field: 'object',
                      regex:
                        '^(Object|Promise|Array|Reflect|React|Vue|Buffer|Date|Math|JSON|Intl|Symbol|Error|Map|Set|WeakMap|Proxy|Atomics)$',
                    },
                  },
                },
              },
              // `insert` is also a method of in-memory trees and lists.
              {
                ...calleeProperty('^insert$'),
                not: {
                  has: {
                    field: 'function',
                    has: {
                      field: 'object',
                      regex: '(?i)(tree|trie|heap|list|set|map|index|queue|buffer|text|editor|range|node)$',
                    },
                  },
                },
              },
            ],
          },
          // A canvas context's save() is synchronous.
          { not: { has: { field: 'function', has: { field: 'object', regex: '(?i)(ctx|context|canvas)$' } } } },
        ],
      },
      all: [
        // A cheap first look at the method name, so that the checks of the function around it
        // (which read its text) run only for statements that call a write.
        {
          has: {
            kind: 'call_expression',
            has: {
              field: 'function',
              kind: 'member_expression',
              has: {
                field: 'property',
                regex:
                  '^(save|insert|insertOne|insertMany|update|updateOne|updateMany|deleteOne|deleteMany|replaceOne|upsert|bulkWrite|findOneAndUpdate|findByIdAndUpdate|findByIdAndDelete|persist|create|bulkCreate|destroy|increment|decrement)$',
              },
            },
          },
        },
        // The nearest function is async ...
        { inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION } },
        {
          any: [
            // ... and already awaits something: its calls are expected to be awaited;
            { inside: { ...FUNCTION, has: { kind: 'await_expression', stopBy: 'end' }, stopBy: FUNCTION } },
            // or the write is a model's static call (Mongoose/Sequelize: `Order.updateOne(...)`).
            {
              has: {
                kind: 'call_expression',
                has: { field: 'function', has: { field: 'object', regex: '^[A-Z][a-z]\\w*$' } },
              },
            },
          ],
        },
      ],
    },
    examples: {
      invalid: [
        'async function updateProfile(req, res) {\n  const user = await User.findById(req.user.id);\n  user.save();\n  res.status(204).end();\n}',
        "async function deleteProject(id) {\n  await projects.delete(id);\n  auditLog.insert({ action: 'project.delete', id });\n}",
        "router.post('/hook', async (req, res) => {\n  const event = verify(req);\n  Order.updateOne({ id: event.id }, { $set: { paid: true } });\n  res.json({ ok: true });\n});",
        "async function recordLogin(req, res) {\n  AuditLog.create({ userId: req.user.id, action: 'login' });\n  res.status(204).end();\n}",
      ],
      valid: [
        'async function updateProfile(req, res) {\n  const user = await User.findById(req.user.id);\n  await user.save();\n  res.status(204).end();\n}',
        'function draw(ctx) {\n  user.save();\n}',
        'async function paint(ctx) {\n  await loadImage(src);\n  ctx.save();\n}',
        'async function build(words) {\n  const list = await words;\n  tree.insert(list);\n}',
        'async function f(doc) {\n  await lock();\n  return doc.save();\n}',
        "router.post('/hook', async (req, res) => {\n  await Order.updateOne({ id: req.body.id }, { $set: { paid: true } });\n  res.json({ ok: true });\n});",
        'function touch(id) {\n  Order.updateOne({ id }, { $set: { seenAt: new Date() } });\n}',
        'async function build(proto) {\n  Object.create(proto);\n  return proto;\n}',
      ],
    },
  },
  {
    id: 'js.unawaited-redis-write',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'important',
    message:
      'This Redis write returns a promise that is dropped inside an async function: the function resolves before the key is stored (a read right after can miss it) and a connection error becomes an unhandled rejection. Await (or return) it.',
    rule: {
      kind: 'expression_statement',
      has: {
        kind: 'call_expression',
        ...calleeProperty(
          '^(set|setex|psetex|setnx|mset|hset|hmset|hsetnx|hdel|hincrby|del|unlink|expire|pexpire|expireat|incr|incrby|decr|decrby|lpush|rpush|ltrim|lrem|sadd|srem|zadd|zrem|zincrby|xadd|publish)$',
          '(?i)^(this\\.)?\\w*redis\\w*$',
        ),
      },
      inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION },
    },
    examples: {
      invalid: [
        "class Store {\n  async save(id, data) {\n    this.redis.set(`sess:${id}`, JSON.stringify(data), 'EX', 3600);\n  }\n}",
        'async function logout(id) {\n  redisClient.del(`sess:${id}`);\n  return true;\n}',
      ],
      valid: [
        "class Store {\n  async save(id, data) {\n    await this.redis.set(`sess:${id}`, JSON.stringify(data), 'EX', 3600);\n  }\n}",
        'function logout(id) {\n  return redisClient.del(`sess:${id}`);\n}',
        'async function remember(id, data) {\n  this.cache.set(id, data);\n}',
      ],
    },
  },
  {
    id: 'js.unawaited-orm-write',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'important',
    message:
      'This ORM write (a TypeORM repository or Prisma call) returns a promise that is dropped inside an async function: the function resolves before the row is written and a failure becomes an unhandled rejection. Await (or return) it.',
    rule: {
      kind: 'expression_statement',
      has: {
        kind: 'call_expression',
        any: [
          // Prisma: `prisma.user.update(...)`, `this.prisma.order.create(...)`.
          {
            all: [
              calleeProperty(
                '^(create|createMany|update|updateMany|upsert|delete|deleteMany)$',
                '^(this\\.)?(prisma|db|tx)\\.[a-z]\\w*$',
              ),
              {
                inside: {
                  kind: 'program',
                  stopBy: 'end',
                  // The client, or a module of the project that exports it: `import { prisma } from '@/lib/prisma'`.
                  regex: '(@prisma/client|PrismaClient|PrismaService|from\\s+[\'"][^\'"]*\\bprisma[\'"])',
                },
              },
            ],
          },
          // TypeORM: a repository field of the class (`@InjectRepository(...) private readonly users: Repository<User>`).
          {
            all: [
              calleeProperty(
                '^(save|insert|update|delete|remove|softDelete|softRemove|restore|increment|decrement|upsert)$',
              ),
              { has: { field: 'function', has: { field: 'object', pattern: 'this.$REPO' } } },
              {
                inside: {
                  kind: 'program',
                  stopBy: 'end',
                  has: {
                    stopBy: 'end',
                    regex:
                      '^(@\\w+\\([^)]*\\)\\s*)?((private|public|protected|readonly)\\s+)*\\w+[?!]?\\s*:\\s*Repository<',
                    has: { pattern: '$REPO' },
                  },
                },
              },
            ],
          },
        ],
      },
      inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION },
    },
    examples: {
      invalid: [
        'class S {\n  constructor(@InjectRepository(N) private readonly notifications: Repository<N>) {}\n  async markRead(id: string) {\n    this.notifications.update({ id }, { readAt: new Date() });\n  }\n}',
        "import { PrismaClient } from '@prisma/client';\nasync function touch(id) {\n  prisma.session.update({ where: { id }, data: { seenAt: new Date() } });\n}",
        "import { prisma } from '@/lib/prisma';\nasync function handler(req, res) {\n  const s = await prisma.settings.update({ where: { id: req.body.id }, data: req.body });\n  prisma.auditEvent.create({ data: { action: 'settings.update' } });\n  res.json(s);\n}",
      ],
      valid: [
        'class S {\n  constructor(@InjectRepository(N) private readonly notifications: Repository<N>) {}\n  async markRead(id: string) {\n    await this.notifications.update({ id }, { readAt: new Date() });\n  }\n}',
        'class Cache {\n  private readonly entries = new Map<string, Repository<X>>();\n  async clear() {\n    this.entries.delete(key);\n  }\n}',
        "import { PrismaClient } from '@prisma/client';\nfunction touch(id) {\n  return prisma.session.update({ where: { id }, data: { seenAt: new Date() } });\n}",
      ],
    },
  },
  {
    id: 'js.unawaited-side-effect',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'important',
    message:
      'This call starts asynchronous work (an email, an event, an audit record, a cache invalidation) whose promise is dropped inside an async function that awaits its other calls: the function goes on (and may respond) before it is done, and a failure becomes an unhandled rejection instead of an error. Await it, or hand it to a queue with a rejection handler.',
    rule: {
      kind: 'expression_statement',
      has: {
        kind: 'call_expression',
        any: [
          // `sendWelcomeEmail(user)`, `notifyOwner(team)`, `enqueueExport(job)`.
          calleeName(
            '^(send|publish|notify|enqueue|deliver|dispatch|email|invalidate|revoke|charge|refund|upload|sync|audit|track)[A-Z]\\w*$',
          ),
          // `this.events.publish(...)`, `pubsub.publish(...)`, `mailer.sendMail(...)`, `this.mailService.sendReset(...)`.
          calleeProperty('^(publish|publishEvent|sendMail|sendEmail|enqueue)$'),
          calleeProperty('^send\\w*$', '(?i)(mail|email|sms|notif|push|sns|sqs|producer|webhook)\\w*$'),
          // `auditLog.record(...)`, `this.audit.log(...)`, `auditService.create(...)`.
          calleeProperty('^(record|log|write|create|add|track|append)$', '(?i)(^|\\.)audit\\w*$'),
          // `cache.del(key)`, `this.cache.invalidate(key)` (a Map would use `delete`).
          calleeProperty('^(del|invalidate\\w*|evict|purge|expire|unlink|flush\\w*)$', '(?i)cache\\w*$'),
          // `queue.add(job)` (BullMQ), `this.emailQueue.add(...)`.
          calleeProperty('^(add|addBulk)$', '(?i)queue$'),
        ],
      },
      all: [
        // The nearest function is async and awaits something: its calls are expected to be awaited.
        { inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION } },
        { inside: { ...FUNCTION, has: { kind: 'await_expression', stopBy: 'end' }, stopBy: FUNCTION } },
      ],
    },
    examples: {
      invalid: [
        'async function signup(req, res) {\n  const user = await User.create(req.body);\n  sendWelcomeEmail(user);\n  res.status(201).end();\n}',
        "class Orders {\n  async place(input) {\n    const order = await this.repo.create(input);\n    this.events.publish('order.placed', { id: order.id });\n    return order;\n  }\n}",
        "async function cancel(order, actor) {\n  await order.save();\n  auditLog.record({ action: 'cancel', actorId: actor.id });\n}",
        'async function updatePrice(product) {\n  await product.save();\n  cache.del(`product:${product.id}`);\n}',
      ],
      valid: [
        'async function signup(req, res) {\n  const user = await User.create(req.body);\n  await sendWelcomeEmail(user);\n  res.status(201).end();\n}',
        'function signup(user) {\n  sendWelcomeEmail(user);\n}',
        "async function cancel(order) {\n  await order.save();\n  logger.info({ id: order.id }, 'cancelled');\n  res.send('ok');\n}",
        'async function updatePrice(product) {\n  await product.save();\n  void cache.del(`product:${product.id}`).catch(logError);\n  localCache.delete(product.id);\n}',
        "async function place(input) {\n  const order = await repo.create(input);\n  emitter.emit('placed', order);\n  return order;\n}",
      ],
    },
  },
  {
    id: 'js.swallowed-promise-all',
    languages: LANGUAGES,
    type: 'bug',
    severity: 'warning',
    message:
      'Awaiting Promise.all(...).catch(() => {}) throws away every failure of the batch: the caller believes all of it succeeded. Log or rethrow the error, or use Promise.allSettled and report the rejected ones.',
    rule: {
      kind: 'call_expression',
      all: [
        calleeProperty('^catch$'),
        {
          has: {
            field: 'function',
            has: { field: 'object', kind: 'call_expression', regex: '^Promise\\.(all|any|race)\\(' },
          },
        },
        firstArgument({
          any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
          has: { field: 'body', regex: '^(\\{\\s*\\}|undefined)$' },
        }),
        { inside: { kind: 'await_expression' } },
      ],
    },
    examples: {
      invalid: [
        'async function warm(keys, cache) {\n  await Promise.all(keys.map((key) => cache.load(key))).catch(() => {});\n}',
        'const users = await Promise.all(ids.map(load)).catch(function () {});',
      ],
      valid: [
        "await Promise.all(keys.map((key) => cache.load(key))).catch((err) => log.warn({ err }, 'warm-up failed'));",
        'await fs.rm(tmp).catch(() => {});',
        'void Promise.all(tasks).catch(() => {});',
        'const results = await Promise.allSettled(keys.map((key) => cache.load(key)));',
      ],
    },
  },

  // ---------------------------------------------------------------- performance
  {
    id: 'js.await-in-loop',
    languages: LANGUAGES,
    type: 'performance',
    severity: 'warning',
    message:
      'Awaiting a call per item inside a for-of loop runs the queries or requests one after another (N+1): when they are independent, start them together with Promise.all or fetch them in one batch.',
    rule: {
      kind: 'await_expression',
      all: [
        // The nearest loop is a for-of/for-in over a collection, and its body is not a search that
        // stops early (return/break make the order matter).
        {
          inside: {
            kind: 'for_in_statement',
            field: 'body',
            stopBy: LOOP_OR_FUNCTION,
            has: { field: 'left', pattern: '$ITEM' },
            not: {
              has: {
                field: 'body',
                any: [{ kind: 'return_statement' }, { kind: 'break_statement' }],
                stopBy: 'end',
              },
            },
          },
        },
        // The awaited call takes the loop's item (a lookup per item), outside a transaction
        // (whose statements must run in order on one connection) and is not a deliberate pause.
        {
          has: {
            any: [
              ITEM_CALL,
              // With a fallback: `await fetch(dep.url).catch((err) => ({ ok: false, err }))`.
              {
                kind: 'call_expression',
                ...calleeProperty('^(catch|then|finally)$'),
                all: [{ has: { field: 'function', has: { field: 'object', ...ITEM_CALL } } }],
              },
            ],
          },
        },
      ],
    },
    examples: {
      invalid: [
        'async function load(ids) {\n  for (const id of ids) {\n    users.push(await db.findUser(id));\n  }\n}',
        'async function send(list) {\n  for (const message of list) {\n    await mailer.send(message.to, message.body);\n  }\n}',
        'async function markStale(ids) {\n  for (const id of ids) {\n    await prisma.document.update({ where: { id }, data: { stale: true } });\n  }\n}',
        'async function check(deps) {\n  for (const dep of deps) {\n    const res = await fetch(dep.url).catch((err) => ({ ok: false, err }));\n    out[dep.name] = res.ok;\n  }\n}',
      ],
      valid: [
        'async function load(ids) {\n  return Promise.all(ids.map((id) => db.findUser(id)));\n}',
        'async function poll(delays) {\n  for (const ms of delays) {\n    await sleep(ms);\n  }\n}',
        'async function load() {\n  for (const x of await list()) use(x);\n}',
        'async function f(ids) {\n  for (const id of ids) {\n    queue.push(async () => await work(id));\n  }\n}',
        'async function first(names) {\n  for (const name of names) {\n    if (await exists(name)) return name;\n  }\n}',
        'async function save(trx, rows) {\n  for (const row of rows) await insert(trx, row);\n}',
        'async function start(workers) {\n  for (const worker of workers) await worker.start();\n}',
        "async function sync(names) {\n  for (const name of names) {\n    await octokit.issues.createLabel({ owner, repo, name, color: 'ededed' });\n  }\n}",
      ],
    },
  },
  {
    id: 'js.sync-io-in-handler',
    languages: LANGUAGES,
    type: 'performance',
    severity: 'warning',
    message:
      'Synchronous file I/O inside a request handler blocks the event loop, so every other request waits: use the fs.promises version and await it.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeProperty('^[a-z][A-Za-z]*Sync$', '^(fs|require\\(.fs.\\))$'),
            calleeName(
              '^(readFileSync|writeFileSync|appendFileSync|readdirSync|statSync|existsSync|mkdirSync|unlinkSync|copyFileSync)$',
            ),
          ],
        },
        {
          inside: {
            ...FUNCTION,
            stopBy: FUNCTION,
            any: [
              // Express/Fastify/Next API routes: `(req, res)`, `handler(_req: NextApiRequest, res: NextApiResponse)`.
              { has: { field: 'parameters', regex: '^\\(\\s*_?(req|request)\\b[^,]*,\\s*_?(res|reply|response)\\b' } },
              // Koa routes: `router.get('/backups', async (ctx) => ...)`.
              {
                has: { field: 'parameters', regex: '^\\(\\s*ctx\\b' },
                inside: {
                  kind: 'arguments',
                  inside: {
                    kind: 'call_expression',
                    ...calleeProperty('^(get|post|put|patch|delete|del|all|use|head)$'),
                  },
                },
              },
              // Next.js route handlers: `export async function GET(request: NextRequest)`.
              {
                kind: 'function_declaration',
                has: { field: 'name', regex: '^(GET|POST|PUT|PATCH|DELETE|HEAD)$' },
                inside: { kind: 'export_statement' },
              },
            ],
          },
        },
      ],
    },
    examples: {
      invalid: [
        "app.get('/report', (req, res) => {\n  const data = fs.readFileSync(reportPath, 'utf8');\n  res.send(data);\n});",
        'function handler(req, res, next) {\n  if (fs.existsSync(cache)) return res.sendFile(cache);\n  next();\n}',
        "router.get('/admin/backups', async (ctx) => {\n  ctx.body = fs.readdirSync(BACKUP_DIR);\n});",
        "export default function handler(_req, res) {\n  const files = readdirSync(join(process.cwd(), 'content'));\n  res.status(200).json({ files });\n}",
        "export async function GET(request) {\n  const text = fs.readFileSync(FILE, 'utf8');\n  return new Response(text);\n}",
      ],
      valid: [
        "app.get('/report', async (req, res) => {\n  const data = await fs.promises.readFile(reportPath, 'utf8');\n  res.send(data);\n});",
        "const template = fs.readFileSync(templatePath, 'utf8');",
        "router.get('/admin/backups', async (ctx) => {\n  ctx.body = await fs.promises.readdir(BACKUP_DIR);\n});",
        'function draw(ctx) {\n  const img = fs.readFileSync(ICON);\n  ctx.drawImage(img, 0, 0);\n}',
        "export function loadConfig() {\n  return JSON.parse(fs.readFileSync(CONFIG, 'utf8'));\n}",
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        "let html = '';\nfor (const row of rows) {\n  html += `<tr><td>${row.name}</td></tr>`;\n}",
        "let csv = '';\nfor (let i = 0; i < n; i++) csv += values[i] + ',';",
        "let out = '';\nwhile (node) {\n  out += node.name + '\\n';\n  node = node.next;\n}",
      ],
      valid: [
        "const html = rows.map((row) => `<tr><td>${row.name}</td></tr>`).join('');",
        'let total = 0;\nfor (const row of rows) {\n  total += row.price;\n}',
        "let out = '';\nfor (const span of spans) {\n  out += `${text.slice(span.start, span.end)}…`;\n}",
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        "for (const line of lines) {\n  if (new RegExp('^\\\\s*#').test(line)) skip++;\n}",
        "while (i < n) {\n  const re = new RegExp('[a-z]+', 'g');\n  i++;\n}",
      ],
      valid: [
        "const comment = new RegExp('^\\\\s*#');\nfor (const line of lines) {\n  if (comment.test(line)) skip++;\n}",
        'for (const word of words) {\n  const re = new RegExp(word, "i");\n  hits += re.test(text) ? 1 : 0;\n}',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        "function errorsFor(service, lines) {\n  for (const line of lines) {\n    const re = new RegExp(`^\\\\[${service}\\\\]`, 'i');\n    if (re.test(line)) out.push(line);\n  }\n}",
        'function count(word, docs) {\n  let n = 0;\n  for (let i = 0; i < docs.length; i++) {\n    if (new RegExp(word).test(docs[i])) n++;\n  }\n  return n;\n}',
      ],
      valid: [
        "function errorsFor(service, lines) {\n  const re = new RegExp(`^\\\\[${service}\\\\]`, 'i');\n  for (const line of lines) {\n    if (re.test(line)) out.push(line);\n  }\n}",
        'function find(words, text) {\n  for (const word of words) {\n    if (new RegExp(word).test(text)) return word;\n  }\n}',
        'function find(prefix, words) {\n  for (const word of words) {\n    if (new RegExp(`${prefix}${word}`).test(text)) return word;\n  }\n}',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        "function highlight(lines, term) {\n  return lines.map((line) => line.replace(new RegExp(escapeRegExp(term), 'gi'), mark));\n}",
        'function errorsFor(opts, lines) {\n  const service = opts.service;\n  for (const line of lines) {\n    if (new RegExp(`^\\\\[${service}\\\\]`).test(line)) out.push(line);\n  }\n}',
      ],
      valid: [
        "function highlight(lines, term) {\n  const re = new RegExp(escapeRegExp(term), 'gi');\n  return lines.map((line) => line.replace(re, mark));\n}",
        'function find(words, text) {\n  for (const word of words) {\n    if (new RegExp(word).test(text)) return word;\n  }\n}',
        'rows.forEach((row) => {\n  const re = new RegExp(`${row.key}=`);\n  use(re);\n});',
        'for (let i = 0; i < n; i++) {\n  const re = new RegExp(`item-${i}`);\n  use(re);\n}',
        "for (const line of lines) {\n  if (new RegExp('^\\\\s*#').test(line)) skip++;\n}",
        'for (const p of patterns) {\n  const { source } = p;\n  use(new RegExp(source));\n}',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        "return lines.map((line) => {\n  for (const term of terms) {\n    const pattern = new RegExp(`\\\\b${term}\\\\b`, 'gi');\n    line = line.replace(pattern, mark);\n  }\n  return line;\n});",
        "for (const file of files) {\n  for (const word of banned) {\n    if (new RegExp(escapeRegExp(word), 'i').test(file.text)) hits++;\n  }\n}",
      ],
      valid: [
        "const patterns = terms.map((term) => new RegExp(`\\\\b${term}\\\\b`, 'gi'));\nreturn lines.map((line) => patterns.reduce((out, p) => out.replace(p, mark), line));",
        'for (const word of words) {\n  const re = new RegExp(word, "i");\n  hits += re.test(text) ? 1 : 0;\n}',
        'for (const doc of docs) {\n  for (const term of doc.terms) {\n    if (new RegExp(term).test(doc.text)) hits++;\n  }\n}',
        'rows.forEach((row) => {\n  for (const key of keys) {\n    const re = new RegExp(`${key}=${row.id}`);\n    use(re);\n  }\n});',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        "for (const line of lines) {\n  const settings = JSON.parse(localStorage.getItem('eventSettings'));\n  if (settings.ignored.includes(line)) continue;\n}",
        "while (queue.length) {\n  const config = JSON.parse(fs.readFileSync('config.json', 'utf8'));\n  run(queue.pop(), config);\n}",
        'for (let i = 0; i < n; i++) {\n  const flags = JSON.parse(process.env.FEATURE_FLAGS);\n  use(flags, i);\n}',
        'return accounts.map((account) => {\n  const defaults = JSON.parse(DEFAULTS_JSON);\n  return { ...defaults, ...account.settings };\n});',
        "for (const user of users) {\n  const flags = JSON.parse(process.env.FEATURE_FLAGS ?? '{}');\n  use(flags, user);\n}",
      ],
      valid: [
        "const settings = JSON.parse(localStorage.getItem('eventSettings'));\nfor (const line of lines) {\n  if (settings.ignored.includes(line)) continue;\n}",
        'for (const line of lines) {\n  const event = JSON.parse(line);\n  count(event);\n}',
        'for (const key of keys) {\n  out.push(JSON.parse(localStorage.getItem(key)));\n}',
        "for (const file of files) {\n  out.push(JSON.parse(fs.readFileSync(file, 'utf8')));\n}",
        'const defaults = JSON.parse(DEFAULTS_JSON);\nreturn accounts.map((account) => ({ ...defaults, ...account.settings }));',
        'return rows.map((row) => JSON.parse(row.payload));',
        "for (const user of users) {\n  const prefs = JSON.parse(user.prefs ?? '{}');\n  use(prefs);\n}",
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'function applyOverrides(records, rawOverrides) {\n  const out = [];\n  for (const record of records) {\n    const overrides = JSON.parse(rawOverrides);\n    out.push({ ...record, ...overrides });\n  }\n  return out;\n}',
        'function applyDiscounts(lines, settings) {\n  return lines.map((line) => {\n    const rules = JSON.parse(settings.discountRulesJson);\n    return price(line, rules);\n  });\n}',
        "async function tag(rows) {\n  const raw = await redis.get('tag-rules');\n  for (const row of rows) {\n    row.tags = match(row, JSON.parse(raw));\n  }\n}",
      ],
      valid: [
        'function applyDiscounts(lines, settings) {\n  const rules = JSON.parse(settings.discountRulesJson);\n  return lines.map((line) => price(line, rules));\n}',
        'function decode(rows) {\n  return rows.map((row) => JSON.parse(row.payload));\n}',
        'function decode(lines) {\n  const out = [];\n  for (const line of lines) out.push(JSON.parse(line));\n  return out;\n}',
        'function decode(batch) {\n  return batch.items.map((item) => JSON.parse(item));\n}',
        'for (const msg of messages) {\n  const { body } = msg;\n  handle(JSON.parse(body));\n}',
        'let raw = first();\nwhile (raw) {\n  use(JSON.parse(raw));\n  raw = next();\n}',
        'items.forEach(({ meta }) => use(JSON.parse(meta)));',
        'function f(items) {\n  return items.map((item) => {\n    for (const part of item.parts) use(JSON.parse(part));\n  });\n}',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'for (const user of users) {\n  const copy = JSON.parse(JSON.stringify(template));\n  out.push({ ...copy, user });\n}',
        'while (queue.length) {\n  states.push(JSON.parse(JSON.stringify(state)));\n  queue.pop();\n}',
      ],
      valid: [
        'const copy = JSON.parse(JSON.stringify(template));',
        'for (const line of lines) {\n  out.push(JSON.parse(line));\n}',
      ],
    },
  },

  // ---------------------------------------------------------------- style
  {
    id: 'js.console-log',
    languages: LANGUAGES,
    type: 'style',
    severity: 'info',
    message:
      'Debug output left in the code: remove it, or use the application logger so it has a level and can be turned off.',
    rule: {
      kind: 'call_expression',
      ...calleeProperty('^(log|debug|trace|dir|table)$', '^console$'),
      not: {
        any: [
          // A file starting with `#!/usr/bin/env node` is a command-line script: printing is its job.
          { inside: { kind: 'program', has: { kind: 'hash_bang_line' }, stopBy: 'end' } },
          // So is top-level output in a file that exports nothing (`node scripts/report.mjs`).
          {
            not: { inside: { ...FUNCTION, stopBy: 'end' } },
            inside: {
              kind: 'program',
              stopBy: 'end',
              not: { regex: '(^|\\n)\\s*export\\s|module\\.exports|exports\\.\\w+\\s*=' },
            },
          },
        ],
      },
    },
    examples: {
      invalid: [
        "function load(user) {\n  console.log('user', user);\n}",
        'const handle = (payload) => {\n  console.debug(payload);\n};',
        "export function checkout(order) {\n  console.log('checkout order', order);\n  return submit(order);\n}",
        "const total = sum(items);\nconsole.log('total', total);\nmodule.exports = { total };",
      ],
      valid: [
        "logger.info({ user }, 'user loaded');",
        "console.error('fatal:', err.message);",
        '#!/usr/bin/env node\nconst [, , file] = process.argv;\nconsole.log(`${file}: done`);',
        "const out = execFileSync('git', ['branch']);\nfor (const line of out.toString().split('\\n')) {\n  if (line.startsWith('old-')) console.log(line);\n}",
      ],
    },
  },
  {
    id: 'js.debugger',
    languages: LANGUAGES,
    type: 'style',
    severity: 'warning',
    message: 'A `debugger` statement left in the code pauses execution whenever dev tools are open: remove it.',
    rule: { kind: 'debugger_statement' },
    examples: {
      invalid: ['function f(x) {\n  debugger;\n  return x;\n}', 'if (bad) debugger;'],
      valid: ['function f(x) {\n  return x;\n}', "const debuggerEnabled = env.DEBUG === '1';"],
    },
  },
  {
    id: 'js.commented-out-code',
    languages: LANGUAGES,
    type: 'style',
    severity: 'info',
    message:
      'Commented-out code: version control already keeps the old code, so delete it (or explain in words why it matters).',
    // Code right after `// ` (usage examples in prose are indented further), reported once per
    // commented block: on its first line, unless the comment before introduces it (`...:`).
    rule: {
      kind: 'comment',
      regex: '^// ?[^\\s]',
      ...CODE_COMMENT,
      not: { follows: { kind: 'comment', any: [...CODE_COMMENT.any, { regex: ':\\s*$' }] } },
    },
    examples: {
      invalid: [
        '// const total = items.reduce((a, b) => a + b, 0);\nconst total = sum(items);',
        'function f(result) {\n  // console.log(result);\n  return result;\n}',
        '// if (user.admin) {\n//   grant(user);\n// }\nreview(user);',
        "class C {\n  @Delete(':id')\n  // @UseGuards(AdminGuard)\n  remove(id) {}\n}",
        '// client.interceptors.response.use(undefined, async (error) => {\n//   return retry(error);\n// });\nreturn client;',
      ],
      valid: [
        '// Returns the total; callers round it.\nconst total = sum(items);',
        '// eslint-disable-next-line no-console\nconsole.error(err);',
        '// see https://example.com/docs (section 2)\nrun();',
        '/** Example: `const x = f();` */\nconst x = f();',
        '// Usage:\n//\n//   const repo = await makeRepo();\n//   const io = captureIo();\nrun();',
        '// Call it once at start:\n// init(config);\ninit(config);',
        '// @ts-expect-error the typings lag behind\nconst x = f();',
        '// @see Intl.NumberFormat\nconst y = g();',
      ],
    },
  },
];
