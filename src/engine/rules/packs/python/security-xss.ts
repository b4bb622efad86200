import type { Rule } from '../../rule-schema.js';
import { firstArgument, fromRequest } from './fragments.js';

/** HTML built by formatting with a request value, not escaped: `f"<h1>{request.args['q']}</h1>"`. */
const htmlFromRequest = {
  any: [
    { kind: 'string', has: { kind: 'interpolation' } },
    { kind: 'binary_operator', has: { stopBy: 'end', kind: 'string' } },
    { kind: 'call', has: { field: 'function', kind: 'attribute', regex: '^["\'].*\\.format$' } },
  ],
  regex: '<[a-zA-Z][^>]*>',
  all: [
    fromRequest(),
    {
      not: {
        has: {
          stopBy: 'end',
          kind: 'call',
          regex: '^(escape|markupsafe\\.escape|html\\.escape|bleach\\.clean)\\(',
        },
      },
    },
  ],
};

export const htmlResponseFstringRule: Rule = {
  id: 'py.html-response-fstring',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'HTML built with an f-string or concatenation from request values is returned unescaped (cross-site scripting): render a template (Jinja escapes by default) or wrap the values in markupsafe.escape().',
  rule: {
    any: [
      {
        kind: 'return_statement',
        has: {
          any: [
            htmlFromRequest,
            // `return f"<p>{request.path}</p>", 404`: the body and the status code.
            { kind: 'expression_list', has: { nthChild: 1, ...htmlFromRequest } },
          ],
        },
      },
      {
        kind: 'call',
        has: { field: 'function', regex: '^(make_response|Response|HttpResponse|HTMLResponse)$' },
        all: [
          firstArgument({
            any: [
              { kind: 'string', has: { kind: 'interpolation' } },
              { kind: 'binary_operator', has: { stopBy: 'end', kind: 'string' } },
            ],
            regex: '<[a-zA-Z][^>]*>',
            all: [
              fromRequest(),
              {
                not: {
                  has: {
                    stopBy: 'end',
                    kind: 'call',
                    regex: '^(escape|markupsafe\\.escape|html\\.escape|bleach\\.clean)\\(',
                  },
                },
              },
            ],
          }),
        ],
      },
    ],
  },
  cwe: 'CWE-79',
};

/** A string built with values: an f-string, `+`/`%` of text and a value, `"...".format(...)`. */
const BUILT_STRING = [
  { kind: 'string', has: { kind: 'interpolation' } },
  {
    kind: 'binary_operator',
    all: [
      { has: { field: 'operator', regex: '^(\\+|%)$' } },
      { has: { stopBy: 'end', kind: 'string' } },
      { has: { stopBy: 'end', any: [{ kind: 'identifier' }, { kind: 'attribute' }, { kind: 'call' }] } },
    ],
  },
  {
    kind: 'call',
    has: {
      field: 'function',
      kind: 'attribute',
      all: [{ has: { field: 'object', kind: 'string' } }, { has: { field: 'attribute', regex: '^format$' } }],
    },
  },
];

export const markSafeRule: Rule = {
  id: 'py.mark-safe',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'mark_safe/Markup on a string built with values turns off escaping for those values: HTML in a user field runs in the page (XSS). Use format_html("<a href=\\"{}\\">{}</a>", url, name), which escapes the arguments.',
  rule: {
    kind: 'call',
    all: [
      {
        has: {
          field: 'function',
          regex: '^((django\\.utils\\.safestring\\.)?mark_safe|(markupsafe\\.)?Markup|SafeString)$',
        },
      },
      firstArgument({
        any: [
          ...BUILT_STRING,
          // `text.replace(term, "<mark>" + term + "</mark>")`: markup built around a value, passed through a string method.
          {
            kind: 'call',
            all: [
              { has: { field: 'function', kind: 'attribute', has: { field: 'attribute', regex: '^(replace|join)$' } } },
              { has: { field: 'arguments', has: { any: BUILT_STRING } } },
            ],
          },
        ],
      }),
    ],
  },
  cwe: 'CWE-79',
  cvss: 6.1,
};
