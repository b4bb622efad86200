// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a regex lists `$`, `{` and `}` among the characters of a destructuring
import type { Rule } from '../../rule-schema.js';
import { documentationComment } from '../doc-comments.js';
import { calleeProperty, FUNCTION, LANGUAGES } from './fragments.js';

/** A line comment whose text parses as a JavaScript statement. */
const CODE_COMMENT = {
  any: [
    { regex: '^//\\s*(const|let|var)\\s+[\\w${}\\[\\], ]+\\s*=.*;\\s*$' },
    { regex: '^//\\s*(return\\b.*|[\\w$.]+\\(.*\\)|[\\w$.\\[\\]]+\\s*=[^=].*|await\\s.+|import\\s.+from\\s.+);\\s*$' },
    { regex: '^//\\s*(if|for|while)\\s*\\(.*\\)\\s*\\{\\s*$' },
    // A call that opens a callback: `// client.interceptors.response.use(undefined, async (error) => {`.
    { regex: '^//\\s*(await\\s+)?[\\w$.]+\\(.*(=>|\\bfunction\\s*\\([^)]*\\))\\s*\\{\\s*$' },
    // A decorator switched off: `// @UseGuards(AdminGuard)`, `// @Authorized('admin')`.
    { regex: '^//\\s*@[A-Z][\\w$]*\\(.*\\)\\s*$' },
  ],
};

export const consoleLogRule: Rule = {
  id: 'js.console-log',
  languages: LANGUAGES,
  type: 'style',
  severity: 'info',
  message:
    'Debug output left in the code: remove it, or use the application logger so it has a level and can be turned off.',
  rule: {
    kind: 'call_expression',
    ...calleeProperty('^(log|debug|trace|dir|table)$', '^console$'),
    not: {
      any: [
        // A file starting with `#!/usr/bin/env node` is a command-line script: printing is its job.
        { inside: { kind: 'program', has: { kind: 'hash_bang_line' }, stopBy: 'end' } },
        // So is top-level output in a file that exports nothing (`node scripts/report.mjs`).
        {
          not: { inside: { ...FUNCTION, stopBy: 'end' } },
          inside: {
            kind: 'program',
            stopBy: 'end',
            not: { regex: '(^|\\n)\\s*export\\s|module\\.exports|exports\\.\\w+\\s*=' },
          },
        },
      ],
    },
  },
};

export const debuggerRule: Rule = {
  id: 'js.debugger',
  languages: LANGUAGES,
  type: 'style',
  severity: 'warning',
  message: 'A `debugger` statement left in the code pauses execution whenever dev tools are open: remove it.',
  rule: { kind: 'debugger_statement' },
};

export const commentedOutCodeRule: Rule = {
  id: 'js.commented-out-code',
  languages: LANGUAGES,
  type: 'style',
  severity: 'info',
  message:
    'Commented-out code: version control already keeps the old code, so delete it (or explain in words why it matters).',
  // Code right after `// ` (usage examples in prose are indented further), reported once per
  // commented block: on its first line, unless a comment of the block introduces it (`...:`).
  rule: {
    kind: 'comment',
    regex: '^// ?[^\\s]',
    ...CODE_COMMENT,
    not: {
      any: [
        { follows: { kind: 'comment', any: [...CODE_COMMENT.any, { regex: ':\\s*$' }] } },
        // JSDoc is a block comment; an `// Example:` line introduces the block's code.
        documentationComment('comment', CODE_COMMENT, []),
      ],
    },
  },
};
