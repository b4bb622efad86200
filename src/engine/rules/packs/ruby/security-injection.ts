import type { Rule } from '../../rule-schema.js';
import {
  assignedFrom,
  firstArgument,
  fromParams,
  PARAMS,
  paramsDerived,
  SCOPE,
  unsafeBuiltString,
} from './fragments.js';

/** A parameter used as is (`params[:x]`, `params.fetch(:x).to_sym`) or interpolated into a string; not a lookup keyed by it. */
const paramValue = {
  any: [
    { regex: '^(request\\.)?params(\\[[^\\]]*\\]|\\.(fetch|dig)\\([^)]*\\))(\\.(to_sym|to_s|camelize|classify))*$' },
    { kind: 'string', has: { kind: 'interpolation', has: { stopBy: 'end', regex: PARAMS } } },
  ],
};

/** A template engine compiling source from params or from a user-editable record (`@template.body`). */
const compiledUntrustedTemplate = {
  kind: 'call',
  any: [
    {
      all: [
        { has: { field: 'receiver', regex: '^(ERB|Erubi::Engine|Liquid::Template|Haml::Engine|Slim::Template)$' } },
        { has: { field: 'method', regex: '^(new|parse)$' } },
        firstArgument(fromParams),
      ],
    },
    // ERB source kept as data (a record the users edit): `ERB.new(@template.body).result(binding)`.
    {
      all: [
        { has: { field: 'receiver', regex: '^(ERB|Erubi::Engine|Haml::Engine|Slim::Template)$' } },
        { has: { field: 'method', regex: '^new$' } },
        firstArgument({
          kind: 'call',
          all: [
            { has: { field: 'receiver', any: [{ kind: 'identifier' }, { kind: 'instance_variable' }] } },
            { has: { field: 'method', regex: '^(body|content|source|template|text|markup|html|code|snippet)$' } },
            { not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
          ],
        }),
      ],
    },
  ],
};

/** Rendering a compiled template. */
const TEMPLATE_RENDER = '^(result|result_with_hash|run|render|src)$';

export const commandInjectionRule: Rule = {
  id: 'rb.command-injection',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'A shell command built with interpolation or concatenation: shell metacharacters in the value run extra commands (command injection). Pass the program and its arguments separately: system("convert", src, dst).',
  rule: {
    any: [
      { kind: 'subshell', has: { kind: 'interpolation' } },
      {
        kind: 'call',
        all: [
          { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
          { has: { field: 'method', regex: '^(system|exec|spawn)$' } },
          firstArgument({ any: [unsafeBuiltString, assignedFrom('$CMD', unsafeBuiltString)] }),
        ],
      },
      // Kernel#open runs a command when the value starts with "|": `open(params[:source])`.
      {
        kind: 'call',
        all: [
          { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
          { has: { field: 'method', regex: '^open$' } },
          firstArgument({ any: [paramsDerived, assignedFrom('$SRC', paramsDerived)] }),
        ],
      },
      {
        kind: 'call',
        all: [
          { has: { field: 'receiver', regex: '^(Kernel|Open3|IO|PTY|Process)$' } },
          {
            has: {
              field: 'method',
              regex: '^(system|exec|spawn|popen|popen2|popen2e|popen3|capture2|capture2e|capture3|pipeline\\w*)$',
            },
          },
          firstArgument({ any: [unsafeBuiltString, assignedFrom('$CMD', unsafeBuiltString)] }),
        ],
      },
    ],
  },
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const evalRule: Rule = {
  id: 'rb.eval',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'eval/instance_eval/class_eval of a string built at run time runs whatever code the value holds (code injection). Use a block, public_send with an allow-list, or parse the data.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'method', regex: '^(eval|instance_eval|class_eval|module_eval)$' } },
      {
        any: [
          firstArgument({
            not: {
              any: [
                { kind: 'string', not: { has: { kind: 'interpolation' } } },
                { kind: 'block_argument' },
                { kind: 'heredoc_beginning' },
              ],
            },
          }),
          // A heredoc with a value interpolated as a whole line of code (not just a method name):
          // `class_eval <<~RUBY ... #{expression} ... RUBY`.
          {
            all: [
              firstArgument({ kind: 'heredoc_beginning' }),
              {
                any: [
                  { precedes: { kind: 'heredoc_body', regex: '(?m)^\\s*#\\{[^}]*\\}\\s*$' } },
                  {
                    inside: {
                      kind: 'assignment',
                      precedes: { kind: 'heredoc_body', regex: '(?m)^\\s*#\\{[^}]*\\}\\s*$' },
                    },
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
  cwe: 'CWE-95',
  cvss: 9.8,
};

export const dynamicDispatchRule: Rule = {
  id: 'rb.dynamic-dispatch',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'A method or class chosen by a request parameter (send/public_send/constantize with params): the caller can invoke any method, e.g. destroy or system (unsafe reflection). Map the parameter to an allow-list first.',
  rule: {
    kind: 'call',
    any: [
      {
        all: [
          {
            has: {
              field: 'method',
              regex: '^(send|public_send|__send__|try|method|const_get|instance_variable_get|instance_variable_set)$',
            },
          },
          firstArgument(paramValue),
        ],
      },
      {
        all: [
          { has: { field: 'method', regex: '^(constantize|safe_constantize)$' } },
          { has: { field: 'receiver', ...paramValue } },
        ],
      },
    ],
  },
  cwe: 'CWE-470',
  cvss: 8.8,
};

export const templateInjectionRule: Rule = {
  id: 'rb.template-injection',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'A template compiled from a request parameter: ERB runs the <%= %> code in it on the server (server-side template injection, remote code execution). Render a fixed template and pass the value as data.',
  rule: {
    kind: 'call',
    any: [
      {
        ...compiledUntrustedTemplate,
        // Compiled into a variable and rendered below: the finding goes on the render line.
        not: {
          inside: {
            kind: 'assignment',
            all: [
              { has: { field: 'left', kind: 'identifier', pattern: '$TPL' } },
              {
                inside: {
                  stopBy: 'end',
                  ...SCOPE,
                  has: {
                    stopBy: 'end',
                    kind: 'call',
                    all: [
                      { has: { field: 'receiver', pattern: '$TPL' } },
                      { has: { field: 'method', regex: TEMPLATE_RENDER } },
                    ],
                  },
                },
              },
            ],
          },
        },
      },
      // `template = ERB.new(params[:template])` ... `template.result(binding)`.
      {
        all: [
          { has: { field: 'method', regex: TEMPLATE_RENDER } },
          { has: { field: 'receiver', ...assignedFrom('$TPL', compiledUntrustedTemplate) } },
        ],
      },
      {
        all: [
          { has: { field: 'method', regex: '^render$' } },
          {
            has: {
              field: 'arguments',
              has: { kind: 'pair', regex: '^inline:', has: { stopBy: 'end', regex: PARAMS } },
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-1336',
  cvss: 9.8,
};

export const inlineTemplateInjectionRule: Rule = {
  id: 'rb.inline-template-injection',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'Sinatra renders a String argument of erb/haml/slim as the template source, so a request value interpolated into it runs as template code (server-side template injection): render a template file and pass the value as a local.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'method', regex: '^(erb|haml|slim|liquid)$' } },
      { not: { has: { field: 'receiver', regex: '.' } } },
      firstArgument({ kind: 'string', has: { kind: 'interpolation', has: { stopBy: 'end', regex: PARAMS } } }),
    ],
  },
  cwe: 'CWE-1336',
};
