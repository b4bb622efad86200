import type { Rule } from '../../rule-schema.js';
import {
  CONCATENATION,
  CONSTANT_NAME,
  calleeName,
  calleeProperty,
  carriesRequest,
  DYNAMIC_STRING,
  declaredFrom,
  FUNCTION,
  firstArgument,
  functionNamed,
  INTERPOLATED_TEMPLATE,
  LANGUAGES,
  NON_LITERAL,
} from './fragments.js';

/**
 * Template source read from a record rather than a file: `page.source`, `template.body`,
 * `campaign.bodyHtml`, or custom text with a default (`customText ?? 'Thanks <%= name %>'`).
 */
const RECORD_TEMPLATE = {
  kind: 'member_expression',
  has: { field: 'property', regex: '(?i)(body|source|src|template|tpl|content|markup|html|text)$' },
  not: { regex: '^(this\\.|[A-Z][A-Z0-9_]*\\.|__dirname|process\\.)' },
};

const TEMPLATE_SOURCE_FROM_DATA = {
  any: [
    RECORD_TEMPLATE,
    // Either record's text (`data.customTemplate ? data.customTemplate : tenant.defaultTemplate`),
    // or fixed markup with one appended (`heading + page.body`).
    {
      kind: 'ternary_expression',
      any: [
        { has: { field: 'consequence', ...RECORD_TEMPLATE } },
        { has: { field: 'alternative', ...RECORD_TEMPLATE } },
      ],
    },
    {
      kind: 'binary_expression',
      has: { field: 'operator', regex: '^\\+$' },
      any: [{ has: { field: 'left', ...RECORD_TEMPLATE } }, { has: { field: 'right', ...RECORD_TEMPLATE } }],
    },
    {
      kind: 'binary_expression',
      has: { field: 'operator', regex: '^(\\?\\?|\\|\\|)$' },
      all: [
        { has: { field: 'left', any: [{ kind: 'identifier', not: CONSTANT_NAME }, { kind: 'member_expression' }] } },
        { has: { field: 'right', kind: 'string', regex: '(<%|\\{\\{|#\\{|\\$\\{)' } },
      ],
    },
  ],
};

export const commandInjectionRule: Rule = {
  id: 'js.command-injection',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'A shell command built from interpolated or concatenated values is open to command injection: use execFile/spawn with an argument array and no shell.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeProperty('^(exec|execSync)$', '^(child_process|childProcess|cp|proc|shell)$'),
          calleeProperty('^execSync$'),
          calleeName('^(exec|execSync)$'),
        ],
      },
      firstArgument({ any: [DYNAMIC_STRING, declaredFrom(DYNAMIC_STRING, '$CMD')] }),
    ],
  },
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const commandInjectionWrapperRule: Rule = {
  id: 'js.command-injection-wrapper',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'This function is child_process.exec promisified in this file, so the interpolated or concatenated string runs in a shell: a value containing `;` or `$(...)` injects commands. Use execFile with an argument array instead.',
  rule: {
    kind: 'call_expression',
    all: [
      { has: { field: 'function', kind: 'identifier', pattern: '$RUN' } },
      firstArgument({ any: [DYNAMIC_STRING, declaredFrom(DYNAMIC_STRING, '$CMD')] }),
      {
        inside: {
          kind: 'program',
          stopBy: 'end',
          has: {
            stopBy: 'end',
            any: [
              // `const run = promisify(exec)` (or util.promisify(child_process.exec)) in the same file.
              {
                kind: 'variable_declarator',
                all: [
                  { has: { field: 'name', pattern: '$RUN' } },
                  {
                    has: {
                      field: 'value',
                      kind: 'call_expression',
                      regex: '^(util\\.)?promisify\\(\\s*((child_process|childProcess|cp)\\.)?exec\\s*\\)$',
                    },
                  },
                ],
              },
              // A helper of this file that runs its first parameter with `sh -c`:
              // `function run(command) { return spawn('sh', ['-c', command]) }`.
              {
                any: functionNamed('$RUN'),
                has: {
                  kind: 'call_expression',
                  stopBy: 'end',
                  regex:
                    '^([\\w$.]+\\.)?(spawn|spawnSync|execFile|execFileSync|execa|execaSync)\\(\\s*[\'"](/usr)?(/bin/)?(ba|z|da|a)?sh[\'"]\\s*,\\s*\\[\\s*[\'"]-c[\'"]\\s*,\\s*[\\w$]+\\s*\\]',
                },
              },
            ],
          },
        },
      },
    ],
  },
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const spawnShellRule: Rule = {
  id: 'js.spawn-shell',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'spawn/execFile with `shell: true` hands non-literal arguments to a shell, which re-opens command injection: drop the shell option and pass an argument array.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeProperty('^(spawn|spawnSync|execFile|execFileSync)$'),
          calleeName('^(spawn|spawnSync|execFile|execFileSync)$'),
        ],
      },
      { has: { field: 'arguments', has: { kind: 'object', has: { kind: 'pair', regex: '^shell\\s*:\\s*true$' } } } },
      {
        has: {
          field: 'arguments',
          any: [
            { has: { nthChild: 1, not: { kind: 'string' } } },
            {
              has: {
                kind: 'array',
                has: { any: [{ kind: 'identifier' }, { kind: 'member_expression' }, INTERPOLATED_TEMPLATE] },
              },
            },
          ],
        },
      },
    ],
  },
  cwe: 'CWE-78',
};

export const shellCCommandRule: Rule = {
  id: 'js.shell-c-command',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'spawn/execFile of `sh -c` (or bash -c) with a built string runs that string in a shell, so the argument list protects nothing: a value containing `;` or `$(...)` injects commands. Call the program itself with an argument array.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeProperty('^(spawn|spawnSync|execFile|execFileSync)$'),
          calleeName('^(spawn|spawnSync|execFile|execFileSync|execa|execaSync)$'),
        ],
      },
      firstArgument({ kind: 'string', regex: '^.(/usr)?(/bin/)?(sh|bash|zsh|dash|ash)[\'"]$' }),
      {
        has: {
          field: 'arguments',
          has: {
            nthChild: 2,
            kind: 'array',
            all: [
              { has: { kind: 'string', regex: '^.-c.$' } },
              {
                has: {
                  any: [
                    DYNAMIC_STRING,
                    { kind: 'member_expression' },
                    // Not a parameter of the function around: that wrapper is reported where it
                    // is called with a built string (js.command-injection-wrapper).
                    {
                      kind: 'identifier',
                      pattern: '$SHELLCMD',
                      not: {
                        inside: {
                          ...FUNCTION,
                          stopBy: 'end',
                          has: {
                            field: 'parameters',
                            has: { kind: 'identifier', pattern: '$SHELLCMD', stopBy: 'end' },
                          },
                        },
                      },
                    },
                  ],
                },
              },
            ],
          },
        },
      },
    ],
  },
  cwe: 'CWE-78',
  cvss: 9.8,
};

export const evalRule: Rule = {
  id: 'js.eval',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'eval/new Function run a string as code: with any outside input this is code injection. Parse data with JSON.parse or dispatch on known names instead.',
  rule: {
    any: [
      { kind: 'call_expression', all: [calleeName('^eval$'), firstArgument(NON_LITERAL)] },
      {
        kind: 'new_expression',
        has: { field: 'constructor', regex: '^Function$' },
        all: [{ has: { field: 'arguments', has: { any: [{ kind: 'identifier' }, DYNAMIC_STRING] } } }],
      },
    ],
  },
  cwe: 'CWE-95',
  cvss: 9.8,
};

export const stringTimerRule: Rule = {
  id: 'js.string-timer',
  languages: LANGUAGES,
  type: 'security',
  severity: 'warning',
  message:
    'setTimeout/setInterval with a string evaluates it like eval (and breaks under a CSP): pass a function instead.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeName('^(setTimeout|setInterval)$'),
          calleeProperty('^(setTimeout|setInterval)$', '^(window|globalThis|self)$'),
        ],
      },
      firstArgument({ any: [{ kind: 'string' }, { kind: 'template_string' }, CONCATENATION] }),
    ],
  },
  cwe: 'CWE-95',
};

export const vmRunRule: Rule = {
  id: 'js.vm-run',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'The vm module is not a security boundary: running non-constant code with vm.runIn*Context or new vm.Script can escape to the host process.',
  rule: {
    any: [
      {
        kind: 'call_expression',
        all: [
          calleeProperty('^(runInNewContext|runInThisContext|runInContext|compileFunction)$', '^vm$'),
          firstArgument(NON_LITERAL),
        ],
      },
      {
        kind: 'new_expression',
        has: { field: 'constructor', regex: '^vm\\.Script$' },
        all: [{ has: { field: 'arguments', has: { nthChild: 1, ...NON_LITERAL } } }],
      },
    ],
  },
  cwe: 'CWE-95',
};

/**
 * A bare call of a template library's function, imported under that name (`import template from
 * 'lodash/template'`, `const { compile } = require('handlebars')`); not a call of a template the
 * function compiled itself (`const template = Handlebars.compile(src); template(data)` renders).
 */
const importedTemplateCall = (names: string) => ({
  all: [
    calleeName(names),
    { has: { field: 'function', pattern: '$TFN' } },
    {
      not: {
        inside: {
          stopBy: 'end',
          kind: 'statement_block',
          has: { stopBy: 'end', kind: 'variable_declarator', has: { field: 'name', pattern: '$TFN' } },
        },
      },
    },
    {
      inside: {
        kind: 'program',
        stopBy: 'end',
        regex:
          '(import|require)[^;\\n]*[\'"](lodash[./]template|lodash|lodash-es|handlebars|pug|ejs|nunjucks|mustache|dot)[\'"]',
      },
    },
  ],
});

export const templateInjectionRule: Rule = {
  id: 'js.template-injection',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'Compiling a template taken from the request runs attacker-written template code on the server (template injection): compile only your own templates and pass input as data.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeProperty(
            '^(compile|render|template|renderString)$',
            '^(_|lodash|Handlebars|handlebars|ejs|pug|nunjucks|Mustache|mustache)$',
          ),
          // nunjucks/liquidjs environments: `env.renderString(src, vars)`, `engine.parseAndRender(src)`.
          calleeProperty('^(renderString|parseAndRender|parseAndRenderSync)$'),
          // `import template from 'lodash/template'`, `import { compile } from 'handlebars'`.
          importedTemplateCall('^(template|compile)$'),
        ],
      },
      firstArgument(carriesRequest()),
    ],
  },
  cwe: 'CWE-1336',
};

export const templateFromDataRule: Rule = {
  id: 'js.template-from-data',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'This compiles template source that comes from data (a stored page, a user-edited template, custom text), not from your own template files: template syntax in it runs on the server (template injection). Render fixed templates and pass the custom text as a variable, or use a logic-less sandboxed engine.',
  rule: {
    kind: 'call_expression',
    // Cheap checks of the callee first, then the argument, then (for a bare `template(...)`) the imports.
    all: [
      {
        any: [
          calleeProperty('^(renderString|parseAndRender|parseAndRenderSync|compile|render|template)$'),
          calleeName('^(template|compile|render)$'),
        ],
      },
      {
        any: [
          firstArgument({ any: [TEMPLATE_SOURCE_FROM_DATA, declaredFrom(TEMPLATE_SOURCE_FROM_DATA, '$TPL')] }),
          // Template source spliced from values: `env.renderString(`{% block c %}${body}{% endblock %}`)`.
          // (Not `render`, which takes a file name in nunjucks: `env.render(`${name}.njk`)`.)
          {
            all: [
              { not: calleeProperty('^render$') },
              { not: calleeName('^render$') },
              firstArgument({
                kind: 'template_string',
                has: { kind: 'template_substitution', not: { has: { ...CONSTANT_NAME } } },
              }),
            ],
          },
        ],
      },
      {
        any: [
          // nunjucks: `env.renderString(src, vars)`; liquidjs: `engine.parseAndRender(src, vars)`.
          calleeProperty('^(renderString|parseAndRender|parseAndRenderSync)$'),
          calleeProperty(
            '^(compile|render|template)$',
            '^(_|lodash|Handlebars|handlebars|hbs|ejs|pug|jade|nunjucks|Mustache|mustache|dot|doT|Twig|twig|Hogan|hogan|Eta|eta)$',
          ),
          // `import template from 'lodash/template'`, `import { compile } from 'handlebars'`.
          importedTemplateCall('^(template|compile|render)$'),
        ],
      },
    ],
  },
  cwe: 'CWE-1336',
  cvss: 9.8,
};
