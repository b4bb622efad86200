// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a message quotes MyBatis `${...}` substitution
import type { Rule } from '../../rule-schema.js';
import { builtString, FRAMEWORK_OBJECTS, firstArgument, REQUEST_BINDINGS, REQUEST_GETTERS } from './fragments.js';

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
              // A statement, or a JDBC call escape: `"{call " + procedure + "}"`.
              {
                regex:
                  '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b|\\{\\s*(\\?\\s*=\\s*)?call\\s',
              },
              // `"... ORDER BY " + column` with the column from an allow-list (`SORT_COLUMNS.get(...)`).
              { not: { regex: '\\+\\s*[A-Z][A-Z0-9_]*\\.(get|getOrDefault)\\(' } },
            ],
          },
        },
      ],
    },
  },
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

/**
 * A method the flow analysis follows from its start with every value it uses: it reads request
 * input (a servlet request getter, or a parameter the framework binds from the request) and takes
 * nothing else from its callers (its other parameters are the request, response, session or
 * model). There `java.flow.sql-injection` reports a request value that reaches the query, and
 * knows when a constant branch, a sanitiser or a fixed value makes the query safe; the pattern
 * rule, which sees only that something is concatenated, would flag both. Methods with a parameter
 * of their own keep the pattern rule: its value comes from callers the analysis may not see.
 */
const followedByFlow = {
  inside: {
    stopBy: 'end',
    kind: 'method_declaration',
    all: [
      { regex: `\\.(${REQUEST_GETTERS.join('|')})\\s*\\(|@(${REQUEST_BINDINGS.join('|')})\\b` },
      {
        not: {
          has: {
            field: 'parameters',
            has: {
              kind: 'formal_parameter',
              not: {
                any: [
                  { has: { field: 'type', regex: `^([\\w.]+\\.)?(${FRAMEWORK_OBJECTS.join('|')})$` } },
                  { has: { kind: 'modifiers', regex: `@(${REQUEST_BINDINGS.join('|')})\\b` } },
                ],
              },
            },
          },
        },
      },
    ],
  },
};

export const sqlInjectionRule: Rule = {
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
    not: {
      any: [
        followedByFlow,
        // `"... ORDER BY " + column` where `column = SORT_COLUMNS.getOrDefault(sort, "name")`: an allow-list.
        {
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
      ],
    },
  },
  cwe: 'CWE-89',
  cvss: 9.8,
};

export const mybatisDollarSubstitutionRule: Rule = {
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
};
