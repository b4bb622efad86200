import type { Rule } from '../../rule-schema.js';
import { documentationComment } from '../doc-comments.js';

export const debuggerRule: Rule = {
  id: 'rb.debugger',
  languages: ['ruby'],
  type: 'style',
  severity: 'info',
  message:
    'A debugger breakpoint (binding.pry, byebug, debugger) left in the code stops the process waiting for a terminal. Remove it before merging.',
  rule: {
    any: [
      { kind: 'call', regex: '^binding\\.(pry|irb|remote_pry|break|b)$' },
      {
        kind: 'identifier',
        regex: '^(byebug|debugger)$',
        inside: {
          any: [
            { kind: 'program' },
            { kind: 'body_statement' },
            { kind: 'then' },
            { kind: 'else' },
            { kind: 'block_body' },
            { kind: 'do_block' },
            { kind: 'begin' },
          ],
        },
      },
    ],
  },
};

export const debugOutputRule: Rule = {
  id: 'rb.debug-output',
  languages: ['ruby'],
  type: 'style',
  severity: 'info',
  message:
    'p/pp/puts in application code is debug output left behind: it bypasses the logger and its levels. Use Rails.logger (or the app logger), or remove it.',
  rule: {
    kind: 'call',
    all: [
      { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
      { has: { field: 'arguments', regex: '[\\s\\S]' } },
    ],
    any: [
      { has: { field: 'method', regex: '^(p|pp)$' } },
      {
        has: { field: 'method', regex: '^(puts|print)$' },
        inside: {
          stopBy: 'end',
          kind: 'class',
          any: [
            {
              has: {
                field: 'superclass',
                regex: '(Controller|ApplicationRecord|ActiveRecord::Base|ApplicationJob|ActiveJob::Base|Mailer)$',
              },
            },
            { has: { field: 'name', regex: '(Service|Job|Worker|Controller|Mailer|Policy|Serializer)$' } },
          ],
        },
      },
    ],
  },
};

/** Directives, notes and YARD tags: words, not code. */
const NOT_CODE = '(?i)^#\\s*(rubocop|frozen_string_literal|typed|todo|fixme|note|see|example|@\\w+\\s)';

/** A comment that holds a line of Ruby: a call, an assignment of a call's result, a macro with code arguments. */
const CODE_COMMENT = {
  kind: 'comment',
  regex:
    '^#\\s*([A-Z]\\w*(::\\w+)*|@?[a-z_]\\w*)(\\.\\w+[?!]?)*\\(.*\\)(\\.\\w+[?!]?(\\(.*\\))?)*\\s*$|^#\\s*@?[a-z_]\\w*\\s*=\\s*[\\w@:"\'\\[{(].*\\(.*\\)\\s*$' +
    // A Rails/Ruby macro with code arguments: `# before_action :require_admin!`, `# has_many :posts, dependent: :destroy`.
    '|^#\\s*(before_action|after_action|around_action|skip_before_action|prepend_before_action|protect_from_forgery|validates?|validates_\\w+|has_many|has_one|belongs_to|has_and_belongs_to_many|scope|attr_(accessor|reader|writer)|delegate|helper_method|include|extend|require|require_relative|(before|after|around)_(save|create|update|destroy|validation|commit)|authorize|redirect_to|render|raise)\\s+(:[a-z_]\\w*[!?]?|"[^"]*"|\'[^\']*\'|@\\w+|[A-Z]\\w*(::\\w+)*)(\\s*,.*)?\\s*$',
  not: { regex: NOT_CODE },
};

export const commentedOutCodeRule: Rule = {
  id: 'rb.commented-out-code',
  languages: ['ruby'],
  type: 'style',
  severity: 'info',
  message:
    'Commented-out code: version control keeps the old code, and a dead line in the file only misleads readers. Delete it.',
  rule: {
    ...CODE_COMMENT,
    not: {
      any: [
        { regex: NOT_CODE },
        // A commented-out block is reported once, on its first line.
        { follows: CODE_COMMENT },
        // YARD and RDoc blocks show usage as indented code above the method, class or module.
        documentationComment('comment', CODE_COMMENT, ['method', 'singleton_method', 'class', 'module']),
      ],
    },
  },
};
