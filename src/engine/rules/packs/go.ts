import type { Rule } from '../rule-schema.js';

/**
 * Go rules. Go patterns are fragile outside a function body (a bare `pkg.F($$$)` may not parse as
 * a call), so these rules are written with node kinds, fields and anchored regexes on the
 * callee's text. Data flow is followed only inside one function: a request value assigned with
 * `:=` or `=` to a variable that reaches the sink.
 */

/** An example wrapped in an HTTP handler, as it appears in a diff. */
const handler = (body: string): string =>
  `func handler(w http.ResponseWriter, r *http.Request) {\n\t${body.replace(/\n/g, '\n\t')}\n}`;
const fn = (body: string): string => `func run() error {\n\t${body.replace(/\n/g, '\n\t')}\n}`;

/** The node sits in a `for` loop's body, in the same function (a closure is another function). */
const insideLoopBody = {
  inside: {
    stopBy: { any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }] },
    kind: 'block',
    inside: { kind: 'for_statement' },
  },
};

const stringLiteral = { any: [{ kind: 'interpreted_string_literal' }, { kind: 'raw_string_literal' }] };

/** A call whose callee text matches `regex`. */
const callTo = (regex: string): Record<string, unknown> => ({
  kind: 'call_expression',
  has: { field: 'function', regex },
});

/** net/http, gin and echo request values. */
const REQUEST_CALL =
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
const requestValue = {
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
const fromRequest = {
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
const argument = (position: number, rule: Record<string, unknown>): Record<string, unknown> => ({
  has: { field: 'arguments', has: { nthChild: position, ...rule } },
});

/** A variable assigned, in the same function, from a value matching `value`: `query := fmt.Sprintf(...)`. */
const assignedFrom = (value: Record<string, unknown>, meta: string): Record<string, unknown> => ({
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
const formattedQuery = {
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
const functionParameter = (meta: string, type?: string): Record<string, unknown> => ({
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

/** A method call `x.Name(...)` whose name matches `regex`. */
const sqlMethod = (regex: string): Record<string, unknown> => ({
  has: { field: 'function', kind: 'selector_expression', has: { field: 'field', regex } },
});

/** A context as the first argument: pgx's `conn.Query(ctx, sql, args...)`. */
const CONTEXT_ARGUMENT =
  '(?i)^(ctx|\\w*context|c\\.Request\\.Context\\(\\)|\\w+\\.Context\\(\\)|context\\.\\w+\\(.*\\))$';

/** A request value read in place, or a variable assigned from one (a cheaper `fromRequest`). */
const requestRead = {
  any: [
    callTo(REQUEST_CALL),
    { kind: 'index_expression', regex: REQUEST_CALL },
    {
      kind: 'identifier',
      pattern: '$READ',
      inside: {
        stopBy: 'end',
        any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
        has: {
          stopBy: 'end',
          kind: 'short_var_declaration',
          all: [
            { has: { field: 'left', has: { pattern: '$READ' } } },
            { has: { field: 'right', has: { stopBy: 'end', ...callTo(REQUEST_CALL) } } },
          ],
        },
      },
    },
  ],
};

/** SQL text in a query built in place (for method names shared with caches and maps: Get, Select). */
const SQL_TEXT = '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b';

/** A query built in a variable first: `query := fmt.Sprintf("SELECT ...", v)`. */
const declaredQuery = assignedFrom(
  {
    all: [
      { regex: SQL_TEXT },
      formattedQuery,
      {
        any: [
          // No placeholders: the values themselves are pasted in.
          { not: { regex: '\\$[0-9]|\\?' } },
          // Placeholders for the values, but a column or list pasted in comes from the request or
          // from a string parameter of the function: `"... $1 ORDER BY " + sortBy`.
          {
            has: {
              stopBy: 'end',
              any: [requestRead, functionParameter('$PARAM', '^(string|\\[\\]string)$')],
            },
          },
        ],
      },
    ],
  },
  '$QUERY',
);

/** A formatted query, written in the call or built in a variable first. */
const queryArgument = { any: [formattedQuery, declaredQuery] };

/** A `//` comment that holds a Go statement. */
const NOT_CODE_COMMENT = '(?i)^//\\s*(nolint|go:|todo|fixme|note|deprecated|see|example|output)\\b';
const codeComment = {
  kind: 'comment',
  regex:
    '^//\\s*(return\\s+[\\w.&*]+(\\(.*\\))?(,\\s*[\\w.&*]+(\\(.*\\))?)*|(defer\\s+|go\\s+)?[A-Za-z_]\\w*(\\.\\w+)*\\(.*\\)|[A-Za-z_][\\w.]*(,\\s*[A-Za-z_][\\w.]*)*\\s*:?=\\s*[\\w"&\\[{(].*|(if|for)\\s.*\\{)\\s*$',
  not: { regex: NOT_CODE_COMMENT },
};

/** `exec.Command("sh", "-c", cmd)` (or CommandContext) with a command that is not a literal. */
const SHELL = '^["`](/bin/|/usr/bin/)?(sh|bash|zsh|ksh|dash)["`]$|^["`](cmd|cmd\\.exe|powershell|pwsh)["`]$';
const shellCommand = {
  kind: 'call_expression',
  // Atomic keys are checked first: only calls of exec.Command* reach the other conditions.
  regex: '^exec\\.Command',
  any: [
    {
      all: [
        { has: { field: 'function', regex: '^exec\\.Command$' } },
        argument(1, { regex: SHELL }),
        argument(2, { regex: '^["`](-c|/c|/C|-Command)["`]$' }),
        argument(3, { not: stringLiteral }),
      ],
    },
    {
      all: [
        { has: { field: 'function', regex: '^exec\\.CommandContext$' } },
        argument(2, { regex: SHELL }),
        argument(3, { regex: '^["`](-c|/c|/C|-Command)["`]$' }),
        argument(4, { not: stringLiteral }),
      ],
    },
  ],
};

/** `http.NewRequest(method, url, body)` (or WithContext) with a URL from the request. */
const taintedNewRequest = {
  kind: 'call_expression',
  regex: '^http\\.NewRequest',
  any: [
    { all: [{ has: { field: 'function', regex: '^http\\.NewRequest$' } }, argument(2, fromRequest)] },
    { all: [{ has: { field: 'function', regex: '^http\\.NewRequestWithContext$' } }, argument(3, fromRequest)] },
  ],
};

const SECRET_NAME = '(?i)(token|password|passwd|secret|nonce|salt|otp|apikey|api_key|sessionid|csrf)$';

/**
 * The name of an archive entry, written by whoever made the archive: `f.Name` in a function that reads
 * a zip or tar archive (or takes a `*zip.File` / `*tar.Header`). "../" in it escapes the target (zip slip).
 */
const archiveEntryName = {
  kind: 'selector_expression',
  regex: '^\\w+\\.Name$',
  inside: {
    stopBy: 'end',
    all: [
      { any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }] },
      {
        any: [
          { has: { stopBy: 'end', ...callTo('^(zip\\.(OpenReader|NewReader)|tar\\.NewReader)$') } },
          { has: { field: 'parameters', regex: '\\*(zip\\.File|tar\\.Header)\\b' } },
        ],
      },
    ],
  },
};

export const goRules: Rule[] = [
  {
    id: 'go.sql-injection',
    languages: ['go'],
    type: 'security',
    severity: 'critical',
    message:
      'SQL query built with fmt.Sprintf or string concatenation: a value containing a quote changes the query (SQL injection). Use placeholders and pass the values: db.Query("... WHERE id = $1", id).',
    rule: {
      kind: 'call_expression',
      any: [
        {
          all: [
            sqlMethod('^(Query|QueryRow|Exec|Prepare|Raw|Queryx|QueryRowx|MustExec|NamedQuery|NamedExec)$'),
            argument(1, queryArgument),
          ],
        },
        // pgx: `conn.Query(ctx, sql, args...)`.
        {
          all: [
            sqlMethod('^(Query|QueryRow|Exec)$'),
            argument(1, { regex: CONTEXT_ARGUMENT }),
            argument(2, queryArgument),
          ],
        },
        // sqlx `db.Get(&dest, query)`; go-redis `rdb.Get(ctx, "settings:"+id)` has the same shape, so the
        // query built in place must hold SQL.
        {
          all: [
            sqlMethod('^(Select|Get)$'),
            argument(2, { any: [{ ...formattedQuery, regex: SQL_TEXT }, declaredQuery] }),
          ],
        },
        {
          all: [
            sqlMethod('^(Query|QueryRow|Exec|Prepare|Queryx|QueryRowx|NamedQuery|NamedExec|MustExec)Context$'),
            argument(2, queryArgument),
          ],
        },
        {
          all: [
            sqlMethod('^(Select|Get)Context$'),
            argument(3, { any: [{ ...formattedQuery, regex: SQL_TEXT }, declaredQuery] }),
          ],
        },
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        fn('rows, err := db.Query(fmt.Sprintf("SELECT * FROM users WHERE name = \'%s\'", name))\n_ = rows\nreturn err'),
        fn('_, err := db.Exec("DELETE FROM items WHERE id = " + id)\nreturn err'),
        fn('row := db.QueryRowContext(ctx, "SELECT * FROM t WHERE a = \'"+a+"\'")\nreturn row.Err()'),
        fn(
          'query := fmt.Sprintf("SELECT id FROM products WHERE category = \'%s\'", category)\nrows, err := db.QueryContext(ctx, query)\n_ = rows\nreturn err',
        ),
        'func (r *Repo) List(ctx context.Context, accountID int64, sortBy string) error {\n\tq := "SELECT id FROM orders WHERE account_id = $1 ORDER BY " + sortBy\n\treturn r.db.SelectContext(ctx, &orders, q, accountID)\n}',
        'func BulkDelete(c *gin.Context) {\n\tids := c.QueryArray("id")\n\tstmt := "DELETE FROM documents WHERE owner_id = $1 AND id IN (" + strings.Join(ids, ",") + ")"\n\t_, _ = db.ExecContext(c.Request.Context(), stmt, c.GetInt64("userID"))\n}',
        fn(
          'rows, err := pool.Query(ctx, "SELECT id FROM users WHERE email = \'" + email + "\'")\n_ = rows\nreturn err',
        ),
      ],
      valid: [
        fn('rows, err := db.Query("SELECT * FROM users WHERE name = $1", name)\n_ = rows\nreturn err'),
        fn('rows, err := db.Query(fmt.Sprintf("SELECT * FROM t LIMIT %d", limit))\n_ = rows\nreturn err'),
        fn('_, err := db.Exec("DELETE FROM items " + "WHERE archived")\nreturn err'),
        fn(
          'query := "SELECT id FROM products WHERE category = $1"\nrows, err := db.QueryContext(ctx, query, category)\n_ = rows\nreturn err',
        ),
        fn(
          'query := fmt.Sprintf("%s-%s", prefix, name)\nrows, err := db.QueryContext(ctx, "SELECT id FROM t WHERE k = $1", query)\n_ = rows\nreturn err',
        ),
        'func (r *Repo) List(ctx context.Context, accountID int64, sort string) error {\n\torderBy, ok := sortColumns[sort]\n\tif !ok {\n\t\torderBy = "created_at"\n\t}\n\tq := fmt.Sprintf("SELECT id FROM orders WHERE account_id = $1 ORDER BY %s", orderBy)\n\treturn r.db.SelectContext(ctx, &orders, q, accountID)\n}',
        fn('rows, err := pool.Query(ctx, "SELECT id FROM users WHERE email = $1", email)\n_ = rows\nreturn err'),
        fn('raw, err := rdb.Get(ctx, "settings:"+userID).Bytes()\n_ = raw\nreturn err'),
      ],
    },
  },
  {
    id: 'go.gorm-sql-injection',
    languages: ['go'],
    type: 'security',
    severity: 'critical',
    message:
      'A GORM/query-builder condition built with string concatenation or fmt.Sprintf: a value containing a quote changes the query (SQL injection). Pass the value as an argument: db.Where("email = ?", email).',
    rule: {
      kind: 'call_expression',
      all: [
        {
          has: {
            field: 'function',
            kind: 'selector_expression',
            has: { field: 'field', regex: '^(Where|Or|Not|Having|Joins)$' },
          },
        },
        argument(1, { ...formattedQuery, regex: '(?i)(=|<|>|\\blike\\b|\\bin\\b|\\bis\\b)' }),
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        fn('err := db.Where("email = \'" + email + "\'").Find(&orders).Error\nreturn err'),
        fn('return db.Where(fmt.Sprintf("status = \'%s\'", status)).Find(&rows).Error'),
      ],
      valid: [
        fn('return db.Where("email = ?", email).Find(&orders).Error'),
        fn('return db.Where(&Order{Email: email}).Find(&orders).Error'),
      ],
    },
  },
  {
    id: 'go.template-injection',
    languages: ['go'],
    type: 'security',
    severity: 'critical',
    message:
      'A template parsed from request input runs attacker-written template code (text/template does not escape, and templates can call methods on the data): template injection. Parse only your own templates and pass the input as data.',
    rule: {
      kind: 'call_expression',
      all: [
        { has: { field: 'function', regex: '(^template\\.New\\(.*\\)|^(tmpl|tpl|t|template))\\.Parse$' } },
        argument(1, {
          any: [
            fromRequest,
            // `func (r *Renderer) Render(userTemplate string, ...)`: a parameter named as user-written text.
            {
              ...functionParameter('$SOURCE'),
              regex: '^(user|custom|tenant|untrusted|submitted|input)([A-Z_]\\w*)?$',
            },
          ],
        }),
      ],
    },
    cwe: 'CWE-1336',
    examples: {
      invalid: [
        handler('tmpl, err := template.New("preview").Parse(r.FormValue("body"))\n_, _ = tmpl, err'),
        handler('src := r.URL.Query().Get("tpl")\nt, _ := template.New("x").Parse(src)\n_ = t'),
        'func (r *Renderer) Render(userTemplate string, data any) error {\n\ttmpl, err := template.New("n").Funcs(r.funcs).Parse(userTemplate)\n\t_ = tmpl\n\treturn err\n}',
      ],
      valid: [
        handler('tmpl, err := template.New("preview").Parse(previewTemplate)\n_, _ = tmpl, err'),
        handler('u, err := url.Parse(r.FormValue("next"))\n_, _ = u, err'),
        'func (r *Renderer) Load(layout string) error {\n\ttmpl, err := template.New("n").Parse(layout)\n\t_ = tmpl\n\treturn err\n}',
      ],
    },
  },
  {
    id: 'go.command-injection',
    languages: ['go'],
    type: 'security',
    severity: 'critical',
    message:
      'A shell runs a command string built at run time ("sh -c" with a non-literal): shell metacharacters in the value run extra commands (command injection). Run the program directly with separate arguments: exec.Command("convert", src, dst).',
    rule: {
      any: [
        {
          ...shellCommand,
          // A shell helper called with request data in this file is reported at that call (below).
          not: {
            inside: {
              stopBy: 'end',
              kind: 'function_declaration',
              has: { field: 'name', pattern: '$HELPER' },
              inside: {
                kind: 'source_file',
                has: {
                  stopBy: 'end',
                  kind: 'call_expression',
                  all: [
                    { has: { field: 'function', kind: 'identifier', pattern: '$HELPER' } },
                    { has: { field: 'arguments', has: fromRequest } },
                  ],
                },
              },
            },
          },
        },
        // `shell("pg_dump %s | gzip", db)` where `func shell(format string, args ...any)` runs `sh -c`.
        {
          kind: 'call_expression',
          all: [
            { has: { field: 'function', kind: 'identifier', pattern: '$HELPER' } },
            {
              inside: {
                stopBy: 'end',
                kind: 'source_file',
                has: {
                  kind: 'function_declaration',
                  all: [{ has: { field: 'name', pattern: '$HELPER' } }, { has: { stopBy: 'end', ...shellCommand } }],
                },
              },
            },
            { has: { field: 'arguments', has: fromRequest } },
          ],
        },
      ],
    },
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        fn('out, err := exec.Command("sh", "-c", "tar xzf "+archive).Output()\n_ = out\nreturn err'),
        fn('cmd := exec.CommandContext(ctx, "/bin/bash", "-c", script)\nreturn cmd.Run()'),
        'func shell(format string, args ...any) ([]byte, error) {\n\treturn exec.Command("bash", "-c", fmt.Sprintf(format, args...)).CombinedOutput()\n}\n\nfunc backup(w http.ResponseWriter, r *http.Request) {\n\tdb := r.URL.Query().Get("db")\n\tout, err := shell("pg_dump %s", db)\n\t_, _ = out, err\n}',
      ],
      valid: [
        fn('out, err := exec.Command("tar", "xzf", archive).Output()\n_ = out\nreturn err'),
        fn('return exec.Command("sh", "-c", "make clean").Run()'),
        'func run(name string, args ...string) ([]byte, error) {\n\treturn exec.Command(name, args...).CombinedOutput()\n}\n\nfunc backup(w http.ResponseWriter, r *http.Request) {\n\tout, err := run("pg_dump", "--format=custom", r.URL.Query().Get("db"))\n\t_, _ = out, err\n}',
      ],
    },
  },
  {
    id: 'go.tls-insecure-skip-verify',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'InsecureSkipVerify: true turns off TLS certificate checking: anyone on the network path can read and alter the traffic. Keep verification on; add a private CA to RootCAs instead.',
    rule: {
      any: [
        { kind: 'keyed_element', regex: '^InsecureSkipVerify\\s*:\\s*true$' },
        { kind: 'assignment_statement', regex: '\\.InsecureSkipVerify\\s*=\\s*true$' },
      ],
    },
    cwe: 'CWE-295',
    cvss: 7.4,
    examples: {
      invalid: [
        fn('tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}\n_ = tr\nreturn nil'),
        fn('cfg := &tls.Config{}\ncfg.InsecureSkipVerify = true\nreturn nil'),
      ],
      valid: [
        fn('cfg := &tls.Config{MinVersion: tls.VersionTLS12}\n_ = cfg\nreturn nil'),
        fn('cfg := &tls.Config{InsecureSkipVerify: false}\n_ = cfg\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.insecure-random',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'math/rand is predictable: a token, password or key made with it can be guessed. Use crypto/rand (rand.Read, or rand.Text in Go 1.24) for secrets.',
    rule: {
      kind: 'call_expression',
      has: {
        field: 'function',
        regex:
          '^rand\\.(Intn|Int31n?|Int63n?|Uint32|Uint64|Float32|Float64|Perm|Shuffle|IntN|Int32N|Int64N|UintN|Uint32N|Uint64N|N)$',
      },
      any: [
        {
          inside: {
            stopBy: 'end',
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }],
            has: { field: 'name', regex: SECRET_NAME },
          },
        },
        {
          inside: {
            stopBy: 'end',
            any: [{ kind: 'short_var_declaration' }, { kind: 'assignment_statement' }],
            has: { field: 'left', regex: SECRET_NAME },
          },
        },
      ],
    },
    cwe: 'CWE-338',
    cvss: 7.5,
    examples: {
      invalid: [
        'func randomToken(n int) string {\n\tb := make([]byte, n)\n\tfor i := range b {\n\t\tb[i] = letters[rand.Intn(len(letters))]\n\t}\n\treturn string(b)\n}',
        fn('resetToken := strconv.FormatInt(rand.Int63(), 36)\n_ = resetToken\nreturn nil'),
      ],
      valid: [
        'func randomToken(n int) string {\n\tb := make([]byte, n)\n\t_, _ = rand.Read(b)\n\treturn hex.EncodeToString(b)\n}',
        fn('delay := time.Duration(rand.Intn(100)) * time.Millisecond\n_ = delay\nreturn nil'),
        fn('numTokens := rand.Intn(10)\n_ = numTokens\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.weak-hash',
    languages: ['go'],
    type: 'security',
    severity: 'warning',
    message:
      'MD5 and SHA-1 are broken for security use (collisions are practical). Use crypto/sha256, or bcrypt/argon2 for passwords.',
    rule: {
      ...callTo('^(md5|sha1)\\.(New|Sum)$'),
      // An ETag, S3's Content-MD5 header or a cache key is a protocol or lookup use, not a security one.
      not: {
        inside: {
          stopBy: 'end',
          any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }],
          has: { field: 'name', regex: '(?i)(etag|contentmd5|cachekey)' },
        },
      },
    },
    cwe: 'CWE-328',
    cvss: 5.3,
    examples: {
      invalid: [
        fn('sum := md5.Sum([]byte(password))\n_ = sum\nreturn nil'),
        fn('h := sha1.New()\nh.Write(data)\nreturn nil'),
      ],
      valid: [
        fn('sum := sha256.Sum256([]byte(password))\n_ = sum\nreturn nil'),
        fn('h := sha256.New()\nh.Write(data)\nreturn nil'),
        'func ContentMD5(data []byte) string {\n\tsum := md5.Sum(data)\n\treturn base64.StdEncoding.EncodeToString(sum[:])\n}',
      ],
    },
  },
  {
    id: 'go.ssrf',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'An outgoing request to a URL taken from the request: the caller can make the server reach internal services or cloud metadata (SSRF). Allow-list hosts, or map a key to a fixed URL.',
    rule: {
      kind: 'call_expression',
      any: [
        {
          all: [
            { has: { field: 'function', regex: '^(http|(?i)\\w*client)\\.(Get|Head|Post|PostForm)$' } },
            argument(1, fromRequest),
          ],
        },
        // A request built here and sent in the same function is reported where it is sent (`client.Do(req)`).
        {
          ...taintedNewRequest,
          not: {
            inside: {
              stopBy: 'end',
              any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
              has: { stopBy: 'end', ...callTo('\\.Do$') },
            },
          },
        },
        {
          all: [{ has: { field: 'function', regex: '\\.Do$' } }, argument(1, assignedFrom(taintedNewRequest, '$REQ'))],
        },
      ],
    },
    cwe: 'CWE-918',
    cvss: 8.6,
    examples: {
      invalid: [
        handler('resp, err := http.Get(r.URL.Query().Get("url"))\n_, _ = resp, err'),
        handler('target := r.FormValue("callback")\nreq, _ := http.NewRequest("POST", target, body)\n_ = req'),
        handler('resp, _ := client.Get("https://" + r.URL.Query().Get("host") + "/status")\n_ = resp'),
        handler(
          'var req verifyRequest\nif err := json.NewDecoder(r.Body).Decode(&req); err != nil {\n\treturn\n}\ntarget := req.CallbackURL\nresp, err := http.Get(target)\n_, _ = resp, err',
        ),
        'func (h *Handler) Verify(c echo.Context) error {\n\tcallback := c.QueryParam("callback")\n\treq, err := http.NewRequestWithContext(c.Request().Context(), http.MethodPost, callback, nil)\n\tif err != nil {\n\t\treturn err\n\t}\n\tresp, err := h.client.Do(req)\n\t_ = resp\n\treturn err\n}',
      ],
      valid: [
        handler('resp, err := http.Get(webhooks[r.URL.Query().Get("name")])\n_, _ = resp, err'),
        handler('resp, err := http.Get(statusURL)\n_, _ = resp, err'),
        handler(
          'var req verifyRequest\nif err := json.NewDecoder(r.Body).Decode(&req); err != nil {\n\treturn\n}\nresp, err := http.Get(callbacks[req.Name])\n_, _ = resp, err',
        ),
        handler(
          'resp, err := http.Post(apiURL, "text/plain", strings.NewReader(r.FormValue("msg")))\n_, _ = resp, err',
        ),
        handler(
          'req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, statusURL, nil)\nif err != nil {\n\treturn\n}\nresp, err := client.Do(req)\n_, _ = resp, err',
        ),
      ],
    },
  },
  {
    id: 'go.path-traversal',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'A file path built from the request: "../" in the value reaches files outside the intended folder (path traversal). Use filepath.Base on the name, or check the cleaned path stays under the base directory (os.Root in Go 1.24).',
    rule: {
      kind: 'call_expression',
      any: [
        {
          has: {
            field: 'function',
            regex:
              '^(os\\.(Open|OpenFile|ReadFile|Create|Remove|RemoveAll|WriteFile|ReadDir|Mkdir|MkdirAll)|ioutil\\.(ReadFile|WriteFile)|http\\.ServeFile)$',
          },
        },
        // gin `c.File` / `c.FileAttachment`, echo `c.Attachment` / `c.Inline`, fiber `c.SendFile` / `c.Download`.
        {
          has: {
            field: 'function',
            regex: '^(c|ctx)\\.(File|FileAttachment|Attachment|Inline|SendFile|Download|SaveUploadedFile)$',
          },
        },
        // A joined path used in place; one stored in a variable is reported where the file is opened.
        {
          has: { field: 'function', regex: '^(filepath|path)\\.Join$' },
          not: {
            inside: {
              kind: 'expression_list',
              inside: {
                any: [{ kind: 'short_var_declaration' }, { kind: 'assignment_statement' }, { kind: 'var_spec' }],
              },
            },
          },
        },
      ],
      all: [
        {
          has: {
            field: 'arguments',
            any: [
              { has: fromRequest },
              // Zip slip: an archive entry's name joined to the destination, in place or in a variable.
              {
                has: {
                  any: [
                    { kind: 'call_expression', has: { stopBy: 'end', ...archiveEntryName } },
                    assignedFrom({ kind: 'call_expression', has: { stopBy: 'end', ...archiveEntryName } }, '$TARGET'),
                  ],
                },
              },
            ],
          },
        },
        { not: { has: { field: 'arguments', has: { stopBy: 'end', ...callTo('^(filepath|path)\\.Base$') } } } },
        // The function checks the path stays under its base: `strings.HasPrefix(p, base)`, `filepath.Rel`.
        {
          not: {
            inside: {
              stopBy: 'end',
              any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
              has: { stopBy: 'end', ...callTo('^(strings\\.HasPrefix|filepath\\.Rel|filepath\\.IsLocal)$') },
            },
          },
        },
      ],
    },
    cwe: 'CWE-22',
    cvss: 7.5,
    examples: {
      invalid: [
        handler('data, err := os.ReadFile(filepath.Join(baseDir, r.URL.Query().Get("file")))\n_, _ = data, err'),
        handler('name := r.FormValue("name")\nhttp.ServeFile(w, r, filepath.Join("uploads", name))'),
        'func DownloadExport(c *gin.Context) {\n\tf, err := os.Open(filepath.Join("/data/exports", c.Query("path")))\n\t_, _ = f, err\n}',
        'func Report(c *gin.Context) {\n\tfile := c.Query("file")\n\tc.FileAttachment(filepath.Join("/srv/reports", file), file)\n}',
        'func Extract(archive, dest string) error {\n\tzr, err := zip.OpenReader(archive)\n\tif err != nil {\n\t\treturn err\n\t}\n\tfor _, f := range zr.File {\n\t\tout, err := os.Create(filepath.Join(dest, f.Name))\n\t\t_, _ = out, err\n\t}\n\treturn nil\n}',
        'func Logs(w http.ResponseWriter, r *http.Request) {\n\tf, err := os.Open(logDir + chi.URLParam(r, "*"))\n\t_, _ = f, err\n}',
      ],
      valid: [
        handler(
          'data, err := os.ReadFile(filepath.Join(baseDir, filepath.Base(r.URL.Query().Get("file"))))\n_, _ = data, err',
        ),
        handler('http.ServeFile(w, r, filepath.Join("static", "index.html"))'),
        'func extractFile(f *zip.File, dest string) error {\n\ttarget := filepath.Join(dest, f.Name)\n\tif !strings.HasPrefix(target, filepath.Clean(dest)+string(os.PathSeparator)) {\n\t\treturn errIllegalPath\n\t}\n\tout, err := os.Create(target)\n\t_ = out\n\treturn err\n}',
        'func Extract(archive, dest string) error {\n\tzr, err := zip.OpenReader(archive)\n\tif err != nil {\n\t\treturn err\n\t}\n\tfor _, f := range zr.File {\n\t\tout, err := os.Create(filepath.Join(dest, filepath.Base(f.Name)))\n\t\t_, _ = out, err\n\t}\n\treturn nil\n}',
        handler(
          'p := filepath.Join(base, r.URL.Query().Get("f"))\nif !strings.HasPrefix(p, filepath.Clean(base)+string(filepath.Separator)) {\n\treturn\n}\nhttp.ServeFile(w, r, p)',
        ),
      ],
    },
  },
  {
    id: 'go.empty-error-check',
    languages: ['go'],
    type: 'bug',
    severity: 'important',
    message:
      'The error is checked but the branch is empty, so the failure is silently ignored and execution continues with bad state. Return, wrap or log the error.',
    rule: {
      kind: 'if_statement',
      all: [
        { has: { field: 'condition', kind: 'binary_expression', regex: '^(?i)\\w*err\\w*\\s*!=\\s*nil$' } },
        {
          has: {
            field: 'consequence',
            kind: 'block',
            not: { has: { any: [{ kind: 'statement_list' }, { kind: 'comment' }] } },
          },
        },
      ],
    },
    examples: {
      invalid: [
        fn('if err := save(u); err != nil {\n}\nreturn nil'),
        fn('err := f.Close()\nif err != nil {}\nreturn nil'),
      ],
      valid: [
        fn('if err := save(u); err != nil {\n\treturn err\n}\nreturn nil'),
        fn('if err != nil {\n\t// already closed: nothing to do\n}\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.error-return-nil',
    languages: ['go'],
    type: 'bug',
    severity: 'important',
    message:
      'This `if err != nil` returns a nil error from a function that returns an error: the failure is reported as success and the caller carries on (a message is acknowledged, data is lost). Return the error, wrapped with context.',
    rule: {
      kind: 'return_statement',
      any: [
        {
          regex: '^return\\s+nil$',
          inside: {
            stopBy: {
              any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
            },
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
            has: { field: 'result', regex: '^error$' },
          },
        },
        // `return flags, nil` from a function returning (T, error).
        {
          regex: '^return\\s+[^,]+(,\\s*[^,]+)*,\\s*nil$',
          inside: {
            stopBy: {
              any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
            },
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
            has: { field: 'result', kind: 'parameter_list', regex: ',\\s*error\\s*\\)$' },
          },
        },
      ],
      inside: {
        kind: 'statement_list',
        not: { has: { nthChild: 2 } },
        inside: {
          kind: 'block',
          inside: {
            kind: 'if_statement',
            field: 'consequence',
            has: { field: 'condition', regex: '^err\\s*!=\\s*nil$' },
          },
        },
      },
    },
    examples: {
      invalid: [
        'func (c *Consumer) Handle(body []byte) error {\n\tvar evt Event\n\tif err := json.Unmarshal(body, &evt); err != nil {\n\t\treturn nil\n\t}\n\treturn c.save(evt)\n}',
        'func load(path string) error {\n\tdata, err := os.ReadFile(path)\n\tif err != nil {\n\t\treturn nil\n\t}\n\treturn parse(data)\n}',
        'func FetchFlags(resp *http.Response) (map[string]bool, error) {\n\tflags := map[string]bool{}\n\tif err := json.NewDecoder(resp.Body).Decode(&flags); err != nil {\n\t\treturn flags, nil\n\t}\n\treturn flags, nil\n}',
      ],
      valid: [
        'func (c *Consumer) Handle(body []byte) error {\n\tvar evt Event\n\tif err := json.Unmarshal(body, &evt); err != nil {\n\t\treturn fmt.Errorf("decode: %w", err)\n\t}\n\treturn nil\n}',
        'func find(id string) (*User, error) {\n\tu, err := lookup(id)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn u, nil\n}',
        'func load(path string) error {\n\tdata, err := os.ReadFile(path)\n\tif err != nil {\n\t\tlog.Printf("skip %s: %v", path, err)\n\t\treturn nil\n\t}\n\treturn parse(data)\n}',
      ],
    },
  },
  {
    id: 'go.commented-out-code',
    languages: ['go'],
    type: 'style',
    severity: 'info',
    message:
      'Commented-out code: version control keeps the old code, and a dead line in the file only misleads readers. Delete it.',
    rule: {
      ...codeComment,
      // A commented-out block is reported once, on its first line.
      not: { any: [{ regex: NOT_CODE_COMMENT }, { follows: codeComment }] },
    },
    examples: {
      invalid: [
        'func f() error {\n\tif err := push(); err != nil {\n\t\t// return d.retry.Schedule(ctx, job, 3)\n\t\treturn err\n\t}\n\treturn nil\n}',
        'func f() {\n\t// log.Printf("state %v", s)\n\trun()\n}',
        'func f() {\n\t// retries := 5\n\trun()\n}',
        'func f(w http.ResponseWriter, r *http.Request) {\n\t// if !a.auth.IsAdmin(r) {\n\t// \thttp.Error(w, "forbidden", http.StatusForbidden)\n\t// \treturn\n\t// }\n\trun()\n}',
      ],
      valid: [
        '// Handle decodes the event and records it.\nfunc Handle() {}',
        '//go:generate mockgen -source=store.go\nfunc f() {}',
        'func f() {\n\t// return early when the cache is warm\n\trun()\n}',
      ],
    },
  },
  {
    id: 'go.defer-in-loop',
    languages: ['go'],
    type: 'bug',
    severity: 'warning',
    message:
      'defer inside a loop runs only when the function returns, so resources opened in each iteration stay open until then (file descriptor or connection exhaustion). Close explicitly, or move the body into a function.',
    rule: {
      kind: 'defer_statement',
      inside: {
        stopBy: { any: [{ kind: 'func_literal' }, { kind: 'function_declaration' }, { kind: 'method_declaration' }] },
        kind: 'for_statement',
      },
    },
    examples: {
      invalid: [
        fn(
          'for _, p := range paths {\n\tf, err := os.Open(p)\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n}\nreturn nil',
        ),
        fn('for rows.Next() {\n\tmu.Lock()\n\tdefer mu.Unlock()\n}\nreturn nil'),
      ],
      valid: [
        fn(
          'for _, p := range paths {\n\tif err := func() error {\n\t\tf, err := os.Open(p)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\tdefer f.Close()\n\t\treturn nil\n\t}(); err != nil {\n\t\treturn err\n\t}\n}\nreturn nil',
        ),
        fn('f, err := os.Open(p)\nif err != nil {\n\treturn err\n}\ndefer f.Close()\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.ignored-write-error',
    languages: ['go'],
    type: 'bug',
    severity: 'important',
    message:
      'The error of a commit or write is thrown away with `_ =`, so a failed transaction or a lost write reports success: return (or handle) the error.',
    rule: {
      kind: 'assignment_statement',
      regex: '^_\\s*=',
      has: {
        field: 'right',
        has: callTo('^\\w+\\.(Commit|Flush|Sync|Save|Exec|ExecContext)$|^os\\.(WriteFile|Rename)$'),
      },
    },
    examples: {
      invalid: [fn('_ = tx.Commit()\nreturn nil'), fn('_ = os.WriteFile(path, data, 0o600)\nreturn nil')],
      valid: [
        fn('return tx.Commit()'),
        fn('defer func() { _ = tx.Rollback() }()\nreturn tx.Commit()'),
        fn('_ = f.Close()\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.insecure-random-id',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'math/rand is predictable: identifiers made with it in a session, auth or token package can be guessed. Use crypto/rand (rand.Read, or rand.Text in Go 1.24).',
    rule: {
      kind: 'call_expression',
      has: {
        field: 'function',
        regex: '^rand\\.(Intn|Int31n?|Int63n?|Uint32|Uint64|Int|IntN|Int64N|Uint64N|Read)$',
      },
      all: [
        {
          inside: {
            stopBy: 'end',
            kind: 'source_file',
            all: [
              {
                has: {
                  kind: 'package_clause',
                  regex: '(?i)^package\\s+(session|sessions|auth|authn|csrf|token|tokens|otp|apikeys?|secrets?)$',
                },
              },
              { has: { kind: 'import_declaration', regex: '"math/rand(/v2)?"', stopBy: 'end' } },
            ],
          },
        },
        {
          inside: {
            stopBy: 'end',
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }],
            has: { field: 'name', regex: '(?i)(id|key|code|token|secret|nonce)$' },
          },
        },
      ],
    },
    cwe: 'CWE-338',
    examples: {
      invalid: [
        'package session\n\nimport (\n\t"fmt"\n\t"math/rand"\n)\n\nfunc NewID() string {\n\treturn fmt.Sprintf("%016x%016x", rand.Uint64(), rand.Uint64())\n}',
        'package auth\n\nimport "math/rand"\n\nfunc resetCode() int {\n\treturn 100000 + rand.Intn(900000)\n}',
      ],
      valid: [
        'package session\n\nimport (\n\t"crypto/rand"\n\t"encoding/hex"\n)\n\nfunc NewID() string {\n\tb := make([]byte, 16)\n\t_, _ = rand.Read(b)\n\treturn hex.EncodeToString(b)\n}',
        'package session\n\nimport "math/rand"\n\nfunc jitter() int {\n\treturn rand.Intn(100)\n}',
        'package stats\n\nimport "math/rand"\n\nfunc sampleID() int {\n\treturn rand.Intn(10)\n}',
      ],
    },
  },
  {
    id: 'go.ignored-error',
    languages: ['go'],
    type: 'bug',
    severity: 'warning',
    message:
      'The error of a parse or decode is discarded, so bad input silently becomes a zero value. Check the error and reject the input.',
    rule: {
      any: [
        {
          kind: 'short_var_declaration',
          has: { field: 'left', regex: '^\\w+\\s*,\\s*_$' },
          all: [
            {
              has: {
                field: 'right',
                has: callTo(
                  '^(strconv\\.(Atoi|ParseInt|ParseUint|ParseFloat|ParseBool)|json\\.Marshal|url\\.Parse|time\\.Parse)$',
                ),
              },
            },
          ],
        },
        // Also a request body decoded and `rows.Scan(...)` with the error dropped: the row or input is a zero value.
        {
          kind: 'expression_statement',
          has: callTo(
            '^(json|xml|yaml)\\.Unmarshal$|^(json|xml)\\.NewDecoder\\(.*\\)\\.Decode$|^(rows?|\\w+Rows?)\\.Scan$',
          ),
        },
        {
          kind: 'assignment_statement',
          regex: '^_\\s*=',
          has: {
            field: 'right',
            has: callTo(
              '^(json|xml|yaml)\\.Unmarshal$|^(json|xml)\\.NewDecoder\\(.*\\)\\.Decode$|^(rows?|\\w+Rows?)\\.Scan$',
            ),
          },
        },
      ],
    },
    examples: {
      invalid: [
        handler('limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))\n_ = limit'),
        fn('json.Unmarshal(body, &cfg)\nreturn nil'),
        fn('_ = json.Unmarshal(body, &cfg)\nreturn nil'),
        handler('var in updateProfile\n_ = json.NewDecoder(r.Body).Decode(&in)\nsave(in)'),
        fn(
          'for rows.Next() {\n\tvar e Event\n\trows.Scan(&e.ID, &e.Kind)\n\tevents = append(events, e)\n}\nreturn nil',
        ),
      ],
      valid: [
        handler('limit, err := strconv.Atoi(r.URL.Query().Get("limit"))\n_, _ = limit, err'),
        fn('if err := json.Unmarshal(body, &cfg); err != nil {\n\treturn err\n}\nreturn nil'),
        fn(
          'for rows.Next() {\n\tvar e Event\n\tif err := rows.Scan(&e.ID, &e.Kind); err != nil {\n\t\treturn err\n\t}\n}\nreturn nil',
        ),
        fn('enc := json.NewEncoder(w)\n_ = enc.Encode(v)\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.debug-print',
    languages: ['go'],
    type: 'style',
    severity: 'info',
    message:
      'Debug output left in a handler or library code: println/fmt.Print write to stdout/stderr, bypassing the logger. Use the structured logger (log/slog) or remove it.',
    rule: {
      kind: 'call_expression',
      any: [
        { has: { field: 'function', kind: 'identifier', regex: '^(println|print)$' } },
        {
          has: { field: 'function', regex: '^fmt\\.(Print|Println|Printf)$' },
          inside: {
            stopBy: 'end',
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
            has: { field: 'parameters', regex: 'http\\.ResponseWriter|\\*gin\\.Context|echo\\.Context|\\*fiber\\.Ctx' },
          },
        },
        {
          has: { field: 'function', regex: '^fmt\\.(Print|Println|Printf)$' },
          inside: { stopBy: 'end', kind: 'method_declaration' },
          not: {
            inside: { stopBy: 'end', kind: 'source_file', has: { kind: 'package_clause', regex: '^package\\s+main$' } },
          },
        },
      ],
    },
    examples: {
      invalid: [
        handler('fmt.Println("got request", r.URL)\nw.WriteHeader(200)'),
        fn('println("here")\nreturn nil'),
        'package billing\n\nfunc (s *Service) Finalize(inv *Invoice) error {\n\tfmt.Println("finalize", inv.ID)\n\treturn nil\n}',
      ],
      valid: [
        'func main() {\n\tfmt.Println("usage: tool <file>")\n}',
        handler('log.Printf("got request %s", r.URL)\nfmt.Fprintln(w, "ok")'),
        'package main\n\nfunc (c *Cmd) Run() {\n\tfmt.Println("done")\n}',
      ],
    },
  },
  {
    id: 'go.xss-template-html',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'template.HTML (or JS/URL/HTMLAttr) marks a request value as safe, so html/template does not escape it: markup in the value runs in the page (XSS). Pass the plain string and let the template escape it.',
    rule: {
      kind: 'call_expression',
      all: [
        { has: { field: 'function', regex: '^template\\.(HTML|JS|URL|HTMLAttr|CSS|Srcset)$' } },
        argument(1, {
          any: [
            fromRequest,
            // A user-written field stored earlier: `template.HTML(user.Bio)`, `template.HTML(c.Body)`.
            {
              kind: 'selector_expression',
              has: {
                field: 'field',
                regex:
                  '^(Bio|Body|Comment|Comments|Content|Description|Message|Text|Title|Name|DisplayName|About|Note|Notes|Signature|Summary|Subject|Input|Query)$',
              },
            },
          ],
        }),
      ],
    },
    cwe: 'CWE-79',
    cvss: 6.1,
    examples: {
      invalid: [
        handler('bio := template.HTML(r.FormValue("bio"))\n_ = tmpl.Execute(w, bio)'),
        handler('name := r.URL.Query().Get("name")\ndata := template.HTML(name)\n_ = data'),
        handler('_ = tmpl.Execute(w, map[string]any{"Bio": template.HTML(user.Bio)})'),
      ],
      valid: [
        handler('_ = tmpl.Execute(w, map[string]any{"Bio": r.FormValue("bio")})'),
        handler('footer := template.HTML("<hr>")\n_ = footer'),
        handler('body := template.HTML(bluemonday.UGCPolicy().Sanitize(post.Body))\n_ = body'),
      ],
    },
  },
  {
    id: 'go.xss-fprintf-html',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'A request value is written into an HTML response without escaping: markup in the value runs in the page (XSS). Escape it with html.EscapeString, or render an html/template.',
    rule: {
      kind: 'call_expression',
      all: [
        { has: { field: 'function', regex: '^fmt\\.(Fprintf|Fprint|Fprintln)$|^io\\.WriteString$' } },
        argument(1, { kind: 'identifier', regex: '^(w|rw|writer|resp|res)$' }),
        argument(2, {
          any: [{ regex: '^["`][^"`]*<[a-zA-Z/!]' }, { has: { stopBy: 'end', regex: '^["`][^"`]*<[a-zA-Z/!]' } }],
        }),
        {
          has: {
            field: 'arguments',
            has: { not: { nthChild: 1 }, any: [fromRequest, { has: { stopBy: 'end', ...requestValue } }] },
          },
        },
        {
          not: {
            has: {
              field: 'arguments',
              has: {
                stopBy: 'end',
                kind: 'call_expression',
                regex: '^(html\\.EscapeString|template\\.HTMLEscapeString|url\\.QueryEscape)\\(',
              },
            },
          },
        },
      ],
    },
    cwe: 'CWE-79',
    cvss: 6.1,
    examples: {
      invalid: [
        handler('fmt.Fprintf(w, "<p>No results for %s</p>", r.URL.Query().Get("q"))'),
        handler('name := r.FormValue("name")\nfmt.Fprintf(w, "<h1>Hello %s</h1>", name)'),
      ],
      valid: [
        handler('fmt.Fprintf(w, "<p>No results for %s</p>", html.EscapeString(r.URL.Query().Get("q")))'),
        handler('fmt.Fprintf(w, "no results for %s", r.URL.Query().Get("q"))'),
        handler('fmt.Fprintf(w, "<p>%d results</p>", count)'),
      ],
    },
  },
  {
    id: 'go.xss-html-response',
    languages: ['go'],
    type: 'security',
    severity: 'important',
    message:
      'HTML built by concatenating or formatting a request value is sent as text/html without escaping (cross-site scripting): render it with html/template, or escape the value with html.EscapeString.',
    rule: {
      kind: 'call_expression',
      all: [
        // echo `c.HTML(code, html)`, gin `c.Data(code, "text/html", ...)`, `c.String` with an HTML content type is rarer.
        { has: { field: 'function', regex: '^(c|ctx)\\.HTML$' } },
        argument(2, {
          all: [
            { any: [formattedQuery, { kind: 'identifier' }] },
            { any: [{ regex: '<[a-zA-Z/!]' }, assignedFrom({ regex: '<[a-zA-Z/!]' }, '$PAGE')] },
            { any: [fromRequest, { has: { stopBy: 'end', ...fromRequest } }] },
          ],
        }),
        {
          not: {
            has: {
              field: 'arguments',
              has: {
                stopBy: 'end',
                kind: 'call_expression',
                regex: '^(html\\.EscapeString|template\\.HTMLEscapeString)\\(',
              },
            },
          },
        },
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        'func Search(c echo.Context) error {\n\tq := c.QueryParam("q")\n\treturn c.HTML(http.StatusOK, "<p>No results for <em>"+q+"</em></p>")\n}',
        'func Hello(c echo.Context) error {\n\treturn c.HTML(http.StatusOK, fmt.Sprintf("<h1>Hello %s</h1>", c.QueryParam("name")))\n}',
      ],
      valid: [
        'func Search(c echo.Context) error {\n\tq := c.QueryParam("q")\n\treturn c.HTML(http.StatusOK, "<p>No results for <em>"+html.EscapeString(q)+"</em></p>")\n}',
        'func Home(c echo.Context) error {\n\treturn c.HTML(http.StatusOK, "<p>"+siteName+"</p>")\n}',
      ],
    },
  },
  {
    id: 'go.off-by-one',
    languages: ['go'],
    type: 'bug',
    severity: 'important',
    message:
      'The loop runs while i <= len(x) and indexes x[i] (or while i < len(x) and indexes x[i+1]): the last iteration reads one past the end and panics (index out of range). Use i < len(x) (or i+1 < len(x)).',
    rule: {
      kind: 'binary_expression',
      any: [
        {
          all: [
            { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
            { has: { field: 'operator', regex: '^<=$' } },
            { has: { field: 'right', kind: 'call_expression', pattern: 'len($X)' } },
            {
              inside: {
                kind: 'for_clause',
                field: 'condition',
                inside: {
                  kind: 'for_statement',
                  has: {
                    field: 'body',
                    has: {
                      stopBy: 'end',
                      kind: 'index_expression',
                      all: [{ has: { field: 'operand', pattern: '$X' } }, { has: { field: 'index', pattern: '$I' } }],
                    },
                  },
                },
              },
            },
          ],
        },
        // `for i := 0; i < len(x); i++ { ... x[i+1] ... }` without an `i+1 < len(x)` guard in the body.
        {
          all: [
            { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
            { has: { field: 'operator', regex: '^<$' } },
            { has: { field: 'right', kind: 'call_expression', pattern: 'len($X)' } },
            {
              inside: {
                kind: 'for_clause',
                field: 'condition',
                inside: {
                  kind: 'for_statement',
                  has: {
                    field: 'body',
                    all: [
                      {
                        has: {
                          stopBy: 'end',
                          kind: 'index_expression',
                          all: [
                            { has: { field: 'operand', pattern: '$X' } },
                            { has: { field: 'index', pattern: '$I + 1' } },
                          ],
                        },
                      },
                      { not: { has: { stopBy: 'end', kind: 'call_expression', pattern: 'len($X)' } } },
                    ],
                  },
                },
              },
            },
          ],
        },
      ],
    },
    examples: {
      invalid: [
        fn('for i := 0; i <= len(row); i++ {\n\tsum += row[i]\n}\nreturn nil'),
        fn('for j := 1; j <= len(xs); j++ {\n\tif xs[j] > 0 {\n\t\tn++\n\t}\n}\nreturn nil'),
        fn('for i := 0; i < len(samples); i++ {\n\tout = append(out, samples[i+1]-samples[i])\n}\nreturn nil'),
      ],
      valid: [
        fn('for i := 0; i < len(row); i++ {\n\tsum += row[i]\n}\nreturn nil'),
        fn('for i := 1; i <= len(xs); i++ {\n\tprefix = append(prefix, xs[:i])\n}\nreturn nil'),
        fn('for i := 0; i < len(xs)-1; i++ {\n\tout = append(out, xs[i+1]-xs[i])\n}\nreturn nil'),
        fn(
          'for i := 0; i < len(xs); i++ {\n\tif i+1 < len(xs) {\n\t\tout = append(out, xs[i+1]-xs[i])\n\t}\n}\nreturn nil',
        ),
      ],
    },
  },
  {
    id: 'go.self-comparison',
    languages: ['go'],
    type: 'bug',
    severity: 'warning',
    message:
      'A field is compared with itself, so the result never changes: one side is probably a typo for another variable.',
    rule: {
      kind: 'binary_expression',
      any: [{ pattern: '$A == $A' }, { pattern: '$A != $A' }],
    },
    constraints: { A: { kind: 'selector_expression', not: { has: { stopBy: 'end', kind: 'call_expression' } } } },
    examples: {
      invalid: [
        fn('if local.Version != local.Version {\n\treturn nil\n}\nreturn nil'),
        fn('same := a.ID == a.ID\n_ = same\nreturn nil'),
      ],
      valid: [
        fn('if local.Version != remote.Version {\n\treturn nil\n}\nreturn nil'),
        fn('isNaN := x != x\n_ = isNaN\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.unreachable-code',
    languages: ['go'],
    type: 'bug',
    severity: 'warning',
    message:
      'This statement comes right after a return, panic, break or continue in the same block: it never runs (go vet reports it). Remove it.',
    rule: {
      any: [
        { kind: 'expression_statement' },
        { kind: 'return_statement' },
        { kind: 'short_var_declaration' },
        { kind: 'assignment_statement' },
        { kind: 'if_statement' },
        { kind: 'for_statement' },
        { kind: 'go_statement' },
        { kind: 'defer_statement' },
        { kind: 'inc_statement' },
        { kind: 'dec_statement' },
      ],
      follows: {
        any: [
          { kind: 'return_statement' },
          { kind: 'break_statement' },
          { kind: 'continue_statement' },
          {
            kind: 'expression_statement',
            has: {
              kind: 'call_expression',
              has: { field: 'function', regex: '^(panic|os\\.Exit|log\\.Fatal(f|ln)?)$' },
            },
          },
        ],
      },
    },
    examples: {
      invalid: [fn('return ErrGaveUp\npanic("unreachable")'), fn('for {\n\tbreak\n\tn++\n}\nreturn nil')],
      valid: [fn('if err != nil {\n\treturn err\n}\nreturn nil'), fn('n++\nreturn nil')],
    },
  },
  {
    id: 'go.query-in-loop',
    languages: ['go'],
    type: 'performance',
    severity: 'warning',
    message:
      'A SELECT (or a GORM First/Find) runs once per loop iteration (N+1 queries): one round trip per element. Fetch all rows at once, e.g. WHERE id = ANY($1) or IN (...) (db.Find(&rows, ids) in GORM), and index them in a map.',
    rule: {
      kind: 'call_expression',
      any: [
        {
          all: [
            {
              has: {
                field: 'function',
                regex: '\\.(Query|QueryRow|QueryContext|QueryRowContext|Get|Select|GetContext|SelectContext)$',
              },
            },
            { has: { field: 'arguments', has: { ...stringLiteral, regex: '(?i)^["`]\\s*select\\b' } } },
          ],
        },
        // GORM: `db.First(&p, id)`, `s.db.Where("sku = ?", sku).Find(&rows)`: the call that runs the query.
        {
          has: {
            field: 'function',
            kind: 'selector_expression',
            all: [
              { has: { field: 'field', regex: '^(First|Find|Take|Last|Count|Pluck)$' } },
              { has: { field: 'operand', regex: '(?i)(^|\\.)(db|tx|gormdb|orm)(\\.|$)' } },
            ],
          },
        },
      ],
      ...insideLoopBody,
    },
    examples: {
      invalid: [
        fn(
          'for _, id := range ids {\n\tif err := db.QueryRow("SELECT total FROM orders WHERE id = $1", id).Scan(&t); err != nil {\n\t\treturn err\n\t}\n}\nreturn nil',
        ),
        fn(
          'for _, u := range users {\n\trows, _ := db.Query("select * from posts where user_id = ?", u.ID)\n\t_ = rows\n}\nreturn nil',
        ),
        fn(
          'for _, item := range items {\n\tvar p Product\n\tif err := s.db.First(&p, item.ProductID).Error; err != nil {\n\t\treturn err\n\t}\n}\nreturn nil',
        ),
        fn('for _, u := range users {\n\tdb.Where("user_id = ?", u.ID).Find(&u.Posts)\n}\nreturn nil'),
      ],
      valid: [
        fn(
          'rows, err := db.Query("SELECT id, total FROM orders WHERE id = ANY($1)", pq.Array(ids))\n_ = rows\nreturn err',
        ),
        fn(
          'for _, o := range orders {\n\tif _, err := tx.Exec("UPDATE orders SET done = true WHERE id = $1", o.ID); err != nil {\n\t\treturn err\n\t}\n}\nreturn nil',
        ),
        fn(
          'var products []Product\nif err := s.db.Find(&products, ids).Error; err != nil {\n\treturn err\n}\nfor _, p := range products {\n\tbyID[p.ID] = p\n}\nreturn nil',
        ),
        fn('for _, k := range keys {\n\tv, _ := cache.Find(k)\n\t_ = v\n}\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.string-concat-in-loop',
    languages: ['go'],
    type: 'performance',
    severity: 'warning',
    message:
      'String += in a loop copies the whole string on every iteration (quadratic time). Use a strings.Builder, or strings.Join.',
    rule: {
      kind: 'assignment_statement',
      all: [
        { has: { field: 'operator', regex: '^\\+=$' } },
        {
          has: {
            field: 'right',
            any: [
              stringLiteral,
              { has: { stopBy: 'end', ...stringLiteral } },
              { kind: 'call_expression', regex: '^fmt\\.Sprint' },
            ],
          },
        },
        insideLoopBody,
      ],
    },
    examples: {
      invalid: [
        fn('out := ""\nfor _, line := range lines {\n\tout += line + "\\n"\n}\nreturn nil'),
        fn('for i := 0; i < n; i++ {\n\ts += fmt.Sprintf("%d,", i)\n}\nreturn nil'),
      ],
      valid: [
        fn('var b strings.Builder\nfor _, line := range lines {\n\tb.WriteString(line)\n}\nreturn nil'),
        fn('for _, x := range xs {\n\ttotal += x\n}\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.regexp-in-loop',
    languages: ['go'],
    type: 'performance',
    severity: 'warning',
    message:
      'A regular expression that does not change in the loop (a literal or a parameter) is compiled on every iteration. Compile it once, before the loop or in a package-level var emailRE = regexp.MustCompile(...).',
    rule: {
      kind: 'call_expression',
      all: [
        { has: { field: 'function', regex: '^regexp\\.(MustCompile|Compile|MustCompilePOSIX|CompilePOSIX)$' } },
        // A literal, or a parameter of the function: the same pattern on every iteration.
        argument(1, { any: [stringLiteral, functionParameter('$PATTERN')] }),
        insideLoopBody,
      ],
    },
    examples: {
      invalid: [
        fn(
          'for _, line := range lines {\n\tre := regexp.MustCompile(`\\d+`)\n\t_ = re.FindString(line)\n}\nreturn nil',
        ),
        fn('for {\n\tok, _ := regexp.MatchString("a", s)\n\tre, _ := regexp.Compile("^x$")\n\t_, _ = ok, re\n}'),
        'func Filter(lines []string, pattern string) []string {\n\tvar out []string\n\tfor _, line := range lines {\n\t\tre := regexp.MustCompile(pattern)\n\t\tif re.MatchString(line) {\n\t\t\tout = append(out, line)\n\t\t}\n\t}\n\treturn out\n}',
      ],
      valid: [
        fn('re := regexp.MustCompile(`\\d+`)\nfor _, line := range lines {\n\t_ = re.FindString(line)\n}\nreturn nil'),
        fn('for _, p := range patterns {\n\tres = append(res, regexp.MustCompile(p))\n}\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.decode-invariant-in-loop',
    languages: ['go'],
    type: 'performance',
    severity: 'warning',
    message:
      'The same bytes (a parameter of the function, unchanged by the loop) are decoded again on every iteration. Unmarshal them once before the loop and reuse the value.',
    rule: {
      kind: 'call_expression',
      all: [
        { has: { field: 'function', regex: '^(json|yaml|xml|toml)\\.Unmarshal$' } },
        argument(1, {
          any: [
            functionParameter('$RAW'),
            { regex: '^\\[\\]byte\\(\\w+\\)$', has: { stopBy: 'end', ...functionParameter('$RAW') } },
          ],
        }),
        insideLoopBody,
      ],
    },
    examples: {
      invalid: [
        'func Breaches(samples []Sample, raw []byte) ([]Sample, error) {\n\tvar out []Sample\n\tfor _, s := range samples {\n\t\tvar t Thresholds\n\t\tif err := json.Unmarshal(raw, &t); err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\tout = append(out, s)\n\t}\n\treturn out, nil\n}',
        'func Apply(items []Item, rules string) error {\n\tfor _, it := range items {\n\t\tvar r Rules\n\t\tif err := yaml.Unmarshal([]byte(rules), &r); err != nil {\n\t\t\treturn err\n\t\t}\n\t\tr.Apply(it)\n\t}\n\treturn nil\n}',
      ],
      valid: [
        'func Decode(lines [][]byte) ([]Event, error) {\n\tvar out []Event\n\tfor _, line := range lines {\n\t\tvar e Event\n\t\tif err := json.Unmarshal(line, &e); err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\tout = append(out, e)\n\t}\n\treturn out, nil\n}',
        'func Breaches(samples []Sample, raw []byte) error {\n\tvar t Thresholds\n\tif err := json.Unmarshal(raw, &t); err != nil {\n\t\treturn err\n\t}\n\tfor _, s := range samples {\n\t\tcheck(s, t)\n\t}\n\treturn nil\n}',
      ],
    },
  },
  {
    id: 'go.hardcoded-signing-key',
    languages: ['go'],
    type: 'security',
    severity: 'critical',
    message:
      'A signing or encryption key is written in the source as `[]byte("...")`: everyone with the code (or the binary) can forge tokens and signatures with it, and rotating it needs a release. Load it from the environment or a secret manager.',
    rule: {
      kind: 'type_conversion_expression',
      regex: '^\\[\\]byte\\(\\s*("[^"\\s]{16,}"|`[^`\\s]{16,}`)\\s*\\)$',
      not: { regex: '(?i)(change.?me|example|your|dummy|placeholder|xxxx|test)' },
      any: [
        {
          inside: {
            stopBy: 'end',
            all: [
              {
                any: [
                  { kind: 'var_spec' },
                  { kind: 'const_spec' },
                  { kind: 'short_var_declaration' },
                  { kind: 'assignment_statement' },
                ],
              },
              {
                any: ['name', 'left'].map((field) => ({
                  has: {
                    field,
                    regex:
                      '(?i)(secret|signing_?key|jwt_?key|hmac_?key|api_?key|private_?key|encryption_?key|secret_?key)$',
                  },
                })),
              },
            ],
          },
        },
        {
          inside: {
            kind: 'argument_list',
            inside: { kind: 'call_expression', has: { field: 'function', regex: '(\\.SignedString|^hmac\\.New)$' } },
          },
        },
      ],
    },
    cwe: 'CWE-798',
    cvss: 9.1,
    examples: {
      invalid: [
        'var signingKey = []byte("9f2c4e7a1b3d5f60a8c2e4f6b1d3a5c7")',
        fn('s, err := token.SignedString([]byte("k8Jd92hfQz0plM3nVb7xW4tY"))\n_ = s\nreturn err'),
      ],
      valid: [
        'var signingKey = []byte(os.Getenv("JWT_SIGNING_KEY"))',
        'var signingKey = []byte("change-me-in-production")',
        fn('payload := []byte("{\\"type\\":\\"verify-request\\"}")\n_ = payload\nreturn nil'),
      ],
    },
  },
  {
    id: 'go.js-vm-eval',
    languages: ['go'],
    type: 'security',
    severity: 'critical',
    message:
      'An embedded JavaScript (goja, otto, v8go) or Go (yaegi) interpreter runs source text that is not a constant: whoever writes that text runs code in the service, with the values and functions exposed to the VM (code injection). Evaluate only your own scripts, or offer a restricted expression language.',
    rule: {
      kind: 'call_expression',
      all: [
        {
          has: {
            field: 'function',
            kind: 'selector_expression',
            any: [
              { has: { field: 'field', regex: '^(RunString|RunScript|EvalString)$' } },
              {
                all: [
                  { has: { field: 'field', regex: '^(Run|Eval)$' } },
                  { has: { field: 'operand', regex: '^(vm|jsvm|js|rt|runtime|otto|interp|interpreter|i|engine)$' } },
                ],
              },
            ],
          },
        },
        {
          has: {
            field: 'arguments',
            has: {
              any: [
                { kind: 'identifier' },
                { kind: 'selector_expression' },
                { kind: 'binary_expression' },
                { kind: 'call_expression' },
              ],
              not: { regex: '^(ctx|context\\.\\w+\\(\\))$' },
            },
          },
        },
        {
          inside: {
            stopBy: 'end',
            kind: 'source_file',
            has: {
              stopBy: 'end',
              kind: 'import_spec',
              regex:
                '"(github\\.com/dop251/goja|github\\.com/robertkrimen/otto|rogchap\\.com/v8go|github\\.com/traefik/yaegi/interp)"',
            },
          },
        },
      ],
    },
    cwe: 'CWE-94',
    cvss: 9.8,
    examples: {
      invalid: [
        'import "github.com/dop251/goja"\n\nfunc Evaluate(rule Rule) (bool, error) {\n\tvm := goja.New()\n\tv, err := vm.RunString(rule.Expression)\n\tif err != nil {\n\t\treturn false, err\n\t}\n\treturn v.ToBoolean(), nil\n}',
        'import "github.com/robertkrimen/otto"\n\nfunc Run(src string) error {\n\tvm := otto.New()\n\t_, err := vm.Run(src)\n\treturn err\n}',
      ],
      valid: [
        'import "github.com/dop251/goja"\n\nfunc Version() (string, error) {\n\tvm := goja.New()\n\tv, err := vm.RunString("1 + 1")\n\tif err != nil {\n\t\treturn "", err\n\t}\n\treturn v.String(), nil\n}',
        'import "os/exec"\n\nfunc Run(src string) error {\n\treturn engine.Eval(src)\n}',
      ],
    },
  },
];
