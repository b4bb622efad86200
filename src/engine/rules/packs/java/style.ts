import type { Rule } from '../../rule-schema.js';
import { documentationComment } from '../doc-comments.js';

/** A line comment that holds a Java statement. */
const CODE_COMMENT = [
  { regex: '^//\\s*(final\\s+)?[A-Z][\\w<>,\\[\\] ]*\\s+\\w+\\s*=.*;\\s*$' },
  { regex: '^//\\s*(return\\b.*|[\\w$.]+\\(.*\\)|[\\w$.\\[\\]]+\\s*=[^=].*|throw\\s+new\\s.+);\\s*$' },
  // `// if (cond) {` opening a block, or a whole `// if (cond) { ... }` on one line.
  { regex: '^//\\s*(if|for|while)\\s*\\(.*\\)\\s*\\{.*$' },
];

export const systemOutRule: Rule = {
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
};

export const commentedOutCodeRule: Rule = {
  id: 'java.commented-out-code',
  languages: ['java'],
  type: 'style',
  severity: 'info',
  message:
    'Commented-out code: version control keeps the old code, and a dead line in the file only misleads readers. Delete it.',
  rule: {
    kind: 'line_comment',
    any: CODE_COMMENT,
    // A commented-out block is reported once, on its first line; Javadoc is a block comment, and
    // `// Example:` introduces code on purpose.
    not: {
      any: [
        { follows: { kind: 'line_comment', any: CODE_COMMENT } },
        documentationComment('line_comment', { any: CODE_COMMENT }, []),
      ],
    },
  },
};
