import type { Rule } from '../../rule-schema.js';
import { documentationComment } from '../doc-comments.js';

/** A comment that is a line of code: a call, an assignment, a decorator or an import. */
const COMMENTED_CODE =
  '^#\\s*(await\\s+|return\\s+)?[A-Za-z_]\\w*(\\.\\w+)*\\(.*\\)\\s*$|^#\\s*[A-Za-z_]\\w*(\\.\\w+)*\\s*=\\s*[\\w"\'\\[{(].*$' +
  // A decorator or an import: `# @login_required`, `# from .tasks import send_digest`.
  '|^#\\s*@[A-Za-z_][\\w.]*(\\(.*\\))?\\s*$|^#\\s*import\\s+[\\w.]+(\\s+as\\s+\\w+)?(\\s*,\\s*[\\w.]+)*\\s*$|^#\\s*from\\s+\\.*[\\w.]*\\s+import\\s+[\\w, ()*]+$';

export const debuggerRule: Rule = {
  id: 'py.debugger',
  languages: ['python'],
  type: 'style',
  severity: 'info',
  message: 'A debugger breakpoint left in the code stops the process waiting for a terminal. Remove it before merging.',
  rule: {
    kind: 'call',
    has: { field: 'function', regex: '^(breakpoint|pdb\\.set_trace|ipdb\\.set_trace|pudb\\.set_trace)$' },
  },
};

export const printRule: Rule = {
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
};

export const commentedOutCodeRule: Rule = {
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
        documentationComment('comment', { regex: COMMENTED_CODE }, [
          'function_definition',
          'class_definition',
          'decorated_definition',
        ]),
      ],
    },
  },
};
