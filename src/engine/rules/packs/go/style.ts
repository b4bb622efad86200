import type { Rule } from '../../rule-schema.js';
import { documentationComment } from '../doc-comments.js';

/**
 * Directives and notes, and prose that reads like an assignment (`// SameSite=Lax is the default
 * here`: in Go two bare words never follow a value).
 */
const NOT_CODE_COMMENT =
  '(?i)^//\\s*(nolint|go:|todo|fixme|note|deprecated|see|example|output)\\b|^//\\s*[\\w.]+\\s*:?=\\s*\\w+\\s+[a-z]+\\s+[a-z]+';

/** A `//` comment that holds a Go statement. */
const codeComment = {
  kind: 'comment',
  regex:
    '^//\\s*(return\\s+[\\w.&*]+(\\(.*\\))?(,\\s*[\\w.&*]+(\\(.*\\))?)*|(defer\\s+|go\\s+)?[A-Za-z_]\\w*(\\.\\w+)*\\(.*\\)|[A-Za-z_][\\w.]*(,\\s*[A-Za-z_][\\w.]*)*\\s*:?=\\s*[\\w"&\\[{(].*|(if|for)\\s.*\\{)\\s*$',
  not: { regex: NOT_CODE_COMMENT },
};

export const commentedOutCodeRule: Rule = {
  id: 'go.commented-out-code',
  languages: ['go'],
  type: 'style',
  severity: 'info',
  message:
    'Commented-out code: version control keeps the old code, and a dead line in the file only misleads readers. Delete it.',
  rule: {
    ...codeComment,
    // A commented-out block is reported once, on its first line.
    not: {
      any: [
        { regex: NOT_CODE_COMMENT },
        { follows: codeComment },
        // Go doc comments show usage as indented code above the declaration.
        documentationComment('comment', codeComment, [
          'function_declaration',
          'method_declaration',
          'type_declaration',
          'var_declaration',
          'const_declaration',
        ]),
      ],
    },
  },
};

export const debugPrintRule: Rule = {
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
};
