import type { Rule } from '../../rule-schema.js';
import { argument, assignedFrom, callTo, formattedQuery, functionParameter, REQUEST_CALL } from './fragments.js';

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

export const sqlInjectionRule: Rule = {
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
};

/** A condition built from data that compares something: `"email = '" + email + "'"`. */
const CONDITION = { ...formattedQuery, regex: '(?i)(=|<|>|\\blike\\b|\\bin\\b|\\bis\\b)' };

export const gormSqlInjectionRule: Rule = {
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
      argument(1, {
        any: [
          CONDITION,
          // Built in a variable first: `cond := fmt.Sprintf("email = '%s'", email); db.Where(cond)`.
          assignedFrom({ ...CONDITION, not: { regex: '\\?' } }, '$COND'),
        ],
      }),
    ],
  },
  cwe: 'CWE-89',
  cvss: 9.8,
};
