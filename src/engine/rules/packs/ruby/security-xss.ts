import type { Rule } from '../../rule-schema.js';
import { assignedFrom, firstArgument, fromParams, interpolated, PARAMS } from './fragments.js';

/** A Sinatra route: `get "/path" do ... end`. */
const sinatraRoute = {
  kind: 'call',
  all: [
    { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
    { has: { field: 'method', regex: '^(get|post|put|patch|delete)$' } },
    firstArgument({ kind: 'string', regex: '^["\']/' }),
  ],
};

export const htmlSafeRule: Rule = {
  id: 'rb.html-safe',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'html_safe/raw marks a string built from data as safe, so Rails does not escape it: markup in the value runs in the page (XSS). Build it with content_tag / tag helpers or format with ERB::Util.h, or sanitize() it.',
  rule: {
    kind: 'call',
    any: [
      { all: [{ has: { field: 'method', regex: '^html_safe$' } }, { has: { field: 'receiver', ...interpolated } }] },
      // Built in a local first: `heading = "<h2>Results for #{query}</h2>"; heading.html_safe`.
      {
        all: [
          { has: { field: 'method', regex: '^html_safe$' } },
          {
            has: {
              field: 'receiver',
              ...assignedFrom('$HTML', {
                kind: 'string',
                has: {
                  kind: 'interpolation',
                  not: { regex: '^#\\{\\s*(h|html_escape|sanitize|(ERB::Util|CGI)\\.\\w+)[(\\s]' },
                },
              }),
            },
          },
        ],
      },
      {
        all: [
          { has: { field: 'method', regex: '^html_safe$' } },
          { has: { field: 'receiver', any: [{ regex: PARAMS }, { has: { stopBy: 'end', regex: PARAMS } }] } },
        ],
      },
      {
        all: [
          { has: { field: 'method', regex: '^html_safe$' } },
          { has: { field: 'receiver', kind: 'identifier', pattern: '$V' } },
          {
            inside: {
              stopBy: 'end',
              kind: 'method',
              has: {
                stopBy: 'end',
                kind: 'assignment',
                all: [
                  { has: { field: 'left', pattern: '$V' } },
                  { has: { field: 'right', has: { stopBy: 'end', regex: PARAMS } } },
                ],
              },
            },
          },
        ],
      },
      {
        all: [
          { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
          { has: { field: 'method', regex: '^raw$' } },
          firstArgument({
            any: [
              interpolated,
              { regex: PARAMS },
              {
                kind: 'call',
                all: [
                  { has: { field: 'receiver', any: [{ kind: 'identifier' }, { kind: 'instance_variable' }] } },
                  { not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
                  { not: { has: { field: 'method', regex: '(?i)(html|safe|sanitized|escaped|rendered|json)' } } },
                ],
              },
              // A local built from a record's text first: `formatted = comment.body.gsub("\\n", "<br>")`.
              assignedFrom('$RAW', {
                any: [
                  interpolated,
                  {
                    kind: 'call',
                    regex:
                      '^@?[a-z_]\\w*\\.(body|content|text|description|bio|message|comment|note|title|name|summary)\\b',
                  },
                ],
                not: {
                  regex:
                    '\\b(sanitize|h|html_escape|escape_html|strip_tags|simple_format|content_tag|safe_join|to_json)\\b',
                },
              }),
            ],
          }),
        ],
      },
    ],
  },
  cwe: 'CWE-79',
  cvss: 6.1,
};

export const sinatraHtmlResponseRule: Rule = {
  id: 'rb.sinatra-html-response',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'A Sinatra route returns HTML with a request parameter interpolated unescaped: markup in the value runs in the page (XSS). Render an ERB view with escaping, or wrap the value in Rack::Utils.escape_html / ERB::Util.h.',
  rule: {
    kind: 'string',
    regex: '<[a-zA-Z][^>]*>',
    all: [
      {
        has: {
          kind: 'interpolation',
          any: [
            { has: { stopBy: 'end', regex: PARAMS } },
            { has: { kind: 'identifier', ...assignedFrom('$V', fromParams) } },
          ],
          not: {
            regex: '\\b(h|escape_html|html_escape|escape|sanitize)\\(|\\.(to_i|to_f|size|length|count)\\s*\\}$',
          },
        },
      },
      {
        any: [
          // The route's value is the response body.
          { inside: { kind: 'body_statement', inside: { kind: 'do_block', inside: sinatraRoute } } },
          {
            inside: {
              kind: 'argument_list',
              inside: { kind: 'call', has: { field: 'method', regex: '^(halt|body)$' } },
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-79',
  cvss: 6.1,
};
