import type { Rule } from '../../rule-schema.js';
import { firstArgument, ONLY_SAFE_VALUES, UNSAFE_FORMATTED_STRING } from './fragments.js';

/** Text that reads as SQL. */
const SQL_TEXT = {
  regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from|where|order\\s+by)\\b',
};

export const sqlInjectionRule: Rule = {
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
};

export const sqlInjectionOrmRule: Rule = {
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
};
