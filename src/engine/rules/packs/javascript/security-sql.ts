import type { Rule } from '../../rule-schema.js';
import {
  CONCATENATION,
  calleeName,
  calleeProperty,
  callOfFileFunction,
  DYNAMIC_STRING,
  declaredFrom,
  FUNCTION,
  firstArgument,
  LANGUAGES,
  parameterOfEnclosingFunction,
  REQUEST_VALUE_LITE,
} from './fragments.js';

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

/** The fragment itself, or a local of the function declared from one: `const clause = \`... ${q}\`;` then `.where(clause)`. */
const RAW_SQL_FRAGMENT_OR_LOCAL = { any: [RAW_SQL_FRAGMENT, declaredFrom(RAW_SQL_FRAGMENT, '$CLAUSE')] };

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

export const sqlInjectionRule: Rule = {
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
};

export const queryBuilderInjectionRule: Rule = {
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
            firstArgument(RAW_SQL_FRAGMENT_OR_LOCAL),
          ],
        },
        // Drizzle / Knex raw fragments: `sql.raw(`... ${x}`)`, `knex.raw('... ' + x)` inside a builder.
        { all: [calleeProperty('^raw$', '^(sql|Prisma\\.sql)$'), firstArgument(RAW_SQL_FRAGMENT)] },
        // Kysely / Drizzle: `sql.raw(sortBy)` splices a sort column or direction into the query
        // unescaped, the usual way a caller's choice gets there (not a local picked from a fixed
        // set). Other names are most often SQL text the code composed itself.
        {
          all: [
            calleeProperty('^raw$', '^sql$'),
            firstArgument({
              kind: 'identifier',
              all: [
                { regex: '(?i)(sort|order|column|field|direction)' },
                { not: { regex: '^[A-Z][A-Z0-9_]*$' } },
                { not: ALLOWLISTED_LOCAL },
              ],
            }),
            { inside: { kind: 'program', stopBy: 'end', regex: '[\'"](kysely|drizzle-orm)[\'"]' } },
          ],
        },
        {
          all: [
            calleeProperty(
              '^(whereRaw|orWhereRaw|andWhereRaw|havingRaw|orderByRaw|groupByRaw|joinRaw|fromRaw|selectRaw)$',
            ),
            firstArgument(RAW_SQL_FRAGMENT_OR_LOCAL),
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
};

/** A query document's `$where` key, written bare or quoted. */
const WHERE_KEY_OF_PAIR = { has: { field: 'key', regex: '^(\\$where|\'\\$where\'|"\\$where")$' } };

export const mongoWhereInjectionRule: Rule = {
  id: 'js.nosql-where-injection',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'MongoDB runs a `$where` string as JavaScript on the server: one built from values lets whoever writes them run their own code in the query (NoSQL injection). Use the query operators ($eq, $gt, $regex with an escaped pattern), or a function that takes no outside text.',
  // A string is no defence here, unlike for the operator objects of the other NoSQL sinks: the
  // value is code. A function (`$where: function () { ... }`) and a constant string are left alone.
  rule: {
    kind: 'pair',
    all: [
      WHERE_KEY_OF_PAIR,
      { has: { field: 'value', any: [DYNAMIC_STRING, declaredFrom(DYNAMIC_STRING, '$WHERE')] } },
    ],
  },
  cwe: 'CWE-943',
};
