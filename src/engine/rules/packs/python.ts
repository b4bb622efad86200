import type { Rule } from '../rule-schema.js';

/**
 * Python rules. Precision first: each rule matches a shape that is wrong where it appears (a
 * query built by formatting, a shell command that is not a literal), not a name that is only
 * sometimes dangerous. Data flow is followed only inside one function, from a request value
 * assigned to a variable to the sink that takes that variable.
 */

/** A string literal without interpolation: `"ls"`, `'x'`, `f"static"`. */
const plainString = { kind: 'string', not: { has: { kind: 'interpolation' } } };

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
function fromRequest(): Record<string, unknown> {
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

/** A path passed through a sanitiser: `secure_filename(name)`, `os.path.basename(name)`. */
const PATH_SANITIZED = {
  has: {
    stopBy: 'end',
    kind: 'call',
    regex: '^(secure_filename|os\\.path\\.basename|werkzeug\\.utils\\.secure_filename)\\(',
  },
};

/** Names that hold secrets: `token`, `reset_token`, `user.password`, `api_key`, `otp`. */
/** HTML built by formatting with a request value, not escaped: `f"<h1>{request.args['q']}</h1>"`. */
const htmlFromRequest = {
  any: [
    { kind: 'string', has: { kind: 'interpolation' } },
    { kind: 'binary_operator', has: { stopBy: 'end', kind: 'string' } },
    { kind: 'call', has: { field: 'function', kind: 'attribute', regex: '^["\'].*\\.format$' } },
  ],
  regex: '<[a-zA-Z][^>]*>',
  all: [
    fromRequest(),
    {
      not: {
        has: {
          stopBy: 'end',
          kind: 'call',
          regex: '^(escape|markupsafe\\.escape|html\\.escape|bleach\\.clean)\\(',
        },
      },
    },
  ],
};

/** A Django queryset that does not load its relations: `Comment.objects.filter(...)[:100]`. */
const lazyQueryset = {
  regex: '^[A-Z]\\w*\\.objects\\.',
  not: { regex: '\\.(select_related|prefetch_related|values|values_list|in_bulk|count|exists|aggregate)\\(' },
};
/** Attribute names that are fields, not relations: timestamps, ids, data and text columns. */
const NOT_RELATION =
  '(_at|_on|_id|_date|_time|_json|_data|_set|_count)$|^(id|pk|date|time|data|meta|metadata|payload|config|settings|extra|name|title|body|text|email|slug|status|state|amount|total|price|kind|type|objects|_meta|__class__|__dict__)$';

/** A statement of an except handler that does nothing with the error. */
const HANDLER_NO_OP = [
  { kind: 'pass_statement' },
  { kind: 'continue_statement' },
  { kind: 'return_statement', regex: '^return(\\s+None)?$' },
];

/** A write inside the try block: the handler that swallows its error loses the data. */
const WRITE_IN_TRY = {
  inside: {
    kind: 'try_statement',
    has: {
      field: 'body',
      has: {
        stopBy: 'end',
        kind: 'call',
        has: {
          field: 'function',
          regex:
            '\\.(save|create|bulk_create|update|bulk_update|update_or_create|upsert|insert\\w*|delete|commit|push\\w*|write|writerows?)$|^(push|save|store|persist|write|insert|upsert|sync|export)_\\w+$',
        },
      },
    },
  },
};

/** An except handler that catches everything and does nothing with it (plus `extra`). */
function swallowedException(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'except_clause',
    all: [
      {
        any: [
          {
            not: {
              has: {
                any: [{ kind: 'identifier' }, { kind: 'attribute' }, { kind: 'tuple' }, { kind: 'as_pattern' }],
              },
            },
          },
          { has: { kind: 'identifier', regex: '^(Exception|BaseException)$' } },
          { has: { kind: 'as_pattern', has: { kind: 'identifier', regex: '^(Exception|BaseException)$' } } },
        ],
      },
      // The handler does nothing: `pass`, `continue`, or a bare `return` / `return None` that hides the
      // failure from the caller as an ordinary empty result.
      { has: { kind: 'block', not: { has: { not: { any: HANDLER_NO_OP } } } } },
      { not: { has: { stopBy: 'end', kind: 'comment' } } },
      extra,
    ],
  };
}

/** A comment that is a line of code: a call, an assignment, a decorator or an import. */
const COMMENTED_CODE =
  '^#\\s*(await\\s+|return\\s+)?[A-Za-z_]\\w*(\\.\\w+)*\\(.*\\)\\s*$|^#\\s*[A-Za-z_]\\w*(\\.\\w+)*\\s*=\\s*[\\w"\'\\[{(].*$' +
  // A decorator or an import: `# @login_required`, `# from .tasks import send_digest`.
  '|^#\\s*@[A-Za-z_][\\w.]*(\\(.*\\))?\\s*$|^#\\s*import\\s+[\\w.]+(\\s+as\\s+\\w+)?(\\s*,\\s*[\\w.]+)*\\s*$|^#\\s*from\\s+\\.*[\\w.]*\\s+import\\s+[\\w, ()*]+$';

/** A one-time code sent to prove identity: `login_code`, `verification_code`, `pin`, `passcode`. */
const ONE_TIME_CODE =
  '(login|signin|verification|verify|confirmation|confirm|auth|mfa|2fa|sms|email|one_?time|reset|activation|invite|access|security|pass)_?code|pin|passcode';
const SECRET_NAME = `(?i)(^|[._])(token|password|passwd|secret|nonce|salt|otp|api_?key|session_?id|csrf_?token|${ONE_TIME_CODE})$`;
const SECRET_FUNCTION = `(?i)(^|_)(token|password|passwd|secret|nonce|salt|otp|api_?key|${ONE_TIME_CODE})(_|$)`;

/** The call's first argument matches `rule`. */
function firstArgument(rule: Record<string, unknown>): Record<string, unknown> {
  return { has: { field: 'arguments', has: { nthChild: 1, ...rule } } };
}

/** Inside the body of a `for` or `while` loop (not its header, not a comprehension). */
const inLoopBody = {
  inside: {
    stopBy: { kind: 'function_definition' },
    kind: 'block',
    inside: { any: [{ kind: 'for_statement' }, { kind: 'while_statement' }] },
  },
};

/** A string literal, alone or implicitly concatenated: `"a"`, `"a " "b"`. */
const STRING_LITERAL = { any: [{ kind: 'string' }, { kind: 'concatenated_string' }] };

/** A string built by formatting: f-string, `%`, concatenation with a value, or `"...".format(...)`. */
const FORMATTED_STRING = {
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
const ONLY_SAFE_VALUES = {
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
const UNSAFE_FORMATTED_STRING = { all: [FORMATTED_STRING, { not: ONLY_SAFE_VALUES }] };
/** Text that reads as SQL. */
const SQL_TEXT = {
  regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from|where|order\\s+by)\\b',
};

/** A call that runs a non-literal command through a shell: `os.system(cmd)`, `subprocess.run(cmd, shell=True)`. */
const SHELL_SINK = {
  kind: 'call',
  any: [
    {
      all: [
        { has: { field: 'function', regex: '^(os\\.(system|popen|popen2|popen3)|commands\\.getoutput)$' } },
        firstArgument({ not: plainString }),
      ],
    },
    {
      all: [
        {
          has: {
            field: 'function',
            regex: '^subprocess\\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)$',
          },
        },
        { has: { field: 'arguments', has: { kind: 'keyword_argument', regex: '^shell\\s*=\\s*True$' } } },
        firstArgument({ not: { any: [plainString, { kind: 'list' }, { kind: 'tuple' }] } }),
      ],
    },
    {
      all: [
        { has: { field: 'function', regex: '^subprocess\\.(getoutput|getstatusoutput)$' } },
        firstArgument({ not: plainString }),
      ],
    },
  ],
};

/**
 * A call of a function of this file that hands one of its parameters to a shell, with an argument
 * built by formatting: `_git(repo, "log --author='%s'" % author)`.
 */
const callOfHelperWithBuiltString = {
  kind: 'call',
  all: [
    { has: { field: 'function', kind: 'identifier', pattern: '$HELPER' } },
    { has: { field: 'arguments', has: FORMATTED_STRING } },
    {
      inside: {
        stopBy: 'end',
        kind: 'module',
        has: {
          stopBy: 'end',
          kind: 'function_definition',
          all: [
            { has: { field: 'name', pattern: '$HELPER' } },
            { has: { field: 'body', has: { stopBy: 'end', ...SHELL_SINK } } },
          ],
        },
      },
    },
  ],
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

export const pythonRules: Rule[] = [
  {
    id: 'py.sql-injection',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'SQL query built by string formatting: a value containing a quote changes the query (SQL injection). Pass values as parameters instead: cursor.execute("... WHERE id = %s", (value,)).',
    rule: {
      kind: 'call',
      all: [
        {
          has: {
            field: 'function',
            kind: 'attribute',
            has: { field: 'attribute', regex: '^(execute|executemany|executescript|raw|mogrify)$' },
          },
        },
        firstArgument({
          any: [
            UNSAFE_FORMATTED_STRING,
            // Built in a variable first, in the same function: `query = f"SELECT ..."; cursor.execute(query)`,
            // or wrapped by SQLAlchemy: `stmt = text("... {}".format(x)); session.execute(stmt)`.
            {
              kind: 'identifier',
              pattern: '$QUERY',
              inside: {
                stopBy: 'end',
                kind: 'function_definition',
                has: {
                  stopBy: 'end',
                  kind: 'assignment',
                  all: [
                    { has: { field: 'left', pattern: '$QUERY' } },
                    {
                      has: {
                        field: 'right',
                        any: [
                          { all: [UNSAFE_FORMATTED_STRING, SQL_TEXT] },
                          {
                            kind: 'call',
                            has: { field: 'function', regex: '^(text|sa\\.text|sqlalchemy\\.text)$' },
                            all: [firstArgument({ all: [UNSAFE_FORMATTED_STRING, SQL_TEXT] })],
                          },
                        ],
                      },
                    },
                  ],
                },
              },
            },
            // Built by a helper of the same file: `cursor.execute(_stock_sql(warehouse))` where
            // `def _stock_sql(w): return f"SELECT ... WHERE code = '{w}'"`.
            {
              kind: 'call',
              has: {
                field: 'function',
                kind: 'identifier',
                pattern: '$BUILDER',
                inside: {
                  stopBy: 'end',
                  kind: 'module',
                  has: {
                    stopBy: 'end',
                    kind: 'function_definition',
                    all: [
                      { has: { field: 'name', pattern: '$BUILDER' } },
                      {
                        has: {
                          field: 'body',
                          has: {
                            stopBy: 'end',
                            kind: 'return_statement',
                            has: { all: [UNSAFE_FORMATTED_STRING, SQL_TEXT] },
                          },
                        },
                      },
                    ],
                  },
                },
              },
            },
          ],
        }),
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        'cursor.execute(f"SELECT * FROM users WHERE name = \'{name}\'")',
        'cur.execute("SELECT * FROM users WHERE id = %s" % user_id)',
        'db.execute("DELETE FROM items WHERE owner = \'" + owner + "\'")',
        'cursor.execute("SELECT * FROM t WHERE a = \'{}\'".format(a))',
        'User.objects.raw(f"SELECT * FROM auth_user WHERE email = \'{email}\'")',
        'def revenue(request):\n    region = request.GET.get("region")\n    query = f"SELECT month FROM sales WHERE region = \'{region}\'"\n    with connection.cursor() as cursor:\n        cursor.execute(query)',
        'def list_tickets(session, sort):\n    stmt = text("SELECT * FROM tickets ORDER BY {}".format(sort))\n    return session.execute(stmt).all()',
        'def top(session, sort):\n    q = text(\n        "SELECT id FROM standings "\n        "ORDER BY {} DESC".format(sort)\n    )\n    return session.execute(q, {}).all()',
        'def _stock_sql(code):\n    return f"SELECT sku FROM stock WHERE code = \'{code}\'"\n\ndef report(cursor, code):\n    cursor.execute(_stock_sql(code))',
      ],
      valid: [
        'cursor.execute("SELECT * FROM users WHERE id = %s", (user_id,))',
        'def players(session, sort):\n    column = SORT_COLUMNS.get(sort, "points")\n    q = text(f"SELECT id FROM players WHERE team = :t ORDER BY {column}")\n    return session.execute(q, {"t": 1}).all()',
        'def page(cursor, limit):\n    cursor.execute(f"SELECT id FROM t ORDER BY id LIMIT {int(limit)}")',
        'def _stock_sql():\n    return "SELECT sku FROM stock WHERE code = %s"\n\ndef report(cursor, code):\n    cursor.execute(_stock_sql(), (code,))',
        'cursor.execute("SELECT * FROM users WHERE name = ?", [name])',
        'cursor.execute("SELECT * FROM users " + "ORDER BY id")',
        'logger.info(f"deleted {count} rows")',
        'def revenue(region):\n    query = "SELECT month FROM sales WHERE region = %s"\n    cursor.execute(query, (region,))',
        'def list_tickets(session, project_id):\n    stmt = text("SELECT * FROM tickets WHERE project_id = :p")\n    return session.execute(stmt, {"p": project_id}).all()',
      ],
    },
  },
  {
    id: 'py.command-injection',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'Shell command built from a non-literal string: shell metacharacters in the value run extra commands (command injection). Pass an argument list without shell=True, e.g. subprocess.run(["ls", path]).',
    rule: {
      kind: 'call',
      all: [
        { any: SHELL_SINK.any },
        // A shell helper of this file called with a formatted string: reported where the caller builds
        // the string (py.command-injection-helper), once.
        {
          not: {
            inside: {
              stopBy: 'end',
              kind: 'function_definition',
              has: { field: 'name', pattern: '$HELPER' },
              inside: { stopBy: 'end', kind: 'module', has: { stopBy: 'end', ...callOfHelperWithBuiltString } },
            },
          },
        },
      ],
    },
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        'os.system("rm -rf " + path)',
        'os.system(f"convert {src} {dst}")',
        'out = os.popen("ping -c 1 %s" % host).read()',
        'subprocess.run(f"tar xzf {archive}", shell=True)',
        'subprocess.check_output(cmd, shell=True)',
        'def _git(repo, args):\n    return subprocess.check_output("git -C %s %s" % (repo, args), shell=True)\n\ndef head(repo):\n    return _git(repo, "rev-parse HEAD")',
      ],
      valid: [
        'os.system("make clean")',
        'subprocess.run(["tar", "xzf", archive])',
        'subprocess.run("ls -la", shell=True)',
        'subprocess.run(["ls", path], shell=False)',
        'def _git(repo, args):\n    return subprocess.check_output("git -C %s %s" % (repo, args), shell=True)\n\ndef log(repo, author):\n    return _git(repo, "log --author=\'%s\'" % author)',
      ],
    },
  },
  {
    id: 'py.command-injection-helper',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'A string built from a value is passed to a helper of this file that runs it through a shell (shell=True / os.system): shell metacharacters in the value run extra commands (command injection). Make the helper take an argument list and call subprocess without shell=True.',
    rule: callOfHelperWithBuiltString,
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        'def _git(repo, args):\n    return subprocess.check_output("git -C %s %s" % (repo, args), shell=True)\n\ndef log(repo, author):\n    return _git(repo, "log --author=\'%s\'" % author)',
        'def sh(cmd):\n    os.system(cmd)\n\ndef convert(src):\n    sh(f"convert {src} out.png")',
      ],
      valid: [
        'def _git(repo, args):\n    return subprocess.check_output(["git", "-C", repo, *args])\n\ndef log(repo, author):\n    return _git(repo, ["log", "--author=%s" % author])',
        'def sh(cmd):\n    os.system(cmd)\n\ndef clean():\n    sh("make clean")',
        'def convert(src):\n    report(f"converted {src}")',
      ],
    },
  },
  {
    id: 'py.eval',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'eval/exec of a string built from data (formatting, concatenation, request values, input()) runs whatever code the value holds (code injection). Parse data with ast.literal_eval or json.loads, or dispatch on a fixed set of names.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'function', kind: 'identifier', regex: '^(eval|exec)$' } },
        firstArgument({
          any: [
            { kind: 'string', has: { kind: 'interpolation' } },
            { kind: 'binary_operator', has: { stopBy: 'end', kind: 'string' } },
            { kind: 'call', has: { field: 'function', regex: '\\.format$|^input$' } },
            { regex: '^sys\\.argv\\b' },
            // Code kept as data: `exec(workflow.script, ns)`, `eval(rule.expression)`.
            {
              kind: 'attribute',
              has: {
                field: 'attribute',
                regex: '(?i)^(script|code|source|source_code|expr|expression|formula|snippet|python_code)$',
              },
            },
            fromRequest(),
          ],
        }),
      ],
    },
    cwe: 'CWE-95',
    cvss: 9.8,
    examples: {
      invalid: [
        'result = eval(request.args["expr"])',
        'exec("import " + module_name)',
        'value = eval(f"{a} + {b}")',
        'def calc():\n    expr = request.form["expr"]\n    return eval(expr)',
        'exec(workflow.script, namespace)',
      ],
      valid: [
        'eval("1 + 2")',
        'model.eval()',
        'value = ast.literal_eval(text)',
        'exec(compiled, namespace)',
        'exec(compile(tree, filename, "exec"), namespace)',
      ],
    },
  },
  {
    id: 'py.sql-injection-orm',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'Raw SQL handed to the ORM (SQLAlchemy text(), Django .extra()/RawSQL) is built by string formatting: a value containing a quote changes the query (SQL injection). Use bound parameters: text("... WHERE a = :a").bindparams(a=value), or params=[...].',
    rule: {
      kind: 'call',
      any: [
        // SQLAlchemy `text(f"...")`, `sa.text("...".format(x))`, Django `RawSQL("..." % x, ())`.
        {
          all: [
            { has: { field: 'function', regex: '^(text|sa\\.text|sqlalchemy\\.text|RawSQL)$' } },
            // Kept in a variable that is executed in the same function: reported on the execute line.
            {
              not: {
                inside: {
                  kind: 'assignment',
                  has: { field: 'left', pattern: '$STMT' },
                  inside: {
                    stopBy: 'end',
                    kind: 'function_definition',
                    has: {
                      stopBy: 'end',
                      kind: 'call',
                      all: [
                        { has: { field: 'function', regex: '\\.(execute|scalars|scalar)$' } },
                        firstArgument({ pattern: '$STMT' }),
                      ],
                    },
                  },
                },
              },
            },
            firstArgument({
              all: [
                { regex: '(?i)\\b(select|insert|update|delete|where|order\\s+by)\\b' },
                { not: ONLY_SAFE_VALUES },
                {
                  any: [
                    { kind: 'string', has: { kind: 'interpolation' } },
                    {
                      kind: 'binary_operator',
                      has: { field: 'left', stopBy: 'end', kind: 'string' },
                      not: { has: { field: 'right', kind: 'string' } },
                    },
                    { kind: 'call', has: { field: 'function', kind: 'attribute', regex: '^["\'].*\\.format$' } },
                  ],
                },
              ],
            }),
          ],
        },
        // Django `qs.extra(where=[f"title LIKE '%{q}%'"])`.
        {
          all: [
            { has: { field: 'function', kind: 'attribute', has: { field: 'attribute', regex: '^extra$' } } },
            {
              has: {
                field: 'arguments',
                has: {
                  kind: 'keyword_argument',
                  regex: '^(where|select|tables|order_by)\\s*=',
                  has: {
                    stopBy: 'end',
                    any: [
                      { kind: 'string', has: { kind: 'interpolation' } },
                      { kind: 'binary_operator', has: { field: 'left', kind: 'string' } },
                      { kind: 'call', has: { field: 'function', kind: 'attribute', regex: '^["\'].*\\.format$' } },
                    ],
                  },
                },
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        'rows = conn.execute(text("SELECT id FROM articles WHERE title ILIKE \'%{}%\'".format(term)))',
        'q = text(f"SELECT * FROM users WHERE email = \'{email}\'")',
        'return self.extra(where=[f"title ILIKE \'%%{q}%%\'"])',
        'qs = Post.objects.extra(where=["author_id = %s" % author_id])',
      ],
      valid: [
        'rows = conn.execute(text("SELECT id FROM articles WHERE title ILIKE :term"), {"term": f"%{term}%"})',
        'return self.extra(where=["title ILIKE %s"], params=[f"%{q}%"])',
        'label = text(f"Hello {name}")',
        'def list_tickets(session, sort):\n    stmt = text("SELECT * FROM tickets ORDER BY {}".format(sort))\n    return session.execute(stmt).all()',
      ],
    },
  },
  {
    id: 'py.html-response-fstring',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'HTML built with an f-string or concatenation from request values is returned unescaped (cross-site scripting): render a template (Jinja escapes by default) or wrap the values in markupsafe.escape().',
    rule: {
      any: [
        {
          kind: 'return_statement',
          has: {
            any: [
              htmlFromRequest,
              // `return f"<p>{request.path}</p>", 404`: the body and the status code.
              { kind: 'expression_list', has: { nthChild: 1, ...htmlFromRequest } },
            ],
          },
        },
        {
          kind: 'call',
          has: { field: 'function', regex: '^(make_response|Response|HttpResponse|HTMLResponse)$' },
          all: [
            firstArgument({
              any: [
                { kind: 'string', has: { kind: 'interpolation' } },
                { kind: 'binary_operator', has: { stopBy: 'end', kind: 'string' } },
              ],
              regex: '<[a-zA-Z][^>]*>',
              all: [
                fromRequest(),
                {
                  not: {
                    has: {
                      stopBy: 'end',
                      kind: 'call',
                      regex: '^(escape|markupsafe\\.escape|html\\.escape|bleach\\.clean)\\(',
                    },
                  },
                },
              ],
            }),
          ],
        },
      ],
    },
    cwe: 'CWE-79',
    examples: {
      invalid: [
        'def hello():\n    name = request.args.get("name", "")\n    return f"<h1>Hello {name}</h1>"',
        'return HttpResponse("<p>" + request.GET["q"] + "</p>")',
        'def not_found(error):\n    return f"<p>No page at {request.path}</p>", 404',
      ],
      valid: [
        'def hello():\n    name = request.args.get("name", "")\n    return f"<h1>Hello {escape(name)}</h1>"',
        'def hello():\n    return render_template("hello.html", name=request.args.get("name"))',
        'def label(count):\n    return f"<b>{count}</b>"',
        'def not_found(error):\n    return f"<p>No page at {escape(request.path)}</p>", 404',
      ],
    },
  },
  {
    id: 'py.unsafe-deserialization',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'pickle, marshal, dill and shelve run code while loading: untrusted bytes become remote code execution (unsafe deserialization). Load data with json, or sign and verify what you unpickle.',
    rule: {
      kind: 'call',
      has: {
        field: 'function',
        regex: '^(c?[Pp]ickle|_pickle|dill|marshal|jsonpickle)\\.(loads?|Unpickler|decode)$|^shelve\\.open$',
      },
    },
    cwe: 'CWE-502',
    cvss: 8.1,
    examples: {
      invalid: [
        'obj = pickle.loads(request.data)',
        'with open(p, "rb") as f:\n    model = pickle.load(f)',
        'code = marshal.loads(blob)',
      ],
      valid: ['obj = json.loads(request.data)', 'data = pickle.dumps(obj)', 'loader.load(f)'],
    },
  },
  {
    id: 'py.yaml-load',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'yaml.load without a safe Loader can build arbitrary Python objects from the document (unsafe deserialization). Use yaml.safe_load.',
    rule: { pattern: 'yaml.load($DOC)' },
    fix: 'yaml.safe_load($DOC)',
    cwe: 'CWE-502',
    cvss: 8.1,
    examples: {
      invalid: ['config = yaml.load(f)', 'data = yaml.load(request.data)'],
      valid: ['config = yaml.safe_load(f)', 'config = yaml.load(f, Loader=yaml.SafeLoader)'],
    },
  },
  {
    id: 'py.yaml-unsafe-loader',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'yaml.load with an unsafe Loader (Loader, FullLoader, UnsafeLoader) or yaml.unsafe_load can build arbitrary Python objects (unsafe deserialization). Use yaml.safe_load or Loader=yaml.SafeLoader.',
    rule: {
      any: [
        { pattern: 'yaml.unsafe_load($$$)' },
        { pattern: 'yaml.full_load($$$)' },
        {
          pattern: 'yaml.load($DOC, $$$REST)',
          has: {
            field: 'arguments',
            any: [
              {
                has: {
                  kind: 'keyword_argument',
                  has: { field: 'value', regex: '^(yaml\\.)?(Loader|FullLoader|UnsafeLoader)$' },
                },
              },
              { has: { nthChild: 2, regex: '^(yaml\\.)?(Loader|FullLoader|UnsafeLoader)$' } },
            ],
          },
        },
      ],
    },
    cwe: 'CWE-502',
    cvss: 8.1,
    examples: {
      invalid: [
        'data = yaml.load(f, Loader=yaml.Loader)',
        'data = yaml.unsafe_load(text)',
        'data = yaml.load(text, Loader=FullLoader)',
      ],
      valid: [
        'data = yaml.load(f, Loader=yaml.SafeLoader)',
        'data = yaml.load(f, Loader=yaml.CSafeLoader)',
        'data = yaml.safe_load(text)',
      ],
    },
  },
  {
    id: 'py.tls-verify-disabled',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'verify=False turns off TLS certificate checking: anyone on the network path can read and alter the traffic. Keep verification on, and pass verify="/path/to/ca.pem" for a private CA.',
    rule: {
      kind: 'keyword_argument',
      regex: '^verify\\s*=\\s*False$',
      inside: {
        kind: 'argument_list',
        inside: {
          kind: 'call',
          has: {
            field: 'function',
            regex: '(^|\\.)(get|post|put|patch|delete|head|options|request|send|Client|AsyncClient|stream)$',
          },
        },
      },
    },
    fix: 'verify=True',
    cwe: 'CWE-295',
    cvss: 7.4,
    examples: {
      invalid: [
        'r = requests.get(url, verify=False)',
        'resp = session.post(api, json=body, verify=False)',
        'client = httpx.Client(verify=False)',
      ],
      valid: [
        'r = requests.get(url, verify=True)',
        'r = requests.get(url, verify="/etc/ssl/ca.pem")',
        'token = jwt.encode(payload, key)',
      ],
    },
  },
  {
    id: 'py.ssl-unverified-context',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'An SSL context without certificate verification (ssl._create_unverified_context, CERT_NONE) accepts any server: the connection can be intercepted. Use ssl.create_default_context().',
    rule: {
      any: [{ pattern: 'ssl._create_unverified_context($$$)' }, { kind: 'attribute', regex: '^ssl\\.CERT_NONE$' }],
    },
    cwe: 'CWE-295',
    cvss: 7.4,
    examples: {
      invalid: ['ctx = ssl._create_unverified_context()', 'ctx.verify_mode = ssl.CERT_NONE'],
      valid: ['ctx = ssl.create_default_context()', 'ctx.verify_mode = ssl.CERT_REQUIRED'],
    },
  },
  {
    id: 'py.weak-hash',
    languages: ['python'],
    type: 'security',
    severity: 'warning',
    message:
      'MD5 and SHA-1 are broken for security use (collisions are practical). Use hashlib.sha256, or a password hash (bcrypt, scrypt, argon2) for passwords; pass usedforsecurity=False for a non-security checksum.',
    rule: {
      any: [
        { pattern: 'hashlib.md5($$$)' },
        { pattern: 'hashlib.sha1($$$)' },
        {
          pattern: 'hashlib.new($$$)',
          has: { field: 'arguments', has: { nthChild: 1, regex: '^[\'"](md5|sha1|MD5|SHA1)[\'"]$' } },
        },
      ],
      not: { has: { field: 'arguments', has: { kind: 'keyword_argument', regex: '^usedforsecurity\\s*=\\s*False$' } } },
    },
    cwe: 'CWE-328',
    cvss: 5.3,
    examples: {
      invalid: [
        'digest = hashlib.md5(password.encode()).hexdigest()',
        'h = hashlib.sha1(data)',
        'h = hashlib.new("md5", data)',
      ],
      valid: [
        'digest = hashlib.sha256(data).hexdigest()',
        'etag = hashlib.md5(body, usedforsecurity=False).hexdigest()',
      ],
    },
  },
  {
    id: 'py.insecure-random',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'The random module is predictable (Mersenne Twister): a token, password or key made with it can be guessed. Use the secrets module (secrets.token_urlsafe, secrets.choice).',
    rule: {
      kind: 'call',
      has: {
        field: 'function',
        regex: '^random\\.(random|randint|randrange|choice|choices|sample|getrandbits|randbytes|shuffle|uniform)$',
      },
      any: [
        { inside: { stopBy: 'end', kind: 'assignment', has: { field: 'left', regex: SECRET_NAME } } },
        { inside: { stopBy: 'end', kind: 'function_definition', has: { field: 'name', regex: SECRET_FUNCTION } } },
      ],
    },
    cwe: 'CWE-338',
    cvss: 7.5,
    examples: {
      invalid: [
        'reset_token = "".join(random.choice(ALPHABET) for _ in range(32))',
        'def generate_password(n):\n    return "".join(random.choices(CHARS, k=n))',
        'user.password = str(random.randint(100000, 999999))',
        'def send_login_code(user):\n    code = f"{random.randint(0, 999999):06d}"',
        'verification_code = str(random.randint(100000, 999999))',
      ],
      valid: [
        'reset_token = secrets.token_urlsafe(32)',
        'delay = random.uniform(0.5, 1.5)',
        'num_tokens = random.randint(1, 10)',
        'def tokenize(text):\n    random.shuffle(words)',
      ],
    },
  },
  {
    id: 'py.path-traversal',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'A file path taken from the request: "../" in the value reads or writes files outside the intended folder (path traversal). Use werkzeug.utils.secure_filename or send_from_directory, or check the resolved path stays under the base.',
    rule: {
      kind: 'call',
      any: [
        {
          all: [
            {
              has: {
                field: 'function',
                regex:
                  '^(open|io\\.open|codecs\\.open|send_file|os\\.remove|os\\.unlink|shutil\\.rmtree|FileResponse)$',
              },
            },
            firstArgument({ ...fromRequest(), not: PATH_SANITIZED }),
          ],
        },
        // pathlib on a path built from the request: `(BASE / name).read_text()`, `target.unlink()`.
        {
          has: {
            field: 'function',
            kind: 'attribute',
            all: [
              {
                has: {
                  field: 'attribute',
                  regex: '^(read_text|read_bytes|write_text|write_bytes|open|unlink|rmdir|touch)$',
                },
              },
              {
                has: {
                  field: 'object',
                  any: [
                    { ...fromRequest(), not: PATH_SANITIZED },
                    { kind: 'parenthesized_expression', has: { ...fromRequest(), not: PATH_SANITIZED } },
                  ],
                },
              },
            ],
          },
        },
        // An upload saved under the name the client sent: `f.save(os.path.join(UPLOADS, f.filename))`.
        {
          all: [
            {
              has: {
                field: 'function',
                kind: 'attribute',
                all: [
                  { has: { field: 'attribute', regex: '^save$' } },
                  { has: { field: 'object', pattern: '$UPLOAD' } },
                ],
              },
            },
            firstArgument({
              has: {
                stopBy: 'end',
                kind: 'attribute',
                all: [
                  { has: { field: 'object', pattern: '$UPLOAD' } },
                  { has: { field: 'attribute', regex: '^filename$' } },
                ],
              },
              not: PATH_SANITIZED,
            }),
          ],
        },
      ],
    },
    cwe: 'CWE-22',
    cvss: 7.5,
    examples: {
      invalid: [
        'data = open(request.args["file"]).read()',
        'return send_file(os.path.join(UPLOADS, request.args.get("name")))',
        'def download():\n    name = request.args.get("name")\n    with open(name) as f:\n        return f.read()',
        'def report():\n    name = request.args["name"]\n    return send_file(os.path.join(REPORT_DIR, name), as_attachment=True)',
        '@router.get("/exports/{name:path}")\nasync def download_export(name: str):\n    target = EXPORT_DIR / name\n    return FileResponse(target)',
        '@app.route("/files/<path:name>")\ndef raw(name):\n    with open(os.path.join(BASE, name)) as f:\n        return f.read()',
        'def upload():\n    f = request.files["file"]\n    f.save(os.path.join(UPLOAD_DIR, f.filename))',
        '@app.get("/docs/<page>")\ndef doc(page):\n    return (DOCS_DIR / f"{page}.md").read_text()',
      ],
      valid: [
        'return send_from_directory(UPLOADS, request.args.get("name"))',
        'return send_file(os.path.join(UPLOADS, secure_filename(request.args["name"])))',
        'with open(CONFIG_PATH) as f:\n    data = f.read()',
        'def report():\n    name = secure_filename(request.args["name"])\n    return send_file(os.path.join(REPORT_DIR, name))',
        '@router.get("/exports/{export_id}")\nasync def download_export(export_id: int):\n    return FileResponse(EXPORT_DIR / f"{export_id}.csv")',
        'def export(name):\n    return FileResponse(EXPORT_DIR / name)',
        'def upload():\n    f = request.files["file"]\n    f.save(os.path.join(UPLOAD_DIR, secure_filename(f.filename)))',
        '@app.get("/docs/<int:page>")\ndef doc(page: int):\n    return (DOCS_DIR / "index.md").read_text()',
      ],
    },
  },
  {
    id: 'py.ssrf',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'An outgoing request to a URL taken from the request: the caller can make the server reach internal services or cloud metadata (SSRF). Allow-list hosts, or map a key to a fixed URL.',
    rule: {
      kind: 'call',
      all: [
        {
          has: {
            field: 'function',
            regex:
              '^(requests|httpx|aiohttp|session|self\\.session|client|self\\.client|http|http_client|self\\.http|urllib\\.request|urllib3)\\.(get|post|put|patch|delete|head|request|urlopen)$|^urlopen$',
          },
        },
        // Not a fixed host with the value in its path: `f"{RATES_URL}/{currency}"`, `f"https://api.x/{id}"`.
        firstArgument({ ...fromRequest(), not: { regex: '^[fFrR]*["\'](https?://[^{/]+/|\\{[A-Z][A-Z0-9_]*\\}/|/)' } }),
      ],
    },
    cwe: 'CWE-918',
    cvss: 8.6,
    examples: {
      invalid: [
        'resp = requests.get(request.args["url"])',
        'r = requests.post(f"{request.json[\'callback\']}/notify", json=payload)',
        'def proxy():\n    target = request.args.get("url")\n    return requests.get(target, timeout=5).text',
        'def test_hook():\n    payload = request.get_json()\n    url = payload["url"]\n    return requests.post(url, json={}, timeout=5)',
        '@router.post("/ping")\nasync def ping(body: Ping):\n    async with httpx.AsyncClient() as client:\n        response = await client.get(body.url)',
      ],
      valid: [
        'resp = requests.get(WEBHOOKS[request.args["name"]])',
        'def test_hook():\n    payload = request.get_json()\n    name = payload["name"]\n    return requests.post(HOOKS[name], json={}, timeout=5)',
        'resp = requests.get(url, params={"q": request.args["q"]})',
        '@router.get("/rates/{currency}")\nasync def rate(currency: str):\n    return requests.get(f"{RATES_URL}/{currency}", timeout=5).json()',
        '@router.post("/ping")\nasync def ping(body: Ping):\n    async with httpx.AsyncClient() as client:\n        response = await client.get(SETTINGS.url, json=body.payload)',
      ],
    },
  },
  {
    id: 'py.flask-debug',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'Running the app with debug=True exposes the Werkzeug debugger, which lets anyone who reaches it run code on the server. Read the flag from configuration and keep it off in deployments.',
    rule: {
      kind: 'keyword_argument',
      regex: '^debug\\s*=\\s*True$',
      inside: {
        kind: 'argument_list',
        inside: { kind: 'call', has: { field: 'function', regex: '(?i)app\\.run$|^socketio\\.run$' } },
      },
    },
    cwe: 'CWE-489',
    cvss: 7.5,
    examples: {
      invalid: ['app.run(host="0.0.0.0", debug=True)', 'socketio.run(app, debug=True)'],
      valid: [
        'app.run(debug=os.environ.get("FLASK_DEBUG") == "1")',
        'asyncio.run(main(), debug=True)',
        'app.run(debug=False)',
      ],
    },
  },
  {
    id: 'py.bare-except',
    languages: ['python'],
    type: 'bug',
    severity: 'warning',
    message:
      'A bare except: also catches KeyboardInterrupt and SystemExit and hides the real failure. Catch the exceptions you expect (or Exception), and re-raise what you cannot handle.',
    rule: {
      kind: 'except_clause',
      not: {
        any: [
          {
            has: {
              any: [
                { kind: 'identifier' },
                { kind: 'attribute' },
                { kind: 'tuple' },
                { kind: 'as_pattern' },
                { kind: 'parenthesized_expression' },
              ],
            },
          },
          { has: { kind: 'block', has: { stopBy: 'end', kind: 'raise_statement' } } },
          { has: { kind: 'block', not: { has: { not: { any: HANDLER_NO_OP } } } } },
        ],
      },
    },
    examples: {
      invalid: [
        'try:\n    run()\nexcept:\n    log.warning("failed")',
        'try:\n    value = int(text)\nexcept:\n    value = 0',
      ],
      valid: [
        'try:\n    run()\nexcept ValueError:\n    log.warning("bad")',
        'try:\n    run()\nexcept:\n    cleanup()\n    raise',
      ],
    },
  },
  {
    id: 'py.swallowed-exception',
    languages: ['python'],
    type: 'bug',
    severity: 'warning',
    message:
      'Every exception is caught and ignored (except: pass, continue or return None): failures disappear without a trace. Catch the specific exception you expect, or log it.',
    rule: swallowedException({ not: WRITE_IN_TRY }),
    examples: {
      invalid: [
        'try:\n    send(msg)\nexcept Exception:\n    pass',
        'try:\n    os.remove(p)\nexcept:\n    pass',
        'try:\n    x()\nexcept Exception as e:\n    pass',
        'def country(ip):\n    try:\n        return lookup(ip)\n    except Exception as exc:\n        return None',
        'for row in rows:\n    try:\n        save(row)\n    except Exception:\n        continue',
      ],
      valid: [
        'try:\n    del cache[key]\nexcept KeyError:\n    pass',
        'try:\n    send(msg)\nexcept Exception:\n    log.exception("send failed")',
        'try:\n    send(msg)\nexcept Exception:\n    # best effort: the queue retries\n    pass',
        'def parse(text):\n    try:\n        return int(text)\n    except ValueError:\n        return None',
        'def country(ip):\n    try:\n        return lookup(ip)\n    except Exception:\n        log.warning("lookup failed")\n        return None',
      ],
    },
  },
  {
    id: 'py.swallowed-write-error',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      'A failed write is caught and ignored (except Exception: pass): the record is lost and nobody knows. Catch the specific exception you expect, log it, and count or re-queue the failures.',
    rule: swallowedException(WRITE_IN_TRY),
    examples: {
      invalid: [
        'for row in rows:\n    try:\n        repo.save(row)\n    except Exception:\n        pass',
        'def flush(queue):\n    try:\n        push_batch(queue.drain())\n    except Exception:\n        pass',
        'for c in contacts:\n    try:\n        Contact.objects.create(email=c)\n    except:\n        continue',
      ],
      valid: [
        'for row in rows:\n    try:\n        repo.save(row)\n    except Exception:\n        log.exception("save failed")\n        failed.append(row)',
        'try:\n    repo.save(row)\nexcept IntegrityError:\n    pass',
        'try:\n    send(msg)\nexcept Exception:\n    pass',
      ],
    },
  },
  {
    id: 'py.mutable-default-argument',
    languages: ['python'],
    type: 'bug',
    severity: 'warning',
    message:
      'A mutable default argument is created once and shared by every call, so changes leak between calls. Default to None and create the list or dict inside the function.',
    rule: {
      any: [{ kind: 'default_parameter' }, { kind: 'typed_default_parameter' }],
      has: {
        field: 'value',
        any: [
          { kind: 'list' },
          { kind: 'dictionary' },
          { kind: 'set' },
          { pattern: 'list()' },
          { pattern: 'dict()' },
          { pattern: 'set()' },
        ],
      },
    },
    examples: {
      invalid: [
        'def add(item, items=[]):\n    items.append(item)',
        'def f(opts: dict = {}):\n    return opts',
        'def g(seen=set()):\n    pass',
      ],
      valid: [
        'def add(item, items=None):\n    items = items or []',
        'def f(opts: tuple = ()):\n    return opts',
        'def g(n=0):\n    pass',
      ],
    },
  },
  {
    id: 'py.is-literal',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      '`is` compares identity, not value: `x is "a"` or `x is 1` depends on interning and is often False for equal values (Python warns with SyntaxWarning). Use ==.',
    rule: {
      kind: 'comparison_operator',
      has: { regex: '^is$' },
      not: { has: { regex: '^not$' } },
      all: [{ has: { any: [{ kind: 'string' }, { kind: 'integer' }, { kind: 'float' }] } }],
      pattern: '$A is $B',
    },
    fix: '$A == $B',
    examples: {
      invalid: ['if status is "active":\n    go()', 'if count is 0:\n    stop()'],
      valid: ['if status == "active":\n    go()', 'if value is None:\n    stop()', 'if value is not None:\n    go()'],
    },
  },
  {
    id: 'py.self-comparison',
    languages: ['python'],
    type: 'bug',
    severity: 'warning',
    message:
      'A value compared with itself is always true (or always false): one side is probably a typo for another variable.',
    rule: {
      any: [
        { pattern: '$A == $A' },
        { pattern: '$A is $A' },
        { pattern: '$A >= $A' },
        { pattern: '$A <= $A' },
        { pattern: '$A < $A' },
        { pattern: '$A > $A' },
      ],
    },
    constraints: { A: { not: { any: [{ kind: 'call' }, { has: { stopBy: 'end', kind: 'call' } }] } } },
    examples: {
      invalid: ['if user.id == user.id:\n    allow()', 'assert a.total >= a.total'],
      valid: ['if user.id == other.id:\n    allow()', 'is_nan = x != x', 'if rand() == rand():\n    pass'],
    },
  },
  {
    id: 'py.debugger',
    languages: ['python'],
    type: 'style',
    severity: 'info',
    message:
      'A debugger breakpoint left in the code stops the process waiting for a terminal. Remove it before merging.',
    rule: {
      kind: 'call',
      has: { field: 'function', regex: '^(breakpoint|pdb\\.set_trace|ipdb\\.set_trace|pudb\\.set_trace)$' },
    },
    examples: {
      invalid: ['breakpoint()', 'import pdb; pdb.set_trace()'],
      valid: ['logger.debug("state %s", state)', 'tracer.set_trace_id(x)'],
    },
  },
  {
    id: 'py.print',
    languages: ['python'],
    type: 'style',
    severity: 'info',
    message:
      'print() in library or server code is usually debug output left behind; it bypasses log levels and handlers. Use the logging module.',
    rule: {
      pattern: 'print($$$)',
      not: {
        any: [
          { has: { field: 'arguments', has: { kind: 'keyword_argument', regex: '^file\\s*=' } } },
          {
            inside: {
              stopBy: 'end',
              kind: 'function_definition',
              has: {
                field: 'name',
                regex: '^_?(main|cli|run|test\\w*|demo\\w*|usage|print\\w*|show\\w*|display\\w*|dump\\w*|report\\w*)$',
              },
            },
          },
          { inside: { stopBy: 'end', kind: 'if_statement', has: { field: 'condition', regex: '__name__' } } },
          {
            inside: {
              stopBy: 'end',
              kind: 'decorated_definition',
              has: { kind: 'decorator', regex: '(click|typer|app)\\.command|\\.command\\(' },
            },
          },
        ],
      },
      inside: { stopBy: 'end', kind: 'function_definition' },
    },
    examples: {
      invalid: [
        'def charge(order):\n    print(order.total)\n    return gateway.charge(order)',
        'class Api:\n    def get(self, id):\n        print("DEBUG", id)',
      ],
      valid: [
        'def main():\n    print("done")',
        'if __name__ == "__main__":\n    print(run())',
        'def warn(msg):\n    print(msg, file=sys.stderr)',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'for row in rows:\n    html += f"<tr><td>{row.name}</td></tr>"',
        'while node:\n    out += str(node.value) + ","\n    node = node.next',
      ],
      valid: [
        'parts = []\nfor row in rows:\n    parts.append(f"<tr>{row}</tr>")',
        'for row in rows:\n    total += row.amount',
        'html += "<table>"',
        'for item in items:\n    total += item["price"] * item["quantity"]',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'for item in cart_items:\n    product = Product.objects.get(pk=item["product_id"])',
        'while queue:\n    user = User.objects.filter(email=queue.pop()).first()',
      ],
      valid: [
        'products = Product.objects.in_bulk([i["product_id"] for i in cart_items])\nfor item in cart_items:\n    product = products[item["product_id"]]',
        'names = [p.name for p in Product.objects.filter(active=True)]',
      ],
    },
  },
  {
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
                          all: [
                            { has: { field: 'left', pattern: '$QS' } },
                            { has: { field: 'right', ...lazyQueryset } },
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
      ],
    },
    examples: {
      invalid: [
        'def recent(request):\n    comments = Comment.objects.order_by("-created_at")[:100]\n    for comment in comments:\n        rows.append(comment.author.username)',
        'for order in Order.objects.filter(paid=True):\n    print(order.customer.email)',
      ],
      valid: [
        'def recent(request):\n    comments = Comment.objects.select_related("author").order_by("-created_at")[:100]\n    for comment in comments:\n        rows.append(comment.author.username)',
        'for order in Order.objects.filter(paid=True):\n    print(order.created_at.year)',
        'for order in Order.objects.filter(paid=True):\n    print(order.customer.get_full_name())',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'for line in lines:\n    m = re.compile(r"^(\\w+)=(.*)$").match(line)',
        'while True:\n    defaults = json.loads(\'{"retries": 3}\')',
      ],
      valid: [
        'PATTERN = re.compile(r"^(\\w+)=(.*)$")\nfor line in lines:\n    m = PATTERN.match(line)',
        'for p in patterns:\n    compiled.append(re.compile(p))',
        'for line in f:\n    records.append(json.loads(line))',
      ],
    },
  },
  {
    id: 'py.template-injection',
    languages: ['python'],
    type: 'security',
    severity: 'critical',
    message:
      'Template source built from a value at run time: Jinja2 evaluates {{ ... }} in that value, so a user can run code on the server (server-side template injection). Keep the template constant and pass the value as a variable: render_template_string("<h1>Hello {{ name }}</h1>", name=name).',
    rule: {
      kind: 'call',
      all: [
        {
          has: {
            field: 'function',
            regex:
              '^(flask\\.)?render_template_string$|^(jinja2\\.)?Template$|^(\\w+\\.)*(env|environment|jinja_env)\\.from_string$',
          },
        },
        firstArgument({
          any: [
            { kind: 'string', has: { kind: 'interpolation' } },
            {
              kind: 'binary_operator',
              all: [{ has: { field: 'operator', regex: '^(\\+|%)$' } }, { has: { stopBy: 'end', kind: 'string' } }],
            },
            { kind: 'call', has: { field: 'function', kind: 'attribute', regex: '^[\\s\\S]*\\.format$' } },
            fromRequest(),
            // Built in a variable first, in the same function: `page = "<p>%s</p>" % request.path`.
            {
              kind: 'identifier',
              pattern: '$TEMPLATE',
              inside: {
                stopBy: 'end',
                kind: 'function_definition',
                has: {
                  stopBy: 'end',
                  kind: 'assignment',
                  all: [
                    { has: { field: 'left', pattern: '$TEMPLATE' } },
                    { has: { field: 'right', ...UNSAFE_FORMATTED_STRING } },
                  ],
                },
              },
            },
          ],
        }),
      ],
    },
    cwe: 'CWE-1336',
    cvss: 9.8,
    examples: {
      invalid: [
        'return render_template_string("<h1>Hello " + name + "</h1>")',
        'return render_template_string(f"<p>{request.args.get(\'msg\')}</p>")',
        'html = Template("Dear %s," % user.name).render()',
        'return render_template_string(request.form["tpl"])',
        'def not_found(e):\n    page = "<h1>Not found</h1><p>%s</p>" % request.path\n    return render_template_string(page), 404',
        'def greet(user):\n    body = f"<p>Hello {user.name}</p>"\n    return env.from_string(body).render()',
      ],
      valid: [
        'def not_found(e):\n    page = "<h1>Not found</h1>" + FOOTER\n    return render_template_string(page), 404',
        'def greet(user):\n    body = "<p>Hello {{ name }}</p>"\n    return render_template_string(body, name=user.name)',
        'return render_template_string("<h1>Hello {{ name }}</h1>", name=name)',
        'return render_template_string(TEMPLATE, user=user)',
        'return render_template("hello.html", name=name)',
      ],
    },
  },
  {
    id: 'py.mark-safe',
    languages: ['python'],
    type: 'security',
    severity: 'important',
    message:
      'mark_safe/Markup on a string built with values turns off escaping for those values: HTML in a user field runs in the page (XSS). Use format_html("<a href=\\"{}\\">{}</a>", url, name), which escapes the arguments.',
    rule: {
      kind: 'call',
      all: [
        {
          has: {
            field: 'function',
            regex: '^((django\\.utils\\.safestring\\.)?mark_safe|(markupsafe\\.)?Markup|SafeString)$',
          },
        },
        firstArgument({
          any: [
            { kind: 'string', has: { kind: 'interpolation' } },
            {
              kind: 'binary_operator',
              all: [
                { has: { field: 'operator', regex: '^(\\+|%)$' } },
                { has: { stopBy: 'end', kind: 'string' } },
                { has: { stopBy: 'end', any: [{ kind: 'identifier' }, { kind: 'attribute' }, { kind: 'call' }] } },
              ],
            },
            {
              kind: 'call',
              has: {
                field: 'function',
                kind: 'attribute',
                all: [{ has: { field: 'object', kind: 'string' } }, { has: { field: 'attribute', regex: '^format$' } }],
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
        'return mark_safe(f\'<a href="/u/{user.username}">{user.display_name}</a>\')',
        'html = Markup("<b>" + comment.body + "</b>")',
        'return mark_safe("<p>{}</p>".format(bio))',
      ],
      valid: [
        'return format_html(\'<a href="/u/{}">{}</a>\', user.username, user.display_name)',
        'return mark_safe("<br>")',
        'return mark_safe(rendered)',
      ],
    },
  },
  {
    id: 'py.coroutine-not-awaited',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      'An asyncio coroutine called without await only creates a coroutine object: it never runs (Python warns "coroutine was never awaited"). Add await, or schedule it with asyncio.create_task().',
    rule: {
      kind: 'expression_statement',
      has: {
        kind: 'call',
        has: {
          field: 'function',
          regex:
            '^asyncio\\.(sleep|gather|wait|wait_for|open_connection|create_subprocess_exec|create_subprocess_shell|to_thread|shield)$',
        },
      },
      inside: { stopBy: { kind: 'function_definition' }, kind: 'function_definition', regex: '^async\\s' },
    },
    examples: {
      invalid: [
        'async def sync(client):\n    client.store()\n    asyncio.sleep(1)',
        'async def run(tasks):\n    asyncio.gather(*tasks)\n    return True',
      ],
      valid: [
        'async def sync(client):\n    await asyncio.sleep(1)',
        'async def run(tasks):\n    task = asyncio.gather(*tasks)\n    return await task',
        'def main():\n    asyncio.run(start())',
      ],
    },
  },
  {
    id: 'py.local-coroutine-not-awaited',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      'This calls an `async def` function of this file without await: that only creates a coroutine object, so the function body never runs (Python warns "coroutine was never awaited"). Add await, or schedule it with asyncio.create_task() / BackgroundTasks.',
    rule: {
      kind: 'expression_statement',
      has: {
        kind: 'call',
        has: { field: 'function', kind: 'identifier', pattern: '$FN' },
      },
      inside: {
        kind: 'module',
        stopBy: 'end',
        has: {
          stopBy: 'end',
          kind: 'function_definition',
          regex: '^async\\s+def\\s',
          has: { field: 'name', pattern: '$FN' },
        },
      },
    },
    examples: {
      invalid: [
        'async def send_welcome(email):\n    await mailer.send(email)\n\nasync def signup(body):\n    user = await users.create(body.email)\n    send_welcome(user.email)\n    return user',
        'async def refresh(key):\n    await cache.reload(key)\n\ndef on_change(key):\n    refresh(key)',
      ],
      valid: [
        'async def send_welcome(email):\n    await mailer.send(email)\n\nasync def signup(body):\n    await send_welcome(body.email)',
        'async def send_welcome(email):\n    await mailer.send(email)\n\nasync def signup(body, tasks):\n    tasks.add_task(send_welcome, body.email)',
        'def send_welcome(email):\n    mailer.send(email)\n\ndef signup(body):\n    send_welcome(body.email)',
      ],
    },
  },
  {
    id: 'py.coroutine-call-not-awaited',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      'In this async function, a call to a function that is awaited elsewhere in the file (or an imported async-style action such as send_/notify_/publish_) is made without await: for a coroutine function that only creates a coroutine object and the work never runs. Add await, or schedule it with asyncio.create_task().',
    rule: {
      kind: 'expression_statement',
      has: { kind: 'call', has: { field: 'function', kind: 'identifier', pattern: '$FN' } },
      all: [
        {
          inside: {
            stopBy: { kind: 'function_definition' },
            kind: 'function_definition',
            regex: '^async\\s',
            has: { field: 'body', has: { stopBy: 'end', kind: 'await' } },
          },
        },
        {
          inside: {
            stopBy: 'end',
            kind: 'module',
            any: [
              // Awaited elsewhere in this file: `await send_receipt(...)`.
              {
                has: {
                  stopBy: 'end',
                  kind: 'await',
                  has: { kind: 'call', has: { field: 'function', kind: 'identifier', pattern: '$FN' } },
                },
              },
              // Imported into this file under an action name of async I/O.
              {
                has: {
                  kind: 'import_from_statement',
                  has: {
                    field: 'name',
                    any: [
                      { kind: 'dotted_name', pattern: '$FN' },
                      { kind: 'aliased_import', has: { field: 'alias', pattern: '$FN' } },
                    ],
                  },
                },
              },
            ],
          },
        },
      ],
    },
    constraints: {
      FN: {
        regex: '^(a?(send|notify|publish|broadcast|deliver|fetch)(_\\w+)?|\\w+_async|async_\\w+)$',
      },
    },
    examples: {
      invalid: [
        'from .notifications import send_receipt\n\nasync def on_paid(event, repo):\n    order = await repo.get(event["id"])\n    send_receipt(order.email, order.id)',
        'from app.events import publish_event\n\nasync def close(ticket, db):\n    await db.save(ticket)\n    publish_event("closed", ticket.id)',
      ],
      valid: [
        'from .notifications import send_receipt\n\nasync def on_paid(event, repo):\n    order = await repo.get(event["id"])\n    await send_receipt(order.email, order.id)',
        'from .notifications import send_receipt\n\ndef on_paid(event, repo):\n    order = repo.get(event["id"])\n    send_receipt(order.email, order.id)',
        'from .audit import record\n\nasync def close(ticket, db):\n    await db.save(ticket)\n    record("closed", ticket.id)',
        'from .notifications import send_receipt\n\nasync def on_paid(event, tasks):\n    tasks.add_task(send_receipt, event["email"])',
      ],
    },
  },
  {
    id: 'py.off-by-one-range',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      'The loop runs i up to len(values) inclusive (range(..., len(values) + 1)) and the body reads values[i]: the last iteration raises IndexError. Use range(..., len(values)).',
    rule: {
      kind: 'call',
      any: [{ pattern: 'range($S, len($V) + 1)' }, { pattern: 'range(len($V) + 1)' }],
      inside: {
        kind: 'for_statement',
        field: 'right',
        all: [
          { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
          { has: { field: 'body', has: { stopBy: 'end', kind: 'subscript', pattern: '$V[$I]' } } },
        ],
      },
    },
    examples: {
      invalid: [
        'for i in range(1, len(readings) + 1):\n    changes.append(readings[i] - readings[i - 1])',
        'for i in range(len(xs) + 1):\n    print(xs[i])',
      ],
      valid: [
        'for i in range(1, len(readings)):\n    changes.append(readings[i] - readings[i - 1])',
        'for i in range(1, len(pages) + 1):\n    print(f"page {i} of {len(pages)}", pages[i - 1])',
      ],
    },
  },
  {
    id: 'py.off-by-one-while',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      'The loop runs while i <= len(values) and the body reads values[i]: the last iteration raises IndexError. Use i < len(values), or iterate over the values directly.',
    rule: {
      kind: 'comparison_operator',
      pattern: '$I <= len($V)',
      inside: {
        kind: 'while_statement',
        field: 'condition',
        has: { field: 'body', has: { stopBy: 'end', kind: 'subscript', pattern: '$V[$I]' } },
      },
    },
    examples: {
      invalid: [
        'i = 0\nwhile i <= len(bookings):\n    booking = bookings[i]\n    i += 1',
        'while k <= len(xs):\n    total += xs[k]\n    k += 1',
      ],
      valid: [
        'i = 0\nwhile i < len(bookings):\n    booking = bookings[i]\n    i += 1',
        'while i <= len(xs):\n    print(xs[i - 1])\n    i += 1',
      ],
    },
  },
  {
    id: 'py.self-comparison-call',
    languages: ['python'],
    type: 'bug',
    severity: 'warning',
    message:
      'The same deterministic call is compared with itself, so the result never changes: one side is probably a typo (e.g. getattr(old, f) != getattr(new, f)).',
    rule: {
      kind: 'comparison_operator',
      any: [{ pattern: '$C == $C' }, { pattern: '$C != $C' }],
    },
    constraints: {
      C: {
        kind: 'call',
        has: { field: 'function', regex: '^(getattr|len|str|int|float|bool|type|repr|abs|tuple|sorted|hash)$' },
        not: { has: { field: 'arguments', has: { stopBy: 'end', kind: 'call' } } },
      },
    },
    examples: {
      invalid: [
        'if getattr(old, field) != getattr(old, field):\n    changed.append(field)',
        'assert len(items) == len(items)',
      ],
      valid: [
        'if getattr(old, field) != getattr(new, field):\n    changed.append(field)',
        'if random() == random():\n    pass',
        'if len(a) == len(b):\n    pass',
      ],
    },
  },
  {
    id: 'py.unreachable-code',
    languages: ['python'],
    type: 'bug',
    severity: 'warning',
    message:
      'This statement comes right after a return, raise, break or continue in the same block: it never runs. Remove it or move it before the jump.',
    rule: {
      any: [
        { kind: 'expression_statement' },
        { kind: 'return_statement' },
        { kind: 'if_statement' },
        { kind: 'for_statement' },
        { kind: 'while_statement' },
        { kind: 'with_statement' },
        { kind: 'try_statement' },
        { kind: 'raise_statement' },
        { kind: 'assert_statement' },
        { kind: 'delete_statement' },
      ],
      inside: { kind: 'block' },
      follows: {
        any: [
          { kind: 'return_statement' },
          { kind: 'raise_statement' },
          { kind: 'continue_statement' },
          { kind: 'break_statement' },
        ],
      },
    },
    examples: {
      invalid: [
        'def price(p, r):\n    total = p * r\n    return total\n    logger.info("total %s", total)',
        'for x in xs:\n    continue\n    handle(x)',
      ],
      valid: [
        'def price(p, r):\n    total = p * r\n    logger.info("total %s", total)\n    return total',
        'def f(x):\n    if x:\n        return 1\n    return 2',
      ],
    },
  },
  {
    id: 'py.off-by-one-index',
    languages: ['python'],
    type: 'bug',
    severity: 'important',
    message:
      'The loop runs i up to len(values) - 1 but the body reads values[i + 1]: the last iteration raises IndexError. Loop over range(len(values) - 1), or use zip(values, values[1:]).',
    rule: {
      kind: 'call',
      pattern: 'range(len($V))',
      inside: {
        kind: 'for_statement',
        field: 'right',
        all: [
          { has: { field: 'left', kind: 'identifier', pattern: '$I' } },
          { has: { field: 'body', has: { stopBy: 'end', kind: 'subscript', pattern: '$V[$I + 1]' } } },
          { not: { has: { field: 'body', has: { stopBy: 'end', kind: 'comparison_operator', regex: 'len\\(' } } } },
        ],
      },
    },
    examples: {
      invalid: [
        'for i in range(len(values)):\n    deltas.append(values[i + 1] - values[i])',
        'for k in range(len(xs)):\n    if xs[k + 1] < xs[k]:\n        return False',
      ],
      valid: [
        'for i in range(len(values) - 1):\n    deltas.append(values[i + 1] - values[i])',
        'for i in range(len(values)):\n    total += values[i]',
        'for i in range(len(xs)):\n    if i + 1 < len(xs) and xs[i + 1] < xs[i]:\n        return False',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'async def enrich(users, client):\n    for user in users:\n        profile = await client.get(user.id)',
        'async def save(items, db):\n    for item in items:\n        await db.insert(item)',
      ],
      valid: [
        'async def enrich(users, client):\n    return await asyncio.gather(*(client.get(u.id) for u in users))',
        'async def poll(stream):\n    async for event in stream:\n        await handle(event)',
        'async def pace(items):\n    for item in items:\n        await asyncio.sleep(1)',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'async def status():\n    time.sleep(0.5)\n    return {"ok": True}',
        'async def fetch(url):\n    return requests.get(url, timeout=5).json()',
        'async def terms():\n    with open("static/terms.html") as fh:\n        return HTMLResponse(fh.read())',
      ],
      valid: [
        'async def status():\n    await asyncio.sleep(0.5)',
        'def status():\n    time.sleep(0.5)',
        'async def outer():\n    def inner():\n        time.sleep(1)\n    await asyncio.to_thread(inner)',
        'async def terms():\n    async with aiofiles.open("static/terms.html") as fh:\n        return HTMLResponse(await fh.read())',
      ],
    },
  },
  {
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
    examples: {
      invalid: [
        'for sample in samples:\n    config = json.loads(config_text)\n    check(sample, config)',
        'for line in lines:\n    if re.compile(pattern).match(line):\n        keep(line)',
        'def flag(messages, words):\n    for m in messages:\n        p = re.compile(r"\\b(" + "|".join(map(re.escape, words)) + r")\\b", re.I)\n        if p.search(m.text):\n            yield m',
        'for user in users:\n    prefs = json.loads(settings.raw_preferences)\n    apply(user, prefs)',
      ],
      valid: [
        'for line in f:\n    records.append(json.loads(line))',
        'for path in paths:\n    text = path.read_text()\n    docs.append(json.loads(text))',
        'config = json.loads(config_text)\nfor sample in samples:\n    check(sample, config)',
        'for path in paths:\n    with path.open() as fh:\n        docs.append(yaml.safe_load(fh))',
        'for chunk in chunks:\n    buf.append(chunk)\n    doc = json.loads("".join(buf))',
        'for m in messages:\n    p = re.compile(r"\\b" + re.escape(m.word) + r"\\b")',
        'for _ in range(3):\n    data = json.loads(sock.recv(4096))',
      ],
    },
  },
  {
    id: 'py.commented-out-code',
    languages: ['python'],
    type: 'style',
    severity: 'info',
    message:
      'Commented-out code: version control keeps the old code, and a dead line in the file only misleads readers. Delete it.',
    rule: {
      kind: 'comment',
      regex: COMMENTED_CODE,
      not: {
        any: [
          { regex: '(?i)^#\\s*(type|noqa|pylint|fmt|isort|pragma|todo|fixme|note|xxx)\\b' },
          // One comment per commented-out block: the lines after the first are the same dead code.
          { follows: { kind: 'comment', regex: COMMENTED_CODE } },
        ],
      },
    },
    examples: {
      invalid: [
        'def nightly(db):\n    db.vacuum()\n    # db.rebuild_indexes(concurrently=True)',
        'x = 1\n# retries = 5',
        '# @login_required\ndef dashboard(request):\n    return render(request, "d.html")',
        '# from .tasks import send_digest\nimport os',
      ],
      valid: [
        '# Rebuild the indexes after the vacuum.\ndb.vacuum()',
        'x = load()  # type: ignore',
        '# see https://example.com/docs',
        '# import the fixtures before the models\nimport os',
        '# @param user: the account owner\ndef f(user):\n    pass',
      ],
    },
  },
];
