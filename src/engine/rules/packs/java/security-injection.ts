// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a message quotes a Thymeleaf `${...}` expression
import type { Rule } from '../../rule-schema.js';
import { builtString, declaredFrom, firstArgument, MAPPING, requestParameter } from './fragments.js';

/** `{"sh", "-c", "ping " + host}`: a shell with -c and a command that is not one literal. */
const SHELL_ARGUMENTS =
  '["\'](/bin/)?(sh|bash|cmd|cmd\\.exe)["\']\\s*,\\s*["\'](-c|/c)["\']\\s*,\\s*([^"\\s]|"[^"]*"\\s*\\+)';

export const expressionInjectionRule: Rule = {
  id: 'java.expression-injection',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'A SpEL/OGNL/MVEL expression or a Velocity/FreeMarker template evaluated from a non-constant string: whoever writes that string can call any Java method (T(java.lang.Runtime).exec(...)), i.e. code injection. Evaluate only your own expressions, or use SimpleEvaluationContext.',
  rule: {
    any: [
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^(parseExpression|parseRaw)$' } },
          firstArgument({ not: { kind: 'string_literal' } }),
          {
            inside: { kind: 'method_invocation', regex: '\\.getValue\\(', stopBy: { kind: 'expression_statement' } },
          },
          { not: { inside: { stopBy: 'end', kind: 'method_declaration', regex: 'SimpleEvaluationContext' } } },
        ],
      },
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^evaluate$' } },
          {
            any: [
              { has: { field: 'object', regex: '(?i)velocity' } },
              // A VelocityEngine field named `engine`: the file imports Velocity.
              {
                inside: {
                  stopBy: 'end',
                  kind: 'program',
                  has: { kind: 'import_declaration', regex: 'org\\.apache\\.velocity\\.' },
                },
              },
            ],
          },
          { has: { field: 'arguments', has: { nthChild: 4, not: { kind: 'string_literal' } } } },
        ],
      },
      {
        kind: 'object_creation_expression',
        all: [
          { has: { field: 'type', regex: '^(freemarker\\.template\\.)?Template$' } },
          {
            has: {
              field: 'arguments',
              has: { nthChild: 2, kind: 'object_creation_expression', regex: '^new\\s+StringReader\\(\\s*[^"\\s]' },
            },
          },
        ],
      },
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^(eval|evaluate|parse)$' } },
          { has: { field: 'object', regex: '^(Ognl|MVEL|groovyShell|shell|GroovyShell)$' } },
          firstArgument({ not: { kind: 'string_literal' } }),
        ],
      },
    ],
  },
  cwe: 'CWE-917',
};

export const commandInjectionRule: Rule = {
  id: 'java.command-injection',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'A command line built from strings at run time and run through a shell or Runtime.exec: metacharacters or spaces in the value change the command (command injection). Pass a fixed program and separate arguments to ProcessBuilder, without "sh -c".',
  rule: {
    any: [
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'object', regex: '^Runtime\\.getRuntime\\(\\)$|(?i)runtime$' } },
          { has: { field: 'name', regex: '^exec$' } },
          firstArgument({
            any: [
              builtString,
              { kind: 'array_creation_expression', regex: SHELL_ARGUMENTS },
              // `String[] cmd = {"/bin/sh", "-c", "ping " + host};` or `String cmd = "ping " + host;` first.
              declaredFrom('$CMD', { any: [builtString, { kind: 'array_initializer', regex: SHELL_ARGUMENTS }] }),
            ],
          }),
        ],
      },
      {
        kind: 'object_creation_expression',
        all: [
          { has: { field: 'type', regex: '^ProcessBuilder$' } },
          {
            any: [
              firstArgument({
                any: [
                  builtString,
                  { kind: 'method_invocation', regex: `^(List\\.of|Arrays\\.asList)\\(\\s*${SHELL_ARGUMENTS}` },
                  declaredFrom('$CMD', {
                    any: [
                      { kind: 'array_initializer', regex: SHELL_ARGUMENTS },
                      { kind: 'array_creation_expression', regex: SHELL_ARGUMENTS },
                      { kind: 'method_invocation', regex: `^(List\\.of|Arrays\\.asList)\\(\\s*${SHELL_ARGUMENTS}` },
                    ],
                  }),
                ],
              }),
              {
                has: {
                  field: 'arguments',
                  regex: '^\\(\\s*"(/bin/)?(sh|bash|cmd|cmd\\.exe)"\\s*,\\s*"(-c|/c)"\\s*,\\s*([^"\\s]|"[^"]*"\\s*\\+)',
                },
              },
            ],
          },
        ],
      },
    ],
  },
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const groovyEvalRule: Rule = {
  id: 'java.groovy-eval',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'GroovyShell runs the string as a Groovy program with the full power of the JVM: a script that comes from a request is remote code execution. Offer a fixed set of rules or a sandboxed expression language instead.',
  rule: {
    kind: 'method_invocation',
    all: [
      { has: { field: 'name', regex: '^(evaluate|parse|run)$' } },
      {
        has: {
          field: 'object',
          any: [
            { kind: 'object_creation_expression', regex: '^new\\s+GroovyShell\\b' },
            {
              kind: 'identifier',
              pattern: '$SHELL',
              inside: {
                stopBy: 'end',
                kind: 'class_declaration',
                has: {
                  stopBy: 'end',
                  any: [{ kind: 'local_variable_declaration' }, { kind: 'field_declaration' }],
                  all: [
                    { has: { field: 'type', regex: '^GroovyShell$' } },
                    { has: { kind: 'variable_declarator', has: { field: 'name', pattern: '$SHELL' } } },
                  ],
                },
              },
            },
          ],
        },
      },
      firstArgument({ not: { kind: 'string_literal' } }),
    ],
  },
  cwe: 'CWE-94',
  cvss: 9.8,
};

export const scriptEvalRule: Rule = {
  id: 'java.script-eval',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'A ScriptEngine evaluates a string that is not a constant: whoever controls it runs arbitrary code in the JVM (code injection). Do not evaluate user input; use a restricted expression language or a sandbox with an allow-list.',
  rule: {
    kind: 'method_invocation',
    all: [
      { has: { field: 'name', regex: '^eval$' } },
      { has: { field: 'object', regex: '(?i)engine$' } },
      firstArgument({ not: { kind: 'string_literal' } }),
      {
        inside: {
          stopBy: 'end',
          kind: 'program',
          has: { stopBy: 'end', kind: 'type_identifier', regex: '^ScriptEngine$' },
        },
      },
    ],
  },
  cwe: 'CWE-94',
  cvss: 9.8,
};

export const springViewNameInjectionRule: Rule = {
  id: 'java.spring-view-name-injection',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'The view name a @Controller returns is built from a request parameter: Spring resolves it through the template engine, and Thymeleaf evaluates expressions in it (`__${T(java.lang.Runtime).getRuntime().exec(...)}__::x`), i.e. template injection. Map the parameter to a fixed set of view names.',
  rule: {
    any: [
      {
        kind: 'return_statement',
        has: {
          kind: 'binary_expression',
          has: { stopBy: 'end', ...requestParameter('$P') },
          all: [{ regex: '^"|"$' }, { not: { regex: '^"(redirect|forward):' } }],
        },
        inside: {
          stopBy: 'end',
          kind: 'method_declaration',
          all: [
            { has: { kind: 'modifiers', regex: MAPPING } },
            { not: { has: { kind: 'modifiers', regex: '@ResponseBody\\b' } } },
            { has: { field: 'type', regex: '^String$' } },
            {
              inside: {
                stopBy: 'end',
                kind: 'class_declaration',
                has: { kind: 'modifiers', regex: '@Controller\\b' },
              },
            },
          ],
        },
      },
      {
        kind: 'object_creation_expression',
        has: { field: 'type', regex: '^ModelAndView$' },
        all: [
          firstArgument({
            kind: 'binary_expression',
            has: { stopBy: 'end', ...requestParameter('$P') },
            not: { regex: '^"(redirect|forward):' },
          }),
        ],
      },
    ],
  },
  cwe: 'CWE-1336',
  cvss: 9.8,
};
