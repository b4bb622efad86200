// biome-ignore-all lint/suspicious/noTemplateCurlyInString: rule examples hold MyBatis `${...}` and Spring `${...}` text in strings
import type { Rule } from '../rule-schema.js';

/**
 * Java rules, written with node kinds and fields (method_invocation: object, name, arguments) so
 * they match statements without a surrounding class in the pattern. Precision first: a query
 * is flagged when it is concatenated or formatted in the call itself, not when a variable of
 * unknown origin is passed.
 */

/** An example inside a method, as it appears in a diff. */
const method = (body: string): string =>
  `class Service {\n  void handle() throws Exception {\n    ${body.replace(/\n/g, '\n    ')}\n  }\n}`;

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
const builtString = { any: [concatenation, stringFormat] };

/** The first argument of the call or constructor matches `rule`. */
const firstArgument = (rule: Record<string, unknown>): Record<string, unknown> => ({
  has: { field: 'arguments', has: { nthChild: 1, ...rule } },
});

/**
 * A local declared in the same method from SQL built by concatenation or formatting:
 * `String sql = "SELECT ... '" + name + "'";` then `stmt.executeQuery(sql)`.
 */
const declaredSql = {
  kind: 'identifier',
  pattern: '$SQL',
  inside: {
    stopBy: 'end',
    any: [{ kind: 'method_declaration' }, { kind: 'constructor_declaration' }, { kind: 'lambda_expression' }],
    has: {
      stopBy: 'end',
      kind: 'variable_declarator',
      all: [
        { has: { field: 'name', pattern: '$SQL' } },
        {
          has: {
            field: 'value',
            all: [
              builtString,
              { regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b' },
              // `"... ORDER BY " + column` with the column from an allow-list (`SORT_COLUMNS.get(...)`).
              { not: { regex: '\\+\\s*[A-Z][A-Z0-9_]*\\.(get|getOrDefault)\\(' } },
            ],
          },
        },
      ],
    },
  },
};

/** `$X.length` or `$X.size()`. */
const JAVA_LENGTH = {
  any: [
    {
      kind: 'field_access',
      all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'field', regex: '^length$' } }],
    },
    {
      kind: 'method_invocation',
      all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'name', regex: '^size$' } }],
    },
  ],
};

/**
 * `sql.toString()` of a StringBuilder started with SQL text, to which the method appends values
 * between quotes: `sql.append(" AND name = '").append(value).append("'")`.
 */
const builderSql = {
  kind: 'method_invocation',
  regex: '^\\w+\\.toString\\(\\)$',
  has: { field: 'object', kind: 'identifier', pattern: '$SB' },
  inside: {
    stopBy: 'end',
    all: [
      { any: [{ kind: 'method_declaration' }, { kind: 'constructor_declaration' }] },
      {
        has: {
          stopBy: 'end',
          kind: 'variable_declarator',
          all: [
            { has: { field: 'name', pattern: '$SB' } },
            {
              has: {
                field: 'value',
                kind: 'object_creation_expression',
                regex:
                  '(?i)^new\\s+(StringBuilder|StringBuffer)\\(\\s*"\\s*(select\\s.+\\sfrom|update\\s.+\\sset|delete\\s+from|insert\\s+into)\\b',
              },
            },
          ],
        },
      },
      {
        has: {
          stopBy: 'end',
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^append$' } },
            {
              has: {
                field: 'arguments',
                has: {
                  nthChild: 1,
                  any: [{ kind: 'identifier' }, { kind: 'method_invocation' }, { kind: 'field_access' }],
                },
              },
            },
            { has: { stopBy: 'end', kind: 'identifier', pattern: '$SB' } },
          ],
        },
      },
      { has: { stopBy: 'end', kind: 'string_literal', regex: '\'"$' } },
    ],
  },
};

/** A comment in an empty block that only says it is empty, without a reason. */
const PLACEHOLDER_COMMENT =
  '(?i)^//\\s*(ignored?|ignoring|ignore (it|this|exception|errors?)|nothing|do nothing|no-?op|empty|swallow(ed)?|todo\\b.*|fixme\\b.*)?[.!]?\\s*$';

const SECRET_NAME = '(?i)(token|password|passwd|secret|nonce|salt|otp|apikey|sessionid|csrf)$';
/** A variable holding a one-time code, PIN or secret. */
const CODE_NAME = '(?i)(otp|code|pin|token|password|passwd|secret|nonce|salt|apikey|sessionid|csrf)$';

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

/** `dto.getCallbackUrl()`: a URL-like getter on `$DTO`. */
const URL_GETTER = {
  all: [
    { has: { field: 'object', kind: 'identifier', pattern: '$DTO' } },
    { has: { field: 'name', regex: '(?i)^get\\w*(url|uri|endpoint|callback|webhook|host)$' } },
    { has: { field: 'arguments', not: { has: { kind: 'identifier' } } } },
  ],
};

/** `$meta` is a parameter of the enclosing method bound from the request (@RequestParam, @PathVariable, @RequestHeader). */
const requestParameter = (meta: string): Record<string, unknown> => ({
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
const declaredFrom = (meta: string, value: Record<string, unknown>): Record<string, unknown> => ({
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

/** `{"sh", "-c", "ping " + host}`: a shell with -c and a command that is not one literal. */
const SHELL_ARGUMENTS =
  '["\'](/bin/)?(sh|bash|cmd|cmd\\.exe)["\']\\s*,\\s*["\'](-c|/c)["\']\\s*,\\s*([^"\\s]|"[^"]*"\\s*\\+)';

/** An outgoing HTTP call whose first argument is the URL: RestTemplate, java.net.http, WebClient, Jsoup. */
const HTTP_CLIENT_CALL = {
  kind: 'method_invocation',
  any: [
    {
      all: [
        {
          has: {
            field: 'name',
            regex:
              '^(getForObject|getForEntity|postForObject|postForEntity|postForLocation|exchange|put|delete|patchForObject)$',
          },
        },
        { has: { field: 'object', regex: '(?i)resttemplate$|^(rest|restClient|template)$' } },
      ],
    },
    { regex: '^(URI\\.create|HttpRequest\\.newBuilder|Jsoup\\.connect)\\(' },
    // WebClient: `webClient.get().uri(url)`.
    { has: { field: 'name', regex: '^uri$' }, regex: '(?i)client\\b.*\\.(get|post|put|delete|patch|method)\\(' },
  ],
};
/** `new URL(...)`, `new URI(...)`. */
const URL_CONSTRUCTOR = {
  kind: 'object_creation_expression',
  has: { field: 'type', regex: '^(java\\.net\\.)?(URL|URI)$' },
};

/**
 * A URL the caller chose: a request parameter, or a string that starts with it or with a bare scheme
 * (`"https://" + host + "/status"`). `"https://api.internal/users/" + id` fixes the host: not SSRF.
 */
const USER_URL = {
  any: [
    requestParameter('$P'),
    {
      kind: 'binary_expression',
      has: { stopBy: 'end', ...requestParameter('$P') },
      any: [
        { regex: '^"[a-zA-Z]*:?/*"\\s*\\+' },
        { has: { field: 'left', ...requestParameter('$P') } },
        { has: { field: 'left', kind: 'binary_expression', has: { field: 'left', ...requestParameter('$P') } } },
      ],
    },
  ],
};

/** A file or path built from the name the client gave its upload. */
const CLIENT_PATH = {
  any: [
    { kind: 'object_creation_expression', has: { field: 'type', regex: '^File$' } },
    { kind: 'method_invocation', regex: '^(Paths\\.get|Path\\.of|[\\w.]+\\.resolve)\\(' },
  ],
  has: {
    field: 'arguments',
    has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.getOriginalFilename\\(\\)$' },
  },
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

/** A line comment that holds a Java statement. */
const CODE_COMMENT = [
  { regex: '^//\\s*(final\\s+)?[A-Z][\\w<>,\\[\\] ]*\\s+\\w+\\s*=.*;\\s*$' },
  { regex: '^//\\s*(return\\b.*|[\\w$.]+\\(.*\\)|[\\w$.\\[\\]]+\\s*=[^=].*|throw\\s+new\\s.+);\\s*$' },
  // `// if (cond) {` opening a block, or a whole `// if (cond) { ... }` on one line.
  { regex: '^//\\s*(if|for|while)\\s*\\(.*\\)\\s*\\{.*$' },
];

/** Handler methods of a Spring controller. */
const MAPPING = '@(Get|Post|Put|Delete|Patch|Request)Mapping\\b';

/** An X509TrustManager method checkServerTrusted with an empty body: it accepts every certificate. */
const emptyCheckServerTrusted = {
  kind: 'method_declaration',
  all: [
    { has: { field: 'name', regex: '^checkServerTrusted$' } },
    {
      has: {
        field: 'body',
        kind: 'block',
        not: {
          has: {
            any: [
              { kind: 'expression_statement' },
              { kind: 'throw_statement' },
              { kind: 'if_statement' },
              { kind: 'local_variable_declaration' },
              { kind: 'return_statement' },
              { kind: 'try_statement' },
              { kind: 'line_comment' },
              { kind: 'block_comment' },
            ],
          },
        },
      },
    },
  ],
};

/** A File or Path built from a Spring request parameter (@RequestParam, @PathVariable) in a method that never checks startsWith. */
const springRequestPath = {
  any: [
    { kind: 'method_invocation', regex: '^(Paths\\.get|Path\\.of)\\(' },
    { kind: 'object_creation_expression', has: { field: 'type', regex: '^(File|FileInputStream|FileReader)$' } },
  ],
  has: {
    field: 'arguments',
    has: {
      kind: 'identifier',
      pattern: '$P',
      inside: {
        stopBy: 'end',
        kind: 'method_declaration',
        all: [
          {
            has: {
              field: 'parameters',
              has: {
                kind: 'formal_parameter',
                all: [
                  { has: { kind: 'modifiers', regex: '@(RequestParam|PathVariable|RequestHeader)\\b' } },
                  { has: { field: 'name', pattern: '$P' } },
                ],
              },
            },
          },
          { not: { has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.startsWith\\(' } } },
        ],
      },
    },
  },
};

/** A file sink: java.nio Files, streams and resources opened on a path, MultipartFile.transferTo. */
const FILE_SINK = {
  any: [
    { kind: 'method_invocation', regex: '^Files\\.\\w+\\(' },
    { kind: 'method_invocation', has: { field: 'name', regex: '^transferTo$' } },
    {
      kind: 'object_creation_expression',
      has: {
        field: 'type',
        regex:
          '^(FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile|FileSystemResource|UrlResource|PrintWriter)$',
      },
    },
  ],
};

export const javaRules: Rule[] = [
  {
    id: 'java.sql-injection',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'SQL or JPQL query built by string concatenation or String.format: a value containing a quote changes the query (SQL injection). Use a PreparedStatement with ? placeholders, or named parameters with setParameter.',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            {
              has: {
                field: 'name',
                regex:
                  '^(executeQuery|execute|executeUpdate|executeLargeUpdate|addBatch|prepareStatement|prepareCall|createQuery|createNativeQuery|createSQLQuery|nativeQuery)$',
              },
            },
            firstArgument({ any: [builtString, declaredSql, builderSql] }),
          ],
        },
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'object', regex: '(?i)jdbc' } },
            {
              has: {
                field: 'name',
                regex:
                  '^(query|queryForObject|queryForList|queryForMap|queryForRowSet|queryForStream|update|batchUpdate|execute)$',
              },
            },
            firstArgument({ any: [builtString, declaredSql] }),
          ],
        },
      ],
      // `"... ORDER BY " + column` where `column = SORT_COLUMNS.getOrDefault(sort, "name")`: an allow-list.
      not: {
        has: {
          field: 'arguments',
          has: {
            nthChild: 1,
            kind: 'binary_expression',
            has: {
              field: 'right',
              kind: 'identifier',
              pattern: '$COLUMN',
              inside: {
                stopBy: 'end',
                kind: 'method_declaration',
                has: {
                  stopBy: 'end',
                  kind: 'variable_declarator',
                  all: [
                    { has: { field: 'name', pattern: '$COLUMN' } },
                    { has: { field: 'value', regex: '^[A-Z][A-Z0-9_]*\\.(get|getOrDefault)\\(' } },
                  ],
                },
              },
            },
          },
        },
      },
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        method('ResultSet rs = stmt.executeQuery("SELECT * FROM users WHERE name = \'" + name + "\'");'),
        method('em.createQuery("FROM Order o WHERE o.customer = \'" + customer + "\'").getResultList();'),
        method('jdbcTemplate.update(String.format("DELETE FROM items WHERE id = %s", id));'),
        method(
          'String sql = "SELECT name FROM items WHERE warehouse = \'" + warehouse + "\'";\ntry (Statement stmt = connection.createStatement(); ResultSet rs = stmt.executeQuery(sql)) {\n  rs.next();\n}',
        ),
        method(
          'String sql = String.format("SELECT * FROM orders WHERE customer_id = ? ORDER BY %s %s", sortField, direction);\nreturn jdbc.query(sql, mapper, customerId);',
        ),
        method(
          'StringBuilder sql = new StringBuilder("SELECT id FROM employees WHERE 1=1");\ncriteria.forEach((column, value) -> sql.append(" AND ").append(column).append(" = \'").append(value).append("\'"));\nreturn em.createNativeQuery(sql.toString()).getResultList();',
        ),
      ],
      valid: [
        method(
          'PreparedStatement ps = conn.prepareStatement("SELECT * FROM users WHERE name = ?");\nps.setString(1, name);',
        ),
        method('ResultSet rs = stmt.executeQuery("SELECT * FROM users " + "ORDER BY id");'),
        method(
          'String sql = "SELECT name FROM items WHERE warehouse = ?";\nPreparedStatement ps = connection.prepareStatement(sql);',
        ),
        method('em.createQuery("FROM Order o WHERE o.customer = :c").setParameter("c", customer);'),
        method(
          'String column = SORT_COLUMNS.getOrDefault(sort, "name");\nreturn jdbcTemplate.queryForList("SELECT id FROM products WHERE category = ? ORDER BY " + column, category);',
        ),
        method(
          'String jpql = "SELECT u FROM User u WHERE u.email LIKE :p" + (activeOnly ? " AND u.active = true" : "");\nreturn em.createQuery(jpql, User.class).setParameter("p", pattern).getResultList();',
        ),
        method(
          'StringBuilder sql = new StringBuilder("SELECT id FROM employees WHERE 1=1");\nif (dept != null) {\n  sql.append(" AND department = ?");\n  params.add(dept);\n}\nreturn jdbc.queryForList(sql.toString(), params.toArray());',
        ),
      ],
    },
  },
  {
    id: 'java.ssrf-http-client',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'The server calls a URL that the client supplied in the request body or parameters: a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts, or map an identifier to a known URL.',
    rule: {
      any: [HTTP_CLIENT_CALL, URL_CONSTRUCTOR],
      all: [
        firstArgument({
          any: [
            { kind: 'method_invocation', ...URL_GETTER },
            { has: { stopBy: 'end', kind: 'method_invocation', ...URL_GETTER } },
            // `String target = body.getCallbackUrl() + "?probe=1";` first.
            declaredFrom('$URL', {
              any: [
                { kind: 'method_invocation', ...URL_GETTER },
                { has: { stopBy: 'end', kind: 'method_invocation', ...URL_GETTER } },
              ],
            }),
          ],
        }),
        {
          inside: {
            stopBy: 'end',
            kind: 'method_declaration',
            has: {
              field: 'parameters',
              has: {
                kind: 'formal_parameter',
                all: [
                  { has: { field: 'name', pattern: '$DTO' } },
                  {
                    any: [
                      // A request DTO, or a webhook/integration record whose URL a user registered.
                      {
                        has: {
                          field: 'type',
                          regex: '(Request|Dto|DTO|Form|Command|Payload|Input|Registration|Subscription|Webhook|Hook)$',
                        },
                      },
                      { has: { kind: 'modifiers', regex: '@(RequestBody|RequestParam|ModelAttribute)\\b' } },
                    ],
                  },
                ],
              },
            },
          },
        },
      ],
    },
    cwe: 'CWE-918',
    examples: {
      invalid: [
        'class S {\n  String verify(RegistrationRequest registration) {\n    return restTemplate.getForObject(registration.getCallbackUrl() + "?c=" + registration.getChallenge(), String.class);\n  }\n}',
        'class S {\n  String ping(@RequestBody HookDto dto) {\n    return restTemplate.postForObject(dto.getWebhookUrl(), body, String.class);\n  }\n}',
        'class S {\n  String test(@RequestBody CallbackTest body) {\n    String target = body.getCallbackUrl() + "?probe=1";\n    return restTemplate.getForObject(target, String.class);\n  }\n}',
        'class S {\n  String importImage(long id, ImportRequest request) throws IOException {\n    try (InputStream in = new URL(request.getImageUrl()).openStream()) {\n      return blobs.put("p/" + id, in);\n    }\n  }\n}',
        'class S {\n  boolean verify(WebhookRegistration registration) throws IOException {\n    HttpURLConnection conn = (HttpURLConnection) new URL(registration.getTargetUrl()).openConnection();\n    return conn.getResponseCode() == 200;\n  }\n}',
      ],
      valid: [
        'class S {\n  String verify(RegistrationRequest registration) {\n    return restTemplate.getForObject(config.getCallbackUrl() + "?c=" + registration.getChallenge(), String.class);\n  }\n}',
        'class S {\n  String ping(@RequestBody HookDto dto) {\n    return restTemplate.postForObject(HOOK_URL, dto.getWebhookUrl(), String.class);\n  }\n}',
        'class S {\n  boolean verify(WebhookRegistration registration) throws IOException {\n    HttpURLConnection conn = (HttpURLConnection) new URL(settings.getTargetUrl()).openConnection();\n    return conn.getResponseCode() == 200;\n  }\n}',
      ],
    },
  },
  {
    id: 'java.unsafe-yaml-xml-deserialization',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'This parser builds arbitrary Java objects named in its input (SnakeYAML without SafeConstructor, XStream without an allow-list, XMLDecoder): untrusted input gets remote code execution. Use new Yaml(new SafeConstructor(new LoaderOptions())), set up XStream type permissions, or parse into plain data.',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^(load|loadAll|loadAs)$' } },
            { has: { field: 'object', kind: 'object_creation_expression', regex: '^new\\s+Yaml\\s*\\(\\s*\\)$' } },
          ],
        },
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^fromXML$' } },
            {
              not: {
                inside: {
                  stopBy: 'end',
                  kind: 'program',
                  has: {
                    stopBy: 'end',
                    kind: 'method_invocation',
                    regex: '\\.(allowTypes\\w*|addPermission|setupDefaultSecurity)\\(',
                  },
                },
              },
            },
          ],
        },
        // An XMLDecoder whose readObject() is not called in the same method (java.unsafe-deserialization
        // reports that call, the line where the objects are built).
        {
          kind: 'object_creation_expression',
          has: { field: 'type', regex: '^(java\\.beans\\.)?XMLDecoder$' },
          not: {
            inside: {
              stopBy: 'end',
              kind: 'method_declaration',
              has: { stopBy: 'end', kind: 'method_invocation', regex: '^\\w+\\.readObject\\(\\)' },
            },
          },
        },
      ],
    },
    cwe: 'CWE-502',
    cvss: 9.8,
    examples: {
      invalid: [
        method('Object parsed = new Yaml().load(body);'),
        method('Order o = (Order) xstream.fromXML(request.getInputStream());'),
        method('XMLDecoder d = new XMLDecoder(in);'),
      ],
      valid: [
        method('Object parsed = new Yaml(new SafeConstructor(new LoaderOptions())).load(body);'),
        method('try (XMLDecoder decoder = new XMLDecoder(in)) {\n  Object settings = decoder.readObject();\n}'),
        'class C {\n  void init() { xstream.allowTypes(new Class[] { Order.class }); }\n  Order read(String xml) { return (Order) xstream.fromXML(xml); }\n}',
      ],
    },
  },
  {
    id: 'java.expression-injection',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'A SpEL/OGNL/MVEL expression or a Velocity/FreeMarker template evaluated from a non-constant string: whoever writes that string can call any Java method (T(java.lang.Runtime).exec(...)), i.e. code injection. Evaluate only your own expressions, or use SimpleEvaluationContext.',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^(parseExpression|parseRaw)$' } },
            firstArgument({ not: { kind: 'string_literal' } }),
            {
              inside: { kind: 'method_invocation', regex: '\\.getValue\\(', stopBy: { kind: 'expression_statement' } },
            },
            { not: { inside: { stopBy: 'end', kind: 'method_declaration', regex: 'SimpleEvaluationContext' } } },
          ],
        },
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^evaluate$' } },
            {
              any: [
                { has: { field: 'object', regex: '(?i)velocity' } },
                // A VelocityEngine field named `engine`: the file imports Velocity.
                {
                  inside: {
                    stopBy: 'end',
                    kind: 'program',
                    has: { kind: 'import_declaration', regex: 'org\\.apache\\.velocity\\.' },
                  },
                },
              ],
            },
            { has: { field: 'arguments', has: { nthChild: 4, not: { kind: 'string_literal' } } } },
          ],
        },
        {
          kind: 'object_creation_expression',
          all: [
            { has: { field: 'type', regex: '^(freemarker\\.template\\.)?Template$' } },
            {
              has: {
                field: 'arguments',
                has: { nthChild: 2, kind: 'object_creation_expression', regex: '^new\\s+StringReader\\(\\s*[^"\\s]' },
              },
            },
          ],
        },
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^(eval|evaluate|parse)$' } },
            { has: { field: 'object', regex: '^(Ognl|MVEL|groovyShell|shell|GroovyShell)$' } },
            firstArgument({ not: { kind: 'string_literal' } }),
          ],
        },
      ],
    },
    cwe: 'CWE-917',
    examples: {
      invalid: [
        method('return Boolean.TRUE.equals(parser.parseExpression(condition).getValue(context, Boolean.class));'),
        method('Velocity.evaluate(context, writer, "notice", request.getTemplate());'),
        'import org.apache.velocity.app.VelocityEngine;\nclass R {\n  String render(CustomerTemplate t, VelocityContext ctx, StringWriter w) {\n    engine.evaluate(ctx, w, t.getName(), t.getBody());\n    return w.toString();\n  }\n}',
        method('Template t = new Template("n", new StringReader(body), cfg);'),
      ],
      valid: [
        method('Object v = parser.parseExpression("name.toUpperCase()").getValue(context);'),
        method('Velocity.evaluate(context, writer, "notice", "Hello $name");'),
        'import org.apache.velocity.app.VelocityEngine;\nclass R {\n  String render(VelocityContext ctx, StringWriter w) {\n    engine.evaluate(ctx, w, "welcome", "Hello $name");\n    return w.toString();\n  }\n}',
        method('Template t = cfg.getTemplate("notice.ftl");'),
      ],
    },
  },
  {
    id: 'java.hardcoded-db-password',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'The database password is a string literal in the source: everyone with the repository (and every build artifact) has it. Read it from the environment or a secret store.',
    rule: {
      kind: 'method_invocation',
      all: [
        { regex: '^DriverManager\\.getConnection\\(' },
        {
          has: {
            field: 'arguments',
            has: {
              nthChild: 3,
              kind: 'string_literal',
              regex: '^"[^"\\s]{4,}"$',
              not: { regex: '(?i)(changeme|example|password|placeholder|dummy|test|\\$\\{)' },
            },
          },
        },
      ],
    },
    cwe: 'CWE-798',
    examples: {
      invalid: [
        method('Connection c = DriverManager.getConnection(URL, "reporting", "Xk29!fqP0z");'),
        method('return DriverManager.getConnection("jdbc:postgresql://db/app", "app", "s3cr3t-Pa55");'),
      ],
      valid: [
        method('Connection c = DriverManager.getConnection(URL, "reporting", System.getenv("DB_PASSWORD"));'),
        method('Connection c = DriverManager.getConnection("jdbc:h2:mem:test", "sa", "");'),
      ],
    },
  },
  {
    id: 'java.insecure-random-code',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'java.util.Random / ThreadLocalRandom is predictable (its state can be recovered from a few outputs) and must not make one-time codes, tokens or passwords: use java.security.SecureRandom.',
    rule: {
      any: [
        { kind: 'object_creation_expression', has: { field: 'type', regex: '^(java\\.util\\.)?Random$' } },
        { kind: 'method_invocation', regex: '^ThreadLocalRandom\\.current\\(\\)$' },
        { kind: 'method_invocation', regex: '^(Math\\.random|RandomStringUtils\\.random\\w*)\\(' },
      ],
      inside: {
        stopBy: { any: [{ kind: 'method_declaration' }, { kind: 'class_body' }] },
        kind: 'variable_declarator',
        has: {
          field: 'name',
          regex: '(?i)(otp|code|pin|token|password|passwd|secret|nonce|salt|apikey|sessionid|csrf)$',
        },
      },
    },
    cwe: 'CWE-338',
    examples: {
      invalid: [
        method('String code = String.format("%06d", new Random().nextInt(1_000_000));'),
        method('int otp = ThreadLocalRandom.current().nextInt(100000, 1000000);'),
      ],
      valid: [
        method('String code = String.format("%06d", SECURE_RANDOM.nextInt(1_000_000));'),
        method('int delay = new Random().nextInt(500);'),
      ],
    },
  },
  {
    id: 'java.weak-cipher',
    languages: ['java'],
    type: 'security',
    severity: 'warning',
    message:
      'DES, 3DES, RC4 and ECB mode are broken or leak patterns of the plaintext: use AES/GCM/NoPadding with a random IV.',
    rule: {
      kind: 'method_invocation',
      all: [
        { regex: '^Cipher\\.getInstance\\(' },
        firstArgument({
          kind: 'string_literal',
          regex: '(?i)^"(des|desede|tripledes|rc4|arcfour|rc2|blowfish)(/|")|/ecb/',
        }),
      ],
    },
    cwe: 'CWE-327',
    examples: {
      invalid: [
        method('Cipher cipher = Cipher.getInstance("DES/ECB/PKCS5Padding");'),
        method('Cipher cipher = Cipher.getInstance("AES/ECB/PKCS5Padding");'),
      ],
      valid: [
        method('Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");'),
        method('Cipher cipher = Cipher.getInstance(transformation);'),
      ],
    },
  },
  {
    id: 'java.path-traversal-request',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'A file path is built from a servlet request parameter: "../" in the value reaches any file the process can read or overwrite (path traversal). Resolve it against the base directory, normalize() it and check startsWith(base), or keep only the file name.',
    rule: {
      any: [
        { kind: 'method_invocation', regex: '^(Paths\\.get|Path\\.of)\\(' },
        { kind: 'method_invocation', regex: '\\.resolve\\(' },
        {
          kind: 'object_creation_expression',
          has: { field: 'type', regex: '^(File|FileInputStream|FileReader|FileOutputStream|FileWriter)$' },
        },
      ],
      has: {
        field: 'arguments',
        has: {
          kind: 'method_invocation',
          regex: '^(req|request|httpRequest|servletRequest)\\.(getParameter|getHeader|getPathInfo)\\(',
        },
      },
      not: {
        inside: {
          stopBy: 'end',
          kind: 'method_declaration',
          has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.startsWith\\(' },
        },
      },
    },
    cwe: 'CWE-22',
    examples: {
      invalid: [
        method('Files.copy(Paths.get(UPLOAD_DIR, request.getParameter("name")), response.getOutputStream());'),
        method('File f = new File(BASE, req.getParameter("file"));'),
      ],
      valid: [
        method(
          'Path p = ROOT.resolve(request.getParameter("name")).normalize();\nif (!p.startsWith(ROOT)) throw new SecurityException();\nFiles.copy(p, out);',
        ),
        method('Files.copy(Paths.get(UPLOAD_DIR, "report.csv"), response.getOutputStream());'),
      ],
    },
  },
  {
    id: 'java.command-injection',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'A command line built from strings at run time and run through a shell or Runtime.exec: metacharacters or spaces in the value change the command (command injection). Pass a fixed program and separate arguments to ProcessBuilder, without "sh -c".',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'object', regex: '^Runtime\\.getRuntime\\(\\)$|(?i)runtime$' } },
            { has: { field: 'name', regex: '^exec$' } },
            firstArgument({
              any: [
                builtString,
                { kind: 'array_creation_expression', regex: SHELL_ARGUMENTS },
                // `String[] cmd = {"/bin/sh", "-c", "ping " + host};` or `String cmd = "ping " + host;` first.
                declaredFrom('$CMD', { any: [builtString, { kind: 'array_initializer', regex: SHELL_ARGUMENTS }] }),
              ],
            }),
          ],
        },
        {
          kind: 'object_creation_expression',
          all: [
            { has: { field: 'type', regex: '^ProcessBuilder$' } },
            {
              any: [
                firstArgument({
                  any: [
                    builtString,
                    { kind: 'method_invocation', regex: `^(List\\.of|Arrays\\.asList)\\(\\s*${SHELL_ARGUMENTS}` },
                    declaredFrom('$CMD', {
                      any: [
                        { kind: 'array_initializer', regex: SHELL_ARGUMENTS },
                        { kind: 'array_creation_expression', regex: SHELL_ARGUMENTS },
                        { kind: 'method_invocation', regex: `^(List\\.of|Arrays\\.asList)\\(\\s*${SHELL_ARGUMENTS}` },
                      ],
                    }),
                  ],
                }),
                {
                  has: {
                    field: 'arguments',
                    regex:
                      '^\\(\\s*"(/bin/)?(sh|bash|cmd|cmd\\.exe)"\\s*,\\s*"(-c|/c)"\\s*,\\s*([^"\\s]|"[^"]*"\\s*\\+)',
                  },
                },
              ],
            },
          ],
        },
      ],
    },
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        method('Runtime.getRuntime().exec("ping -c 1 " + host);'),
        method('Process p = new ProcessBuilder("sh", "-c", command).start();'),
        method('new ProcessBuilder("bash", "-c", "ffmpeg -i " + input).inheritIO().start().waitFor();'),
        method('Runtime.getRuntime().exec(new String[] {"sh", "-c", cmd});'),
        method(
          'String[] cmd = {"/bin/sh", "-c", "ping -c 2 " + host};\nProcess process = Runtime.getRuntime().exec(cmd);',
        ),
        method('Process p = new ProcessBuilder(List.of("bash", "-c", "tar xzf " + archive)).start();'),
      ],
      valid: [
        method('Process p = new ProcessBuilder("ping", "-c", "1", host).start();'),
        method('new ProcessBuilder("bash", "-c", "make clean").start();'),
        method('Runtime.getRuntime().exec(new String[] {"git", "clone", url});'),
        method('Runtime.getRuntime().exec("make clean");'),
        method('String[] cmd = {"ping", "-c", "2", host};\nProcess process = Runtime.getRuntime().exec(cmd);'),
      ],
    },
  },
  {
    id: 'java.unsafe-deserialization',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'ObjectInputStream.readObject (or XMLDecoder) on untrusted bytes lets the sender run code through gadget classes on the classpath (unsafe deserialization). Use a data format such as JSON, or set an ObjectInputFilter allow-list.',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^readObject$' } },
            {
              has: {
                field: 'object',
                kind: 'object_creation_expression',
                regex: '^new\\s+(ObjectInputStream|XMLDecoder)\\b',
              },
            },
          ],
        },
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^readObject$' } },
            { has: { field: 'object', kind: 'identifier', pattern: '$IN' } },
            {
              inside: {
                stopBy: 'end',
                kind: 'method_declaration',
                all: [
                  {
                    has: {
                      stopBy: 'end',
                      any: [{ kind: 'variable_declarator' }, { kind: 'resource' }],
                      all: [
                        { has: { field: 'name', pattern: '$IN' } },
                        {
                          has: {
                            field: 'value',
                            kind: 'object_creation_expression',
                            regex: '^new\\s+(ObjectInputStream|XMLDecoder)\\b',
                          },
                        },
                      ],
                    },
                  },
                  { not: { has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.setObjectInputFilter\\(' } } },
                ],
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
        method(
          'ObjectInputStream in = new ObjectInputStream(request.getInputStream());\nOrder order = (Order) in.readObject();',
        ),
        method('Object o = new ObjectInputStream(socket.getInputStream()).readObject();'),
        method(
          'try (XMLDecoder decoder = new XMLDecoder(req.getInputStream())) {\n  Object settings = decoder.readObject();\n}',
        ),
        'class Codec {\n  Object decode(byte[] b) throws Exception {\n    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {\n      return in.readObject();\n    }\n  }\n}',
      ],
      valid: [
        method(
          'ObjectInputStream in = new ObjectInputStream(stream);\nin.setObjectInputFilter(FILTER);\nOrder order = (Order) in.readObject();',
        ),
        'class Point implements Serializable {\n  private void readObject(ObjectInputStream in) throws Exception {\n    in.defaultReadObject();\n  }\n}',
        method('Order order = mapper.readValue(request.getInputStream(), Order.class);'),
      ],
    },
  },
  {
    id: 'java.weak-hash',
    languages: ['java'],
    type: 'security',
    severity: 'warning',
    message:
      'MD5 and SHA-1 are broken for security use (collisions are practical). Use SHA-256 or stronger, and a password hash (bcrypt, PBKDF2, Argon2) for passwords.',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'object', regex: '^(java\\.security\\.)?MessageDigest$' } },
            { has: { field: 'name', regex: '^getInstance$' } },
            firstArgument({ regex: '^"(?i)(md2|md4|md5|sha-?1|sha)"$' }),
          ],
        },
        { kind: 'method_invocation', regex: '^DigestUtils\\.(md5|md5Hex|sha1|sha1Hex|sha|shaHex)\\(' },
      ],
    },
    cwe: 'CWE-328',
    cvss: 5.3,
    examples: {
      invalid: [
        method('MessageDigest md = MessageDigest.getInstance("MD5");'),
        method('MessageDigest md = MessageDigest.getInstance("SHA-1");'),
        method('String h = DigestUtils.md5Hex(password);'),
      ],
      valid: [
        method('MessageDigest md = MessageDigest.getInstance("SHA-256");'),
        method('String h = DigestUtils.sha256Hex(data);'),
      ],
    },
  },
  {
    id: 'java.insecure-random',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'java.util.Random and Math.random are predictable: a token, password or key made with them can be guessed. Use java.security.SecureRandom.',
    rule: {
      any: [
        {
          any: [
            { kind: 'object_creation_expression', has: { field: 'type', regex: '^(java\\.util\\.)?Random$' } },
            { kind: 'method_invocation', regex: '^Math\\.random\\(' },
          ],
          inside: {
            stopBy: 'end',
            any: [
              { kind: 'method_declaration', has: { field: 'name', regex: SECRET_NAME } },
              { kind: 'variable_declarator', has: { field: 'name', regex: SECRET_NAME } },
              { kind: 'assignment_expression', has: { field: 'left', regex: SECRET_NAME } },
            ],
          },
        },
        {
          // A Random field that a method named like a secret (resetToken, newPassword) draws from.
          kind: 'object_creation_expression',
          has: { field: 'type', regex: '^(java\\.util\\.)?Random$' },
          inside: {
            kind: 'variable_declarator',
            all: [
              { has: { field: 'name', pattern: '$R' } },
              {
                inside: {
                  kind: 'field_declaration',
                  inside: {
                    kind: 'class_body',
                    any: [
                      {
                        has: {
                          kind: 'method_declaration',
                          all: [
                            { has: { field: 'name', regex: SECRET_NAME } },
                            {
                              has: {
                                stopBy: 'end',
                                kind: 'method_invocation',
                                has: { field: 'object', pattern: '$R' },
                              },
                            },
                          ],
                        },
                      },
                      // `String code = String.format("%06d", random.nextInt(1_000_000));` in any method.
                      {
                        has: {
                          stopBy: 'end',
                          kind: 'variable_declarator',
                          all: [
                            { has: { field: 'name', regex: CODE_NAME } },
                            {
                              has: {
                                field: 'value',
                                has: {
                                  stopBy: 'end',
                                  kind: 'method_invocation',
                                  all: [
                                    { has: { field: 'object', pattern: '$R' } },
                                    { has: { field: 'name', regex: '^next(Int|Long|Bytes|Double)$' } },
                                    // An index into a list of values is a random pick, not a secret.
                                    {
                                      not: {
                                        any: [
                                          {
                                            inside: {
                                              kind: 'argument_list',
                                              inside: {
                                                kind: 'method_invocation',
                                                has: { field: 'name', regex: '^get$' },
                                              },
                                            },
                                          },
                                          { inside: { kind: 'array_access', field: 'index' } },
                                        ],
                                      },
                                    },
                                  ],
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
        },
      ],
    },
    cwe: 'CWE-338',
    cvss: 7.5,
    examples: {
      invalid: [
        'class Tokens {\n  String generateToken() {\n    Random random = new Random();\n    return Long.toHexString(random.nextLong());\n  }\n}',
        method('String resetToken = Integer.toString(new Random().nextInt(1000000));'),
        method('long sessionId = (long) (Math.random() * Long.MAX_VALUE);'),
        'class TokenFactory {\n  private final Random random = new Random();\n  String resetToken() {\n    return Long.toHexString(random.nextLong());\n  }\n}',
        'class OneTimeCodes {\n  private final Random random = new Random();\n  String issue(String user) {\n    String code = String.format("%06d", random.nextInt(1_000_000));\n    return code;\n  }\n}',
      ],
      valid: [
        'class Tokens {\n  String generateToken() {\n    SecureRandom random = new SecureRandom();\n    return Long.toHexString(random.nextLong());\n  }\n}',
        method('int jitter = new Random().nextInt(100);'),
        'class Backoff {\n  private final Random random = new Random();\n  long delay() {\n    return random.nextInt(100);\n  }\n}',
        'class Sampler {\n  private final Random random = new Random();\n  String pick(List<String> codes) {\n    String code = codes.get(random.nextInt(codes.size()));\n    return code;\n  }\n}',
      ],
    },
  },
  {
    id: 'java.trust-all-certificates',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'An X509TrustManager whose checkServerTrusted does nothing accepts every certificate: anyone on the network path can impersonate the server. Use the default TrustManager, or load the private CA into a KeyStore.',
    rule: {
      any: [
        {
          ...emptyCheckServerTrusted,
          // Reported where the manager is installed, when that is in the same method (below).
          not: {
            any: [
              {
                inside: {
                  stopBy: 'end',
                  kind: 'argument_list',
                  inside: { kind: 'method_invocation', has: { field: 'name', regex: '^init$' } },
                },
              },
              {
                inside: {
                  stopBy: 'end',
                  kind: 'variable_declarator',
                  has: { field: 'name', pattern: '$TM' },
                  inside: {
                    stopBy: 'end',
                    kind: 'method_declaration',
                    has: {
                      stopBy: 'end',
                      kind: 'method_invocation',
                      all: [
                        { has: { field: 'name', regex: '^init$' } },
                        { has: { field: 'arguments', has: { nthChild: 2, pattern: '$TM' } } },
                      ],
                    },
                  },
                },
              },
            ],
          },
        },
        // `ssl.init(null, trustAll, null)` with a trust-all manager declared in the method or written inline.
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^init$' } },
            {
              has: {
                field: 'arguments',
                has: {
                  nthChild: 2,
                  any: [
                    { has: { stopBy: 'end', ...emptyCheckServerTrusted } },
                    declaredFrom('$TM', { has: { stopBy: 'end', ...emptyCheckServerTrusted } }),
                  ],
                },
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-295',
    cvss: 7.4,
    examples: {
      invalid: [
        'class TrustAll implements X509TrustManager {\n  public void checkServerTrusted(X509Certificate[] chain, String authType) {}\n}',
        'TrustManager[] managers = { new X509TrustManager() {\n  public void checkClientTrusted(X509Certificate[] c, String a) {}\n  public void checkServerTrusted(X509Certificate[] c, String a) { }\n  public X509Certificate[] getAcceptedIssuers() { return null; }\n} };',
        method(
          'TrustManager[] trustAll = {new X509TrustManager() {\n  public void checkClientTrusted(X509Certificate[] c, String a) {}\n  public void checkServerTrusted(X509Certificate[] c, String a) {}\n  public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }\n}};\nSSLContext ssl = SSLContext.getInstance("TLS");\nssl.init(null, trustAll, null);',
        ),
      ],
      valid: [
        'class Pinned implements X509TrustManager {\n  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {\n    delegate.checkServerTrusted(chain, authType);\n  }\n}',
        'class T implements X509TrustManager {\n  public void checkClientTrusted(X509Certificate[] chain, String authType) {}\n}',
        method(
          'SSLContext ssl = SSLContext.getInstance("TLS");\nssl.init(keyManagers, trustManagerFactory.getTrustManagers(), new SecureRandom());',
        ),
      ],
    },
  },
  {
    id: 'java.hostname-verification-disabled',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'A HostnameVerifier that always returns true accepts a certificate for any host: a valid certificate for another domain can impersonate the server. Remove it and keep the default verifier.',
    rule: {
      any: [
        {
          kind: 'method_declaration',
          all: [
            { has: { field: 'name', regex: '^verify$' } },
            { has: { field: 'parameters', regex: 'SSLSession' } },
            { has: { field: 'body', regex: '^\\{\\s*return\\s+true\\s*;\\s*\\}$' } },
          ],
        },
        {
          kind: 'lambda_expression',
          regex: '->\\s*true$',
          inside: {
            kind: 'argument_list',
            inside: {
              kind: 'method_invocation',
              has: { field: 'name', regex: '^(setHostnameVerifier|setDefaultHostnameVerifier|hostnameVerifier)$' },
            },
          },
        },
        { kind: 'object_creation_expression', has: { field: 'type', regex: '^NoopHostnameVerifier$' } },
        {
          kind: 'field_access',
          regex: '^(NoopHostnameVerifier\\.INSTANCE|SSLConnectionSocketFactory\\.ALLOW_ALL_HOSTNAME_VERIFIER)$',
        },
      ],
    },
    cwe: 'CWE-297',
    cvss: 7.4,
    examples: {
      invalid: [
        method('HttpsURLConnection.setDefaultHostnameVerifier((hostname, session) -> true);'),
        'class AllowAll implements HostnameVerifier {\n  public boolean verify(String hostname, SSLSession session) {\n    return true;\n  }\n}',
        method('builder.setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE);'),
      ],
      valid: [
        method('HttpsURLConnection.setDefaultHostnameVerifier((hostname, session) -> hostname.equals(EXPECTED));'),
        'class Pinned implements HostnameVerifier {\n  public boolean verify(String hostname, SSLSession session) {\n    return ALLOWED.contains(hostname);\n  }\n}',
      ],
    },
  },
  {
    id: 'java.empty-catch',
    languages: ['java'],
    type: 'bug',
    severity: 'warning',
    message:
      'An empty catch block swallows the exception: the failure disappears and the code goes on with bad state. Handle it, log it, or rethrow; name the variable `ignored` and comment why when ignoring is intended.',
    // Reported on the `catch (...)` line: the parameter, not the whole clause.
    rule: {
      kind: 'catch_formal_parameter',
      not: { has: { field: 'name', regex: '^(ignored?|expected|_)$' } },
      inside: {
        kind: 'catch_clause',
        has: {
          field: 'body',
          kind: 'block',
          any: [
            // Nothing but, at most, a comment that gives no reason (`// ignore`, `// TODO`).
            { not: { has: { regex: '^[^{}]', not: { kind: 'line_comment', regex: PLACEHOLDER_COMMENT } } } },
            // Only `e.printStackTrace();`: the failure goes to stderr and the code goes on.
            { regex: '^\\{\\s*\\w+\\.printStackTrace\\(\\s*\\)\\s*;\\s*\\}$' },
          ],
        },
      },
    },
    examples: {
      invalid: [
        method('try {\n  save(order);\n} catch (Exception e) {\n}'),
        method('try { conn.close(); } catch (SQLException e) {}'),
        method('try {\n  out.write(line);\n} catch (IOException e) {\n  // ignore\n}'),
        method('try {\n  mailer.send(report);\n} catch (IOException e) {\n  e.printStackTrace();\n}'),
      ],
      valid: [
        method('try {\n  save(order);\n} catch (Exception e) {\n  log.error("save failed", e);\n}'),
        method('try {\n  conn.close();\n} catch (SQLException e) {\n  // closing is best effort\n}'),
        method('try { conn.close(); } catch (SQLException ignored) {}'),
        method(
          'try {\n  mailer.send(report);\n} catch (IOException e) {\n  e.printStackTrace();\n  throw new UncheckedIOException(e);\n}',
        ),
      ],
    },
  },
  {
    id: 'java.string-reference-equality',
    languages: ['java'],
    type: 'bug',
    severity: 'important',
    message:
      '== and != compare String references, not contents: two equal strings built at run time are different objects, so the test gives the wrong answer. Use "literal".equals(value).',
    rule: {
      kind: 'binary_expression',
      all: [
        { has: { field: 'operator', regex: '^(==|!=)$' } },
        { has: { kind: 'string_literal' } },
        { not: { has: { kind: 'null_literal' } } },
        {
          not: {
            all: [
              { has: { field: 'left', kind: 'string_literal' } },
              { has: { field: 'right', kind: 'string_literal' } },
            ],
          },
        },
      ],
    },
    examples: {
      invalid: [
        method('if (status == "active") { start(); }'),
        method('boolean admin = "admin" == user.getRole();'),
        method('if (status != "active") { stop(); }'),
      ],
      valid: [
        method('if ("active".equals(status)) { start(); }'),
        method('if (count == 0) { start(); }'),
        method('if (status != null) { stop(); }'),
      ],
    },
  },
  {
    id: 'java.system-out',
    languages: ['java'],
    type: 'style',
    severity: 'info',
    message:
      'System.out/System.err or printStackTrace in application code is debug output left behind: it bypasses the logger, its levels and its format. Use the project logger (SLF4J, java.util.logging).',
    rule: {
      any: [
        { kind: 'method_invocation', regex: '^System\\.(out|err)\\.(println|print|printf)\\(' },
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^printStackTrace$' } },
            { has: { field: 'arguments', regex: '^\\(\\s*\\)$' } },
          ],
        },
      ],
      not: {
        any: [
          { inside: { stopBy: 'end', kind: 'method_declaration', has: { field: 'name', regex: '^main$' } } },
          // A command-line tool (a class with `main`, or a picocli @Command): standard output is its interface.
          {
            inside: {
              stopBy: 'end',
              kind: 'class_declaration',
              any: [
                {
                  has: { field: 'body', has: { kind: 'method_declaration', has: { field: 'name', regex: '^main$' } } },
                },
                { has: { kind: 'modifiers', regex: '@(CommandLine\\.)?Command\\b' } },
              ],
            },
          },
        ],
      },
    },
    examples: {
      invalid: [
        method('System.out.println("order: " + order);'),
        method('try { save(); } catch (IOException e) { e.printStackTrace(); }'),
      ],
      valid: [
        'class Cli {\n  public static void main(String[] args) {\n    System.out.println("usage: cli <file>");\n  }\n}',
        '@Command(name = "reindex")\nclass Reindex implements Callable<Integer> {\n  public Integer call() {\n    System.out.println("Reindexed " + n);\n    return 0;\n  }\n}',
        method('log.info("order {}", order);'),
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        method('for (Item item : items) {\n  csv += item.getName() + ",";\n}'),
        method('while (it.hasNext()) {\n  out += "<li>" + it.next() + "</li>";\n}'),
        method('String out = "";\nfor (String line : lines) {\n  out += line + System.lineSeparator();\n}'),
      ],
      valid: [
        method(
          'StringBuilder sb = new StringBuilder();\nfor (Item item : items) {\n  sb.append(item.getName()).append(",");\n}',
        ),
        method('for (Item item : items) {\n  total += item.getPrice();\n}'),
        method('long total = 0;\nfor (Item item : items) {\n  total += item.getPrice();\n}'),
        method('html += "<ul>";'),
      ],
    },
  },
  {
    id: 'java.mybatis-dollar-substitution',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'MyBatis pastes `${...}` into the SQL text unescaped (SQL injection): bind values with `#{...}`, and map sort columns or table names through an allow-list.',
    rule: {
      kind: 'annotation',
      all: [
        { has: { field: 'name', regex: '^(Select|Update|Delete|Insert)$' } },
        { has: { field: 'arguments', regex: '\\$\\{\\s*\\w+' } },
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        'interface UserMapper {\n  @Select("SELECT id, name FROM users WHERE name LIKE \'%${name}%\'")\n  List<User> search(@Param("name") String name);\n}',
        'interface M {\n  @Delete("DELETE FROM ${table} WHERE id = #{id}")\n  void remove(String table, long id);\n}',
      ],
      valid: [
        'interface UserMapper {\n  @Select("SELECT id, name FROM users WHERE name LIKE CONCAT(\'%\', #{name}, \'%\')")\n  List<User> search(@Param("name") String name);\n}',
        'class C {\n  @Value("${app.name}")\n  String name;\n}',
      ],
    },
  },
  {
    id: 'java.groovy-eval',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'GroovyShell runs the string as a Groovy program with the full power of the JVM: a script that comes from a request is remote code execution. Offer a fixed set of rules or a sandboxed expression language instead.',
    rule: {
      kind: 'method_invocation',
      all: [
        { has: { field: 'name', regex: '^(evaluate|parse|run)$' } },
        {
          has: {
            field: 'object',
            any: [
              { kind: 'object_creation_expression', regex: '^new\\s+GroovyShell\\b' },
              {
                kind: 'identifier',
                pattern: '$SHELL',
                inside: {
                  stopBy: 'end',
                  kind: 'class_declaration',
                  has: {
                    stopBy: 'end',
                    any: [{ kind: 'local_variable_declaration' }, { kind: 'field_declaration' }],
                    all: [
                      { has: { field: 'type', regex: '^GroovyShell$' } },
                      { has: { kind: 'variable_declarator', has: { field: 'name', pattern: '$SHELL' } } },
                    ],
                  },
                },
              },
            ],
          },
        },
        firstArgument({ not: { kind: 'string_literal' } }),
      ],
    },
    cwe: 'CWE-94',
    cvss: 9.8,
    examples: {
      invalid: [
        'class C {\n  Object test(Map<String, Object> body) {\n    String script = (String) body.get("rule");\n    return new GroovyShell(binding).evaluate(script);\n  }\n}',
        'class C {\n  private final GroovyShell shell = new GroovyShell();\n  Object run(String code) {\n    return shell.evaluate(code);\n  }\n}',
      ],
      valid: [
        'class C {\n  Object version() {\n    return new GroovyShell().evaluate("GroovySystem.version");\n  }\n}',
        'class C {\n  Object run(String code) {\n    return parser.evaluate(code);\n  }\n}',
      ],
    },
  },
  {
    id: 'java.trust-all-strategy',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'TrustAllStrategy (or a trust strategy that returns true) accepts any certificate, so anyone on the network can impersonate the server: load the right CA into the trust store instead.',
    rule: {
      any: [
        { kind: 'field_access', regex: '^TrustAllStrategy\\.INSTANCE$' },
        { kind: 'object_creation_expression', has: { field: 'type', regex: '^TrustAllStrategy$' } },
        {
          kind: 'lambda_expression',
          regex: '->\\s*true$',
          inside: {
            kind: 'argument_list',
            inside: { kind: 'method_invocation', has: { field: 'name', regex: '^loadTrustMaterial$' } },
          },
        },
      ],
    },
    cwe: 'CWE-295',
    examples: {
      invalid: [
        method('SSLContext ctx = SSLContextBuilder.create().loadTrustMaterial(TrustAllStrategy.INSTANCE).build();'),
        method('SSLContext ctx = SSLContexts.custom().loadTrustMaterial(null, (chain, authType) -> true).build();'),
      ],
      valid: [
        method('SSLContext ctx = SSLContextBuilder.create().loadTrustMaterial(trustStore, null).build();'),
        method('SSLContext ctx = SSLContextBuilder.create().build();'),
      ],
    },
  },
  {
    id: 'java.script-eval',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'A ScriptEngine evaluates a string that is not a constant: whoever controls it runs arbitrary code in the JVM (code injection). Do not evaluate user input; use a restricted expression language or a sandbox with an allow-list.',
    rule: {
      kind: 'method_invocation',
      all: [
        { has: { field: 'name', regex: '^eval$' } },
        { has: { field: 'object', regex: '(?i)engine$' } },
        firstArgument({ not: { kind: 'string_literal' } }),
        {
          inside: {
            stopBy: 'end',
            kind: 'program',
            has: { stopBy: 'end', kind: 'type_identifier', regex: '^ScriptEngine$' },
          },
        },
      ],
    },
    cwe: 'CWE-94',
    cvss: 9.8,
    examples: {
      invalid: [
        'class R {\n  private final ScriptEngine engine = manager.getEngineByName("js");\n  Object run(String expr) throws Exception {\n    return engine.eval(expr);\n  }\n}',
        'class R {\n  Object run(String expr) throws Exception {\n    ScriptEngine jsEngine = m.getEngineByName("js");\n    return jsEngine.eval("var x = " + expr);\n  }\n}',
      ],
      valid: [
        'class R {\n  private final ScriptEngine engine = manager.getEngineByName("js");\n  Object run() throws Exception {\n    return engine.eval("1 + 1");\n  }\n}',
        'class R {\n  Object run(String expr) {\n    return rulesEngine.eval(expr);\n  }\n}',
      ],
    },
  },
  {
    id: 'java.servlet-xss',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'A request parameter is written into the HTML response without escaping: markup in the value runs in the page (XSS). Escape it (OWASP Encoder Encode.forHtml, HtmlUtils.htmlEscape) or render a template that escapes.',
    rule: {
      kind: 'method_invocation',
      all: [
        { has: { field: 'name', regex: '^(print|println|write|printf|format|append)$' } },
        { has: { field: 'object', regex: '\\.getWriter\\(\\)$|\\.getOutputStream\\(\\)$|^(out|writer|pw)$' } },
        {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              any: [
                {
                  kind: 'method_invocation',
                  regex:
                    '^(req|request|httpRequest|servletRequest)\\.(getParameter|getHeader|getQueryString|getRequestURI|getCookies)\\(',
                },
                // `String name = request.getParameter("name");` earlier in the method.
                {
                  kind: 'identifier',
                  pattern: '$VALUE',
                  inside: {
                    stopBy: 'end',
                    kind: 'method_declaration',
                    has: {
                      stopBy: 'end',
                      kind: 'variable_declarator',
                      all: [
                        { has: { field: 'name', pattern: '$VALUE' } },
                        {
                          has: {
                            field: 'value',
                            regex: '^(req|request|httpRequest|servletRequest)\\.(getParameter|getHeader)\\(',
                          },
                        },
                      ],
                    },
                  },
                },
              ],
            },
          },
        },
        { not: { has: { field: 'arguments', regex: '(?i)(escape|encode\\.for|sanitize)' } } },
      ],
    },
    cwe: 'CWE-79',
    cvss: 6.1,
    examples: {
      invalid: [
        method('resp.getWriter().println("<h1>Hello, " + req.getParameter("name") + "</h1>");'),
        method('PrintWriter out = response.getWriter();\nout.print("<p>" + request.getParameter("q") + "</p>");'),
        method(
          'String name = request.getParameter("name");\nPrintWriter out = response.getWriter();\nout.println("<h2>Welcome, " + name + "</h2>");',
        ),
      ],
      valid: [
        method('resp.getWriter().println("<h1>Hello, " + Encode.forHtml(req.getParameter("name")) + "</h1>");'),
        method('resp.getWriter().println("<h1>Hello</h1>");'),
      ],
    },
  },
  {
    id: 'java.path-traversal',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'A file is read, written or deleted at a path built from a request parameter without confining it: "../" in the value reaches any file the process can access (path traversal). Resolve it against the base directory, normalize() it and check startsWith(base).',
    rule: {
      any: [
        // Built and used in place: `Files.readAllBytes(Paths.get(BASE, file))`.
        { ...springRequestPath, not: { inside: { kind: 'variable_declarator' } } },
        // Built into a local first: reported where the file is read, written or deleted.
        {
          ...FILE_SINK,
          has: { field: 'arguments', has: { stopBy: 'end', ...declaredFrom('$PATH', springRequestPath) } },
        },
      ],
    },
    cwe: 'CWE-22',
    cvss: 7.5,
    examples: {
      invalid: [
        'class C {\n  @GetMapping("/d")\n  byte[] d(@RequestParam String file) throws IOException {\n    Path path = Paths.get("/srv/reports", file);\n    return Files.readAllBytes(path);\n  }\n}',
        'class C {\n  @GetMapping("/d/{name}")\n  InputStream d(@PathVariable String name) throws IOException {\n    return new FileInputStream(new File(BASE, name));\n  }\n}',
        'class C {\n  @GetMapping("/d")\n  ResponseEntity<byte[]> d(@RequestParam String file) throws IOException {\n    File target = new File(REPORT_DIR, file);\n    return ResponseEntity.ok(Files.readAllBytes(target.toPath()));\n  }\n}',
      ],
      valid: [
        'class C {\n  @GetMapping("/d")\n  byte[] d(@RequestParam String file) throws IOException {\n    Path path = ROOT.resolve(file).normalize();\n    if (!path.startsWith(ROOT)) throw new NotFound();\n    return Files.readAllBytes(path);\n  }\n}',
        'class C {\n  byte[] d(String file) throws IOException {\n    return Files.readAllBytes(Paths.get("/srv/reports", file));\n  }\n}',
        'class C {\n  @GetMapping("/d")\n  byte[] d(@RequestParam String id) throws IOException {\n    return Files.readAllBytes(Paths.get("/srv/reports", name));\n  }\n}',
      ],
    },
  },
  {
    id: 'java.ssrf',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'The server fetches a URL taken from the request: a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts, or map an identifier to a known URL.',
    rule: {
      any: [URL_CONSTRUCTOR, HTTP_CLIENT_CALL],
      has: { field: 'arguments', has: { nthChild: 1, any: [USER_URL, declaredFrom('$URL', USER_URL)] } },
    },
    cwe: 'CWE-918',
    cvss: 7.5,
    examples: {
      invalid: [
        'class P {\n  @GetMapping("/p")\n  byte[] p(@RequestParam String url) throws IOException {\n    try (InputStream in = new URL(url).openStream()) {\n      return in.readAllBytes();\n    }\n  }\n}',
        'class P {\n  @GetMapping("/p")\n  Object p(@RequestParam("target") String target) throws Exception {\n    return client.send(HttpRequest.newBuilder(new URI(target)).build(), ofString());\n  }\n}',
        'class P {\n  @GetMapping("/p")\n  String p(@RequestParam String url) throws Exception {\n    return client.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), ofString()).body();\n  }\n}',
        'class P {\n  @GetMapping("/s")\n  String s(@RequestParam String host) {\n    String target = "https://" + host + "/status";\n    return restTemplate.getForObject(target, String.class);\n  }\n}',
      ],
      valid: [
        'class P {\n  byte[] p(String url) throws IOException {\n    try (InputStream in = new URL(url).openStream()) {\n      return in.readAllBytes();\n    }\n  }\n}',
        'class P {\n  @GetMapping("/p")\n  byte[] p(@RequestParam String id) throws IOException {\n    return new URL(BASE_URL).openStream().readAllBytes();\n  }\n}',
        'class P {\n  @GetMapping("/u/{id}")\n  String u(@PathVariable String id) {\n    return restTemplate.getForObject("https://users.internal/api/users/" + id, String.class);\n  }\n}',
        'class P {\n  @GetMapping("/u/{id}")\n  String u(@PathVariable String id) {\n    return restTemplate.getForObject(usersBaseUrl + "/api/users/" + id, String.class);\n  }\n}',
      ],
    },
  },
  {
    id: 'java.assignment-in-condition',
    languages: ['java'],
    type: 'bug',
    severity: 'important',
    message:
      'An assignment is used as the condition (`=` instead of `==`): it overwrites the variable and the branch always takes the assigned value. Compare with ==, or test the boolean directly.',
    rule: {
      kind: 'assignment_expression',
      has: { field: 'operator', regex: '^=$' },
      inside: {
        kind: 'parenthesized_expression',
        any: [
          {
            inside: {
              any: [{ kind: 'if_statement' }, { kind: 'while_statement' }, { kind: 'do_statement' }],
              field: 'condition',
            },
          },
          // `if (exists && (overwrite = false))`: an operand of && or || (not `(line = next()) != null`).
          {
            inside: {
              kind: 'binary_expression',
              has: { field: 'operator', regex: '^(&&|\\|\\|)$' },
              inside: {
                kind: 'parenthesized_expression',
                inside: {
                  any: [{ kind: 'if_statement' }, { kind: 'while_statement' }, { kind: 'do_statement' }],
                  field: 'condition',
                },
              },
            },
          },
        ],
      },
    },
    examples: {
      invalid: [
        method('if (enabled = true) {\n  return;\n}'),
        method('while (done = false) {\n  step();\n}'),
        method('if (exists && (overwrite = false)) {\n  continue;\n}'),
      ],
      valid: [
        method('if (enabled == true) {\n  return;\n}'),
        method('while ((line = reader.readLine()) != null) {\n  handle(line);\n}'),
        method('while (running && (line = reader.readLine()) != null) {\n  handle(line);\n}'),
      ],
    },
  },
  {
    id: 'java.off-by-one',
    languages: ['java'],
    type: 'bug',
    severity: 'important',
    message:
      'The loop runs while i <= array.length (or list.size()) and indexes the element i: the last iteration throws IndexOutOfBoundsException. Use i < length.',
    rule: {
      kind: 'binary_expression',
      any: [
        {
          all: [
            { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
            { has: { field: 'operator', regex: '^<=$' } },
            {
              has: {
                field: 'right',
                any: [
                  {
                    kind: 'field_access',
                    all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'field', regex: '^length$' } }],
                  },
                  {
                    kind: 'method_invocation',
                    all: [{ has: { field: 'object', pattern: '$X' } }, { has: { field: 'name', regex: '^size$' } }],
                  },
                ],
              },
            },
            {
              inside: {
                kind: 'for_statement',
                field: 'condition',
                has: {
                  field: 'body',
                  has: {
                    stopBy: 'end',
                    any: [
                      {
                        kind: 'array_access',
                        all: [{ has: { field: 'array', pattern: '$X' } }, { has: { field: 'index', pattern: '$I' } }],
                      },
                      {
                        kind: 'method_invocation',
                        all: [
                          { has: { field: 'object', pattern: '$X' } },
                          { has: { field: 'name', regex: '^get$' } },
                          { has: { field: 'arguments', has: { nthChild: 1, pattern: '$I' } } },
                        ],
                      },
                    ],
                  },
                },
              },
            },
          ],
        },
        // `for (i = 0; i < list.size(); i++)` (or `i <= list.size() - 1`) reading the element i + 1.
        {
          all: [
            { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
            {
              any: [
                {
                  all: [{ has: { field: 'operator', regex: '^<$' } }, { has: { field: 'right', any: [JAVA_LENGTH] } }],
                },
                {
                  all: [
                    { has: { field: 'operator', regex: '^<=$' } },
                    {
                      has: {
                        field: 'right',
                        kind: 'binary_expression',
                        regex: '-\\s*1$',
                        has: { field: 'left', ...JAVA_LENGTH },
                      },
                    },
                  ],
                },
              ],
            },
            {
              inside: {
                kind: 'for_statement',
                field: 'condition',
                has: {
                  field: 'body',
                  all: [
                    {
                      has: {
                        stopBy: 'end',
                        any: [
                          {
                            kind: 'array_access',
                            all: [
                              { has: { field: 'array', pattern: '$X' } },
                              { has: { field: 'index', pattern: '$I + 1' } },
                            ],
                          },
                          {
                            kind: 'method_invocation',
                            all: [
                              { has: { field: 'object', pattern: '$X' } },
                              { has: { field: 'name', regex: '^get$' } },
                              { has: { field: 'arguments', has: { nthChild: 1, pattern: '$I + 1' } } },
                            ],
                          },
                        ],
                      },
                    },
                    // A guard in the body: `if (i + 1 < list.size())`.
                    { not: { has: { stopBy: 'end', ...JAVA_LENGTH } } },
                  ],
                },
              },
            },
          ],
        },
      ],
    },
    examples: {
      invalid: [
        method('for (int i = 0; i <= values.length; i++) {\n  sum += values[i];\n}'),
        method('for (int i = 0; i <= items.size(); i++) {\n  print(items.get(i));\n}'),
        method(
          'for (int i = 0; i <= stops.size() - 1; i++) {\n  legs.add(new Leg(stops.get(i), stops.get(i + 1)));\n}',
        ),
        method('for (int i = 0; i < values.length; i++) {\n  deltas[i] = values[i + 1] - values[i];\n}'),
      ],
      valid: [
        method('for (int i = 0; i < values.length; i++) {\n  sum += values[i];\n}'),
        method('for (int i = 1; i <= values.length; i++) {\n  sum += values[i - 1];\n}'),
        method('for (int i = 0; i < stops.size() - 1; i++) {\n  legs.add(new Leg(stops.get(i), stops.get(i + 1)));\n}'),
        method(
          'for (int i = 0; i < values.length; i++) {\n  if (i + 1 < values.length) d[i] = values[i + 1] - values[i];\n}',
        ),
      ],
    },
  },
  {
    id: 'java.self-equals',
    languages: ['java'],
    type: 'bug',
    severity: 'warning',
    message:
      'A value is compared with itself (x.equals(x) or x == x), which is always true: one side is probably a typo for the other object.',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^(equals|equalsIgnoreCase)$' } },
            { has: { field: 'object', pattern: '$A' } },
            { has: { field: 'arguments', has: { nthChild: 1, pattern: '$A' } } },
          ],
        },
        { kind: 'binary_expression', pattern: '$B == $B' },
      ],
    },
    constraints: { B: { kind: 'field_access' } },
    examples: {
      invalid: [method('return a.getEmail().equals(a.getEmail());'), method('boolean same = a.id == a.id;')],
      valid: [method('return a.getEmail().equals(b.getEmail());'), method('boolean same = a.id == b.id;')],
    },
  },
  {
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
    examples: {
      invalid: [
        method('lines.stream().filter(line -> Pattern.compile("ERROR").matcher(line).find()).toList();'),
        method('for (String line : lines) {\n  if (Pattern.compile("^\\\\d+$").matcher(line).matches()) n++;\n}'),
        'class F {\n  List<String> f(List<String> lines, String pattern) {\n    List<String> out = new ArrayList<>();\n    for (String line : lines) {\n      if (Pattern.compile(pattern).matcher(line).find()) out.add(line);\n    }\n    return out;\n  }\n}',
        method(
          'return urls.stream().filter(url -> blocked.stream().noneMatch(d -> Pattern.compile("https?://" + Pattern.quote(d)).matcher(url).find())).toList();',
        ),
      ],
      valid: [
        method('lines.stream().filter(line -> ERROR_LINE.matcher(line).find()).toList();'),
        method(
          'Pattern p = Pattern.compile("ERROR");\nfor (String line : lines) {\n  if (p.matcher(line).find()) n++;\n}',
        ),
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        method('for (Long id : ids) {\n  total = total.add(orders.findById(id).orElseThrow().getAmount());\n}'),
        method('while (it.hasNext()) {\n  users.getById(it.next()).activate();\n}'),
        method('return orders.stream().map(o -> customers.findById(o.getCustomerId()).orElseThrow()).toList();'),
        method(
          'for (String sku : skus) {\n  ps.setString(1, sku);\n  try (ResultSet rs = ps.executeQuery()) {\n    rs.next();\n  }\n}',
        ),
      ],
      valid: [
        method('for (Order o : orders.findAllById(ids)) {\n  total = total.add(o.getAmount());\n}'),
        method('Order o = orders.findById(id).orElseThrow();'),
        method(
          'try (ResultSet rs = ps.executeQuery()) {\n  while (rs.next()) {\n    out.add(rs.getString(1));\n  }\n}',
        ),
        method(
          'Map<Long, Customer> byId = customers.findAllById(ids).stream().collect(toMap(Customer::getId, c -> c));',
        ),
      ],
    },
  },
  {
    id: 'java.unreachable-after-exit',
    languages: ['java'],
    type: 'bug',
    severity: 'warning',
    message:
      'This statement comes after System.exit (or Runtime.halt) in the same block: the JVM stops there, so it never runs (the compiler does not flag it, unlike code after return or throw). Move it before the exit, or remove it.',
    rule: {
      kind: 'expression_statement',
      follows: {
        kind: 'expression_statement',
        has: {
          kind: 'method_invocation',
          regex: '^(System\\.exit|Runtime\\.getRuntime\\(\\)\\.(exit|halt))\\(',
        },
      },
    },
    examples: {
      invalid: [
        method('if (failures > 0) {\n  log.error("failed");\n  System.exit(2);\n  job.sendFailureReport(failures);\n}'),
        method('Runtime.getRuntime().halt(1);\ncleanup();'),
      ],
      valid: [
        method('job.sendFailureReport(failures);\nSystem.exit(2);'),
        method('System.exit(new CommandLine(new Cmd()).execute(args));'),
      ],
    },
  },
  {
    id: 'java.catch-return-null',
    languages: ['java'],
    type: 'bug',
    severity: 'warning',
    message:
      'A broad catch (Exception/Throwable) only returns null: every failure (a bug, a timeout, bad data) becomes an absent value, without a log line, and the caller cannot tell them apart. Catch the exceptions you expect, and log or rethrow the rest.',
    // Reported on the `catch (...)` line, like an empty catch.
    rule: {
      kind: 'catch_formal_parameter',
      regex: '^(final\\s+)?(Exception|Throwable|RuntimeException)\\s+\\w+$',
      not: { has: { field: 'name', regex: '^(ignored?|expected|_)$' } },
      inside: {
        kind: 'catch_clause',
        has: { field: 'body', kind: 'block', regex: '^\\{\\s*return\\s+(null|Optional\\.empty\\(\\))\\s*;\\s*\\}$' },
      },
    },
    examples: {
      invalid: [
        method('try {\n  return lookup(ip);\n} catch (Exception e) {\n  return null;\n}'),
        method('try {\n  return Optional.of(parse(raw));\n} catch (Throwable t) {\n  return Optional.empty();\n}'),
      ],
      valid: [
        method('try {\n  return Integer.valueOf(raw);\n} catch (NumberFormatException e) {\n  return null;\n}'),
        method(
          'try {\n  return lookup(ip);\n} catch (Exception e) {\n  log.warn("lookup failed for {}", ip, e);\n  return null;\n}',
        ),
      ],
    },
  },
  {
    id: 'java.hardcoded-signing-key',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'A signing or encryption key is a string literal in the source: everyone with the code (or the jar) can forge tokens or decrypt data with it, and rotating it needs a release. Load it from configuration or a secret manager.',
    rule: {
      kind: 'string_literal',
      regex: '^"[^"\\s]{16,}"$',
      not: { regex: '(?i)(change.?me|example|your|dummy|placeholder|xxxx|test|hmacsha|aes/|rsa/)' },
      any: [
        // `Keys.hmacShaKeyFor("...".getBytes(UTF_8))`, `new SecretKeySpec("...".getBytes(), "HmacSHA256")`.
        {
          inside: {
            kind: 'method_invocation',
            field: 'object',
            has: { field: 'name', regex: '^getBytes$' },
            inside: {
              kind: 'argument_list',
              inside: {
                any: [
                  { kind: 'method_invocation', regex: '^(Keys\\.hmacShaKeyFor|Algorithm\\.HMAC(256|384|512))\\(' },
                  { kind: 'method_invocation', has: { field: 'name', regex: '^(signWith|setSigningKey|verifyWith)$' } },
                  { kind: 'object_creation_expression', has: { field: 'type', regex: '^SecretKeySpec$' } },
                ],
              },
            },
          },
        },
        // `Algorithm.HMAC256("...")`, `Jwts.parser().setSigningKey("...")`.
        {
          inside: {
            kind: 'argument_list',
            inside: {
              any: [
                { kind: 'method_invocation', regex: '^Algorithm\\.HMAC(256|384|512)\\(' },
                { kind: 'method_invocation', has: { field: 'name', regex: '^(signWith|setSigningKey)$' } },
              ],
            },
          },
        },
      ],
    },
    cwe: 'CWE-798',
    cvss: 9.1,
    examples: {
      invalid: [
        'class J {\n  private final SecretKey key = Keys.hmacShaKeyFor("9f2c4e7a1b3d5f60a8c2e4f6b1d3a5c7".getBytes(StandardCharsets.UTF_8));\n}',
        method('Algorithm alg = Algorithm.HMAC256("k8Jd92hfQz0plM3nVb7xW4tY");'),
        method('SecretKeySpec spec = new SecretKeySpec("0123abcd4567efgh8901ijkl".getBytes(), "HmacSHA256");'),
      ],
      valid: [
        'class J {\n  private final SecretKey key = Keys.hmacShaKeyFor(props.secret().getBytes(StandardCharsets.UTF_8));\n}',
        method('SecretKeySpec spec = new SecretKeySpec(keyBytes, "HmacSHA256");'),
        method('Algorithm alg = Algorithm.HMAC256(System.getenv("JWT_SECRET"));'),
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        method('for (String line : lines) {\n  events.add(new ObjectMapper().readValue(line, Event.class));\n}'),
        method('while (it.hasNext()) {\n  out.add(new Gson().toJson(it.next()));\n}'),
      ],
      valid: [
        method(
          'ObjectMapper mapper = new ObjectMapper();\nfor (String line : lines) {\n  events.add(mapper.readValue(line, Event.class));\n}',
        ),
        method('for (String line : lines) {\n  events.add(MAPPER.readValue(line, Event.class));\n}'),
      ],
    },
  },
  {
    id: 'java.commented-out-code',
    languages: ['java'],
    type: 'style',
    severity: 'info',
    message:
      'Commented-out code: version control keeps the old code, and a dead line in the file only misleads readers. Delete it.',
    rule: {
      kind: 'line_comment',
      any: CODE_COMMENT,
      // A commented-out block is reported once, on its first line.
      not: { follows: { kind: 'line_comment', any: CODE_COMMENT } },
    },
    examples: {
      invalid: [
        method('users.deactivate(id);\n// audit.record("user.deactivated", id);'),
        method('// String name = user.getName();\nrun();'),
        method(
          '// if (from.getBalance().compareTo(amount) < 0) { throw new InsufficientFunds(); }\nfrom.debit(amount);',
        ),
      ],
      valid: [
        method('// Deactivate first, then audit (see ADR 12).\nusers.deactivate(id);'),
        method('users.deactivate(id); // idempotent'),
        method('// if (the cache is cold) we pay one extra query here\nusers.deactivate(id);'),
      ],
    },
  },
  {
    id: 'java.spring-html-response-xss',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'A controller returns HTML built from a request parameter as the response body, without escaping: markup in the value runs in the page (XSS). Render a template that escapes, or escape the value with HtmlUtils.htmlEscape / Encode.forHtml.',
    rule: {
      kind: 'return_statement',
      has: {
        any: [
          { kind: 'binary_expression', regex: '"[^"]*<[a-zA-Z/!]' },
          {
            kind: 'method_invocation',
            regex: '^(String\\.format\\(\\s*"[^"]*<[a-zA-Z/!]|"[^"]*<[a-zA-Z/!][^"]*"\\.formatted\\()',
          },
        ],
        all: [
          { has: { stopBy: 'end', ...requestParameter('$P') } },
          {
            not: {
              has: { stopBy: 'end', kind: 'method_invocation', regex: '(?i)(escape|encode|sanitize|clean)\\w*\\(' },
            },
          },
        ],
      },
      inside: {
        stopBy: 'end',
        kind: 'method_declaration',
        all: [
          { has: { kind: 'modifiers', regex: MAPPING } },
          {
            any: [
              { has: { kind: 'modifiers', regex: '@ResponseBody\\b|TEXT_HTML|text/html' } },
              {
                inside: {
                  stopBy: 'end',
                  kind: 'class_declaration',
                  has: { kind: 'modifiers', regex: '@RestController\\b' },
                },
              },
            ],
          },
        ],
      },
    },
    cwe: 'CWE-79',
    cvss: 6.1,
    examples: {
      invalid: [
        '@RestController\nclass G {\n  @GetMapping(value = "/hi", produces = MediaType.TEXT_HTML_VALUE)\n  public String hi(@RequestParam String name) {\n    return "<h1>Hello, " + name + "!</h1>";\n  }\n}',
        '@Controller\nclass G {\n  @ResponseBody\n  @GetMapping("/u")\n  public String u(@RequestParam String email) {\n    return String.format("<p>%s unsubscribed</p>", email);\n  }\n}',
      ],
      valid: [
        '@RestController\nclass G {\n  @GetMapping("/hi")\n  public String hi(@RequestParam String name) {\n    return "<h1>Hello, " + HtmlUtils.htmlEscape(name) + "!</h1>";\n  }\n}',
        '@RestController\nclass G {\n  @GetMapping("/hi")\n  public String hi(@RequestParam String name) {\n    return "<h1>Hello, " + siteName + "!</h1>";\n  }\n}',
        '@Controller\nclass G {\n  @GetMapping("/hi")\n  public String hi(@RequestParam String name) {\n    return "<h1>Hello, " + name + "!</h1>";\n  }\n}',
      ],
    },
  },
  {
    id: 'java.spring-view-name-injection',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'The view name a @Controller returns is built from a request parameter: Spring resolves it through the template engine, and Thymeleaf evaluates expressions in it (`__${T(java.lang.Runtime).getRuntime().exec(...)}__::x`), i.e. template injection. Map the parameter to a fixed set of view names.',
    rule: {
      any: [
        {
          kind: 'return_statement',
          has: {
            kind: 'binary_expression',
            has: { stopBy: 'end', ...requestParameter('$P') },
            all: [{ regex: '^"|"$' }, { not: { regex: '^"(redirect|forward):' } }],
          },
          inside: {
            stopBy: 'end',
            kind: 'method_declaration',
            all: [
              { has: { kind: 'modifiers', regex: MAPPING } },
              { not: { has: { kind: 'modifiers', regex: '@ResponseBody\\b' } } },
              { has: { field: 'type', regex: '^String$' } },
              {
                inside: {
                  stopBy: 'end',
                  kind: 'class_declaration',
                  has: { kind: 'modifiers', regex: '@Controller\\b' },
                },
              },
            ],
          },
        },
        {
          kind: 'object_creation_expression',
          has: { field: 'type', regex: '^ModelAndView$' },
          all: [
            firstArgument({
              kind: 'binary_expression',
              has: { stopBy: 'end', ...requestParameter('$P') },
              not: { regex: '^"(redirect|forward):' },
            }),
          ],
        },
      ],
    },
    cwe: 'CWE-1336',
    cvss: 9.8,
    examples: {
      invalid: [
        '@Controller\nclass H {\n  @GetMapping("/help")\n  public String help(@RequestParam(defaultValue = "index") String section) {\n    return "help/" + section;\n  }\n}',
        '@Controller\nclass H {\n  @GetMapping("/docs/{page}")\n  public ModelAndView docs(@PathVariable String page) {\n    return new ModelAndView("docs/" + page);\n  }\n}',
      ],
      valid: [
        '@Controller\nclass H {\n  @GetMapping("/help")\n  public String help(@RequestParam String section) {\n    return "redirect:/help?s=" + section;\n  }\n}',
        '@RestController\nclass H {\n  @GetMapping("/help")\n  public String help(@RequestParam String section) {\n    return "help/" + section;\n  }\n}',
        '@Controller\nclass H {\n  @GetMapping("/help")\n  public String help(@RequestParam String section, Model model) {\n    model.addAttribute("section", section);\n    return "help/index";\n  }\n}',
      ],
    },
  },
  {
    id: 'java.jackson-default-typing',
    languages: ['java'],
    type: 'security',
    severity: 'critical',
    message:
      'Jackson default typing without an allow-list lets the JSON name the class to instantiate: gadget classes on the classpath give remote code execution (unsafe deserialization). Remove it, or use activateDefaultTyping with a BasicPolymorphicTypeValidator that allows only your own types.',
    rule: {
      kind: 'method_invocation',
      any: [
        { has: { field: 'name', regex: '^(enableDefaultTyping|enableDefaultTypingAsProperty)$' } },
        {
          all: [
            { has: { field: 'name', regex: '^activateDefaultTyping(AsProperty)?$' } },
            firstArgument({ regex: 'LaissezFaireSubTypeValidator' }),
          ],
        },
      ],
    },
    cwe: 'CWE-502',
    cvss: 9.8,
    examples: {
      invalid: [
        method(
          'mapper.activateDefaultTyping(LaissezFaireSubTypeValidator.instance, ObjectMapper.DefaultTyping.NON_FINAL);',
        ),
        method('mapper.enableDefaultTyping();'),
      ],
      valid: [
        method(
          'mapper.activateDefaultTyping(BasicPolymorphicTypeValidator.builder().allowIfSubType("com.acme.").build(), ObjectMapper.DefaultTyping.NON_FINAL);',
        ),
        method('mapper.findAndRegisterModules();'),
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'class H {\n  public Mono<ServerResponse> latest(ServerRequest request) throws IOException {\n    byte[] body = Files.readAllBytes(dir.resolve("latest.json"));\n    return ServerResponse.ok().bodyValue(body);\n  }\n}',
        'class H {\n  public Mono<Price> price(@PathVariable String sku) {\n    Price price = rest.getForObject("http://pricing/v1/{sku}", Price.class, sku);\n    return Mono.just(price);\n  }\n}',
      ],
      valid: [
        'class H {\n  public Mono<byte[]> latest() {\n    return Mono.fromCallable(() -> Files.readAllBytes(path)).subscribeOn(Schedulers.boundedElastic());\n  }\n}',
        'class H {\n  public Price price(String sku) {\n    return rest.getForObject("http://pricing/v1/{sku}", Price.class, sku);\n  }\n}',
      ],
    },
  },
  {
    id: 'java.future-exception-swallowed',
    languages: ['java'],
    type: 'bug',
    severity: 'warning',
    message:
      'exceptionally(ex -> null) turns every failure of the async task into a null result: the error is neither logged nor propagated. Log it (and count it), or let the future complete exceptionally.',
    rule: {
      kind: 'lambda_expression',
      regex: '^\\(?\\s*\\w*\\s*\\)?\\s*->\\s*(null|\\{\\s*\\}|\\{\\s*return\\s+null\\s*;\\s*\\})$',
      inside: {
        kind: 'argument_list',
        inside: { kind: 'method_invocation', has: { field: 'name', regex: '^exceptionally$' } },
      },
    },
    examples: {
      invalid: [
        method('CompletableFuture.runAsync(() -> mailer.send(order))\n    .exceptionally(ex -> null);'),
        method('future.exceptionally(e -> { return null; });'),
      ],
      valid: [
        method('future.exceptionally(ex -> {\n  log.warn("send failed", ex);\n  return null;\n});'),
        method('future.exceptionally(ex -> Result.failed(ex));'),
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'class P {\n  private final Settings settings;\n  void process(List<Event> events) throws Exception {\n    for (Event event : events) {\n      Table t = mapper.readValue(settings.getRoutingJson(), Table.class);\n      event.route(t);\n    }\n  }\n}',
        'class P {\n  void process(List<Event> events, String rulesJson) throws Exception {\n    for (Event event : events) {\n      Rules r = gson.fromJson(rulesJson, Rules.class);\n      r.apply(event);\n    }\n  }\n}',
      ],
      valid: [
        'class P {\n  void process(List<String> lines) throws Exception {\n    for (String line : lines) {\n      events.add(mapper.readValue(line, Event.class));\n    }\n  }\n}',
        'class P {\n  void process(List<Event> events, String rulesJson) throws Exception {\n    Rules r = gson.fromJson(rulesJson, Rules.class);\n    for (Event event : events) {\n      r.apply(event);\n    }\n  }\n}',
      ],
    },
  },
  {
    id: 'java.upload-original-filename',
    languages: ['java'],
    type: 'security',
    severity: 'important',
    message:
      'An upload is written to a path built from the client-supplied file name (getOriginalFilename): "../" in the name writes outside the upload folder (path traversal). Generate the stored name, or keep only Paths.get(name).getFileName() and check the resolved path stays under the folder.',
    rule: {
      any: [
        {
          kind: 'method_invocation',
          all: [
            { has: { field: 'name', regex: '^transferTo$' } },
            firstArgument({ any: [CLIENT_PATH, declaredFrom('$TARGET', CLIENT_PATH)] }),
          ],
        },
        {
          kind: 'method_invocation',
          regex: '^Files\\.(copy|write|move|newOutputStream)\\(',
          has: { field: 'arguments', has: { any: [CLIENT_PATH, declaredFrom('$TARGET', CLIENT_PATH)] } },
        },
        {
          kind: 'object_creation_expression',
          has: { field: 'type', regex: '^(FileOutputStream|FileWriter)$' },
          all: [firstArgument({ any: [CLIENT_PATH, declaredFrom('$TARGET', CLIENT_PATH)] })],
        },
      ],
      not: {
        inside: {
          stopBy: 'end',
          kind: 'method_declaration',
          regex: 'getFileName\\(\\)|FilenameUtils\\.getName|\\.startsWith\\(|contains\\("\\.\\."\\)',
        },
      },
    },
    cwe: 'CWE-22',
    cvss: 7.5,
    examples: {
      invalid: [
        method('File target = new File(UPLOAD_DIR, file.getOriginalFilename());\nfile.transferTo(target);'),
        method('Files.copy(upload.getInputStream(), uploadDir.resolve(upload.getOriginalFilename()));'),
      ],
      valid: [
        method('File target = new File(UPLOAD_DIR, UUID.randomUUID() + ".bin");\nfile.transferTo(target);'),
        method(
          'Path target = uploadDir.resolve(Paths.get(upload.getOriginalFilename()).getFileName()).normalize();\nFiles.copy(upload.getInputStream(), target);',
        ),
      ],
    },
  },
];
