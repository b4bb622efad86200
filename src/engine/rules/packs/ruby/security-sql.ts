import type { Rule } from '../../rule-schema.js';
import { assignedFrom, firstArgument, SAFE_INTERPOLATION, SCOPE, unsafeBuiltString } from './fragments.js';

export const sqlInjectionRule: Rule = {
  id: 'rb.sql-injection',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'SQL fragment built with string interpolation or concatenation: a value containing a quote changes the query (SQL injection). Use placeholders or hash conditions: where("name = ?", name) or where(name: name).',
  rule: {
    kind: 'call',
    all: [
      {
        has: {
          field: 'method',
          regex:
            '^(where|not|rewhere|having|order|reorder|group|joins|from|pluck|find_by|find_by_sql|count_by_sql|exists\\?|delete_all|update_all|destroy_by|delete_by|execute|exec_query|exec_update|exec_delete|select_all|select_one|select_value|select_values|select_rows|lock)$',
        },
      },
      firstArgument({
        any: [
          unsafeBuiltString,
          // Built in a variable first: `sql = "... IN (#{ids})"; connection.execute(sql)`.
          assignedFrom('$SQL', {
            ...unsafeBuiltString,
            regex: '(?i)\\b(select|insert|update|delete|where|from|order\\s+by|like|in|and|or)\\b|=',
          }),
          // Built in a heredoc held in a variable: `sql = <<~SQL ... #{@month} ... SQL; connection.exec_query(sql)`.
          {
            kind: 'identifier',
            pattern: '$SQL',
            inside: {
              stopBy: 'end',
              ...SCOPE,
              has: {
                stopBy: 'end',
                kind: 'assignment',
                all: [
                  { has: { field: 'left', pattern: '$SQL' } },
                  { has: { field: 'right', kind: 'heredoc_beginning' } },
                  {
                    precedes: {
                      kind: 'heredoc_body',
                      regex: '(?i)\\b(select|insert|update|delete)\\b',
                      has: { kind: 'interpolation', not: { regex: SAFE_INTERPOLATION } },
                    },
                  },
                ],
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

export const sqlInjectionDatasetRule: Rule = {
  id: 'rb.sql-injection-dataset',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'SQL built by string interpolation and handed to Sequel (DB["..."], .where/.literal strings) or Arel.sql: a value containing a quote changes the query (SQL injection). Use placeholders: DB["... WHERE w = ?", w] or a hash condition.',
  rule: {
    any: [
      {
        kind: 'element_reference',
        has: {
          field: 'object',
          any: [
            { kind: 'instance_variable', regex: '(?i)^@(db|database|sequel|connection|conn)$' },
            { regex: '^(DB|Sequel::Model\\.db)$' },
          ],
        },
        all: [
          {
            has: {
              nthChild: 2,
              kind: 'string',
              has: { kind: 'interpolation' },
              regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b',
            },
          },
          { not: { has: { nthChild: 3 } } },
        ],
      },
      // A Sequel database handed a built string: `DB.fetch("... '" + term + "'")`, `@db.run("... #{x}")`.
      {
        kind: 'call',
        all: [
          {
            has: {
              field: 'receiver',
              any: [
                { kind: 'instance_variable', regex: '(?i)^@(db|database|sequel)$' },
                // A database handed in: `def self.events_for(db, name)`.
                { kind: 'identifier', regex: '(?i)^(db|database|sequel)$' },
                { regex: '^(DB|Sequel::Model\\.db)$' },
              ],
            },
          },
          { has: { field: 'method', regex: '^(fetch|run|execute|execute_dui|execute_insert)$' } },
          firstArgument({
            ...unsafeBuiltString,
            regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b',
          }),
        ],
      },
      {
        kind: 'call',
        all: [
          { has: { field: 'receiver', regex: '^Arel$' } },
          { has: { field: 'method', regex: '^sql$' } },
          { has: { field: 'arguments', has: { nthChild: 1, kind: 'string', has: { kind: 'interpolation' } } } },
        ],
      },
    ],
  },
  cwe: 'CWE-89',
  cvss: 9.8,
};
