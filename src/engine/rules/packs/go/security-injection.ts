import type { Rule } from '../../rule-schema.js';
import { argument, fromRequest, functionParameter, stringLiteral } from './fragments.js';

/** `exec.Command("sh", "-c", cmd)` (or CommandContext) with a command that is not a literal. */
const SHELL = '^["`](/bin/|/usr/bin/)?(sh|bash|zsh|ksh|dash)["`]$|^["`](cmd|cmd\\.exe|powershell|pwsh)["`]$';

const shellRunning = (command: Record<string, unknown>) => ({
  kind: 'call_expression',
  // Atomic keys are checked first: only calls of exec.Command* reach the other conditions.
  regex: '^exec\\.Command',
  any: [
    {
      all: [
        { has: { field: 'function', regex: '^exec\\.Command$' } },
        argument(1, { regex: SHELL }),
        argument(2, { regex: '^["`](-c|/c|/C|-Command)["`]$' }),
        argument(3, command),
      ],
    },
    {
      all: [
        { has: { field: 'function', regex: '^exec\\.CommandContext$' } },
        argument(2, { regex: SHELL }),
        argument(3, { regex: '^["`](-c|/c|/C|-Command)["`]$' }),
        argument(4, command),
      ],
    },
  ],
});

const shellCommand = shellRunning({ not: stringLiteral });

/**
 * A shell helper whose command text is all its caller's (`sh -c` of a parameter, or of
 * `fmt.Sprintf(format, args...)`): the caller writes the command, so the call is where it goes
 * wrong. A helper that writes its own text around a parameter (`"git log " + ref`) is reported
 * at its own shell line, where the value meets the text.
 */
const callersShell = shellRunning({ not: { any: [stringLiteral, { has: { stopBy: 'end', ...stringLiteral } }] } });

export const templateInjectionRule: Rule = {
  id: 'go.template-injection',
  languages: ['go'],
  type: 'security',
  severity: 'critical',
  message:
    'A template parsed from request input runs attacker-written template code (text/template does not escape, and templates can call methods on the data): template injection. Parse only your own templates and pass the input as data.',
  rule: {
    kind: 'call_expression',
    all: [
      { has: { field: 'function', regex: '(^template\\.New\\(.*\\)|^(tmpl|tpl|t|template))\\.Parse$' } },
      argument(1, {
        any: [
          fromRequest,
          // `func (r *Renderer) Render(userTemplate string, ...)`: a parameter named as user-written text.
          {
            ...functionParameter('$SOURCE'),
            regex: '^(user|custom|tenant|untrusted|submitted|input)([A-Z_]\\w*)?$',
          },
        ],
      }),
    ],
  },
  cwe: 'CWE-1336',
};

export const commandInjectionRule: Rule = {
  id: 'go.command-injection',
  languages: ['go'],
  type: 'security',
  severity: 'critical',
  message:
    'A shell runs a command string built at run time ("sh -c" with a non-literal): shell metacharacters in the value run extra commands (command injection). Run the program directly with separate arguments: exec.Command("convert", src, dst).',
  rule: {
    any: [
      {
        ...shellCommand,
        // A helper running its caller's command, called with request data in this file, is reported at that call (below).
        not: {
          inside: {
            stopBy: 'end',
            kind: 'function_declaration',
            all: [{ has: { field: 'name', pattern: '$HELPER' } }, { has: { stopBy: 'end', ...callersShell } }],
            inside: {
              kind: 'source_file',
              has: {
                stopBy: 'end',
                kind: 'call_expression',
                all: [
                  { has: { field: 'function', kind: 'identifier', pattern: '$HELPER' } },
                  { has: { field: 'arguments', has: { stopBy: 'end', ...fromRequest } } },
                ],
              },
            },
          },
        },
      },
      // `shell("pg_dump %s | gzip", db)` where `func shell(format string, args ...any)` runs `sh -c`.
      {
        kind: 'call_expression',
        all: [
          { has: { field: 'function', kind: 'identifier', pattern: '$HELPER' } },
          {
            inside: {
              stopBy: 'end',
              kind: 'source_file',
              has: {
                kind: 'function_declaration',
                all: [{ has: { field: 'name', pattern: '$HELPER' } }, { has: { stopBy: 'end', ...callersShell } }],
              },
            },
          },
          { has: { field: 'arguments', has: { stopBy: 'end', ...fromRequest } } },
        ],
      },
    ],
  },
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const jsVmEvalRule: Rule = {
  id: 'go.js-vm-eval',
  languages: ['go'],
  type: 'security',
  severity: 'critical',
  message:
    'An embedded JavaScript (goja, otto, v8go) or Go (yaegi) interpreter runs source text that is not a constant: whoever writes that text runs code in the service, with the values and functions exposed to the VM (code injection). Evaluate only your own scripts, or offer a restricted expression language.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        has: {
          field: 'function',
          kind: 'selector_expression',
          any: [
            { has: { field: 'field', regex: '^(RunString|RunScript|EvalString)$' } },
            {
              all: [
                { has: { field: 'field', regex: '^(Run|Eval)$' } },
                { has: { field: 'operand', regex: '^(vm|jsvm|js|rt|runtime|otto|interp|interpreter|i|engine)$' } },
              ],
            },
          ],
        },
      },
      {
        has: {
          field: 'arguments',
          has: {
            any: [
              { kind: 'identifier' },
              { kind: 'selector_expression' },
              { kind: 'binary_expression' },
              { kind: 'call_expression' },
            ],
            not: { regex: '^(ctx|context\\.\\w+\\(\\))$' },
          },
        },
      },
      {
        inside: {
          stopBy: 'end',
          kind: 'source_file',
          has: {
            stopBy: 'end',
            kind: 'import_spec',
            regex:
              '"(github\\.com/dop251/goja|github\\.com/robertkrimen/otto|rogchap\\.com/v8go|github\\.com/traefik/yaegi/interp)"',
          },
        },
      },
    ],
  },
  cwe: 'CWE-94',
  cvss: 9.8,
};
