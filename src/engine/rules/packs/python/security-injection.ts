import type { Rule } from '../../rule-schema.js';
import { FORMATTED_STRING, firstArgument, fromRequest, plainString, UNSAFE_FORMATTED_STRING } from './fragments.js';

/** A call that runs a non-literal command through a shell: `os.system(cmd)`, `subprocess.run(cmd, shell=True)`. */
const SHELL_SINK = {
  kind: 'call',
  any: [
    {
      all: [
        { has: { field: 'function', regex: '^(os\\.(system|popen|popen2|popen3)|commands\\.getoutput)$' } },
        firstArgument({ not: plainString }),
      ],
    },
    {
      all: [
        {
          has: {
            field: 'function',
            regex: '^subprocess\\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)$',
          },
        },
        { has: { field: 'arguments', has: { kind: 'keyword_argument', regex: '^shell\\s*=\\s*True$' } } },
        firstArgument({ not: { any: [plainString, { kind: 'list' }, { kind: 'tuple' }] } }),
      ],
    },
    {
      all: [
        { has: { field: 'function', regex: '^subprocess\\.(getoutput|getstatusoutput)$' } },
        firstArgument({ not: plainString }),
      ],
    },
  ],
};

/**
 * A call of a function of this file that hands one of its parameters to a shell, with an argument
 * built by formatting: `_git(repo, "log --author='%s'" % author)`.
 */
const callOfHelperWithBuiltString = {
  kind: 'call',
  all: [
    { has: { field: 'function', kind: 'identifier', pattern: '$HELPER' } },
    { has: { field: 'arguments', has: FORMATTED_STRING } },
    {
      inside: {
        stopBy: 'end',
        kind: 'module',
        has: {
          stopBy: 'end',
          kind: 'function_definition',
          all: [
            { has: { field: 'name', pattern: '$HELPER' } },
            { has: { field: 'body', has: { stopBy: 'end', ...SHELL_SINK } } },
          ],
        },
      },
    },
  ],
};

export const commandInjectionRule: Rule = {
  id: 'py.command-injection',
  languages: ['python'],
  type: 'security',
  severity: 'critical',
  message:
    'Shell command built from a non-literal string: shell metacharacters in the value run extra commands (command injection). Pass an argument list without shell=True, e.g. subprocess.run(["ls", path]).',
  rule: {
    kind: 'call',
    all: [
      { any: SHELL_SINK.any },
      // A shell helper of this file called with a formatted string: reported where the caller builds
      // the string (py.command-injection-helper), once.
      {
        not: {
          inside: {
            stopBy: 'end',
            kind: 'function_definition',
            has: { field: 'name', pattern: '$HELPER' },
            inside: { stopBy: 'end', kind: 'module', has: { stopBy: 'end', ...callOfHelperWithBuiltString } },
          },
        },
      },
    ],
  },
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const commandInjectionHelperRule: Rule = {
  id: 'py.command-injection-helper',
  languages: ['python'],
  type: 'security',
  severity: 'critical',
  message:
    'A string built from a value is passed to a helper of this file that runs it through a shell (shell=True / os.system): shell metacharacters in the value run extra commands (command injection). Make the helper take an argument list and call subprocess without shell=True.',
  rule: callOfHelperWithBuiltString,
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const evalRule: Rule = {
  id: 'py.eval',
  languages: ['python'],
  type: 'security',
  severity: 'critical',
  message:
    'eval/exec of a string built from data (formatting, concatenation, request values, input()) runs whatever code the value holds (code injection). Parse data with ast.literal_eval or json.loads, or dispatch on a fixed set of names.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'function', kind: 'identifier', regex: '^(eval|exec)$' } },
      firstArgument({
        any: [
          { kind: 'string', has: { kind: 'interpolation' } },
          { kind: 'binary_operator', has: { stopBy: 'end', kind: 'string' } },
          { kind: 'call', has: { field: 'function', regex: '\\.format$|^input$' } },
          { regex: '^sys\\.argv\\b' },
          // Code kept as data: `exec(workflow.script, ns)`, `eval(rule.expression)`.
          {
            kind: 'attribute',
            has: {
              field: 'attribute',
              regex: '(?i)^(script|code|source|source_code|expr|expression|formula|snippet|python_code)$',
            },
          },
          fromRequest(),
        ],
      }),
    ],
  },
  cwe: 'CWE-94',
  cvss: 9.8,
};

export const templateInjectionRule: Rule = {
  id: 'py.template-injection',
  languages: ['python'],
  type: 'security',
  severity: 'critical',
  message:
    'Template source built from a value at run time: Jinja2 evaluates {{ ... }} in that value, so a user can run code on the server (server-side template injection). Keep the template constant and pass the value as a variable: render_template_string("<h1>Hello {{ name }}</h1>", name=name).',
  rule: {
    kind: 'call',
    all: [
      {
        has: {
          field: 'function',
          regex:
            '^(flask\\.)?render_template_string$|^(jinja2\\.)?Template$|^(\\w+\\.)*(env|environment|jinja_env)\\.from_string$',
        },
      },
      firstArgument({
        any: [
          { kind: 'string', has: { kind: 'interpolation' } },
          {
            kind: 'binary_operator',
            all: [{ has: { field: 'operator', regex: '^(\\+|%)$' } }, { has: { stopBy: 'end', kind: 'string' } }],
          },
          { kind: 'call', has: { field: 'function', kind: 'attribute', regex: '^[\\s\\S]*\\.format$' } },
          fromRequest(),
          // Template source read from a record rather than a file: `campaign.body`, `page.template`
          // (not the code's own `self.template` or a constant `settings.TEMPLATE`).
          {
            kind: 'attribute',
            has: {
              field: 'attribute',
              regex: '(?i)(body|source|src|template|tpl|content|markup|html|text)$',
              not: { regex: '^[A-Z][A-Z0-9_]*$' },
            },
            not: { regex: '^(self|cls)\\.' },
          },
          // Built in a variable first, in the same function: `page = "<p>%s</p>" % request.path`.
          {
            kind: 'identifier',
            pattern: '$TEMPLATE',
            inside: {
              stopBy: 'end',
              kind: 'function_definition',
              has: {
                stopBy: 'end',
                kind: 'assignment',
                all: [
                  { has: { field: 'left', pattern: '$TEMPLATE' } },
                  { has: { field: 'right', ...UNSAFE_FORMATTED_STRING } },
                ],
              },
            },
          },
        ],
      }),
    ],
  },
  cwe: 'CWE-1336',
  cvss: 9.8,
};
