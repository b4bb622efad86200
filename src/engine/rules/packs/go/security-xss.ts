import type { Rule } from '../../rule-schema.js';
import { argument, assignedFrom, formattedQuery, fromRequest, requestValue } from './fragments.js';

export const xssTemplateHtmlRule: Rule = {
  id: 'go.xss-template-html',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'template.HTML (or JS/URL/HTMLAttr) marks a request value as safe, so html/template does not escape it: markup in the value runs in the page (XSS). Pass the plain string and let the template escape it.',
  rule: {
    kind: 'call_expression',
    all: [
      { has: { field: 'function', regex: '^template\\.(HTML|JS|URL|HTMLAttr|CSS|Srcset)$' } },
      argument(1, {
        any: [
          fromRequest,
          // A user-written field stored earlier: `template.HTML(user.Bio)`, `template.HTML(c.Body)`.
          {
            kind: 'selector_expression',
            has: {
              field: 'field',
              regex:
                '^(Bio|Body|Comment|Comments|Content|Description|Message|Text|Title|Name|DisplayName|About|Note|Notes|Signature|Summary|Subject|Input|Query)$',
            },
          },
        ],
      }),
    ],
  },
  cwe: 'CWE-79',
  cvss: 6.1,
};

export const xssFprintfHtmlRule: Rule = {
  id: 'go.xss-fprintf-html',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'A request value is written into an HTML response without escaping: markup in the value runs in the page (XSS). Escape it with html.EscapeString, or render an html/template.',
  rule: {
    kind: 'call_expression',
    all: [
      { has: { field: 'function', regex: '^fmt\\.(Fprintf|Fprint|Fprintln)$|^io\\.WriteString$' } },
      argument(1, { kind: 'identifier', regex: '^(w|rw|writer|resp|res)$' }),
      argument(2, {
        any: [{ regex: '^["`][^"`]*<[a-zA-Z/!]' }, { has: { stopBy: 'end', regex: '^["`][^"`]*<[a-zA-Z/!]' } }],
      }),
      {
        has: {
          field: 'arguments',
          has: { not: { nthChild: 1 }, any: [fromRequest, { has: { stopBy: 'end', ...requestValue } }] },
        },
      },
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              kind: 'call_expression',
              regex: '^(html\\.EscapeString|template\\.HTMLEscapeString|url\\.QueryEscape)\\(',
            },
          },
        },
      },
    ],
  },
  cwe: 'CWE-79',
  cvss: 6.1,
};

export const xssHtmlResponseRule: Rule = {
  id: 'go.xss-html-response',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'HTML built by concatenating or formatting a request value is sent as text/html without escaping (cross-site scripting): render it with html/template, or escape the value with html.EscapeString.',
  rule: {
    kind: 'call_expression',
    all: [
      // echo `c.HTML(code, html)`, gin `c.Data(code, "text/html", ...)`, `c.String` with an HTML content type is rarer.
      { has: { field: 'function', regex: '^(c|ctx)\\.HTML$' } },
      argument(2, {
        all: [
          { any: [formattedQuery, { kind: 'identifier' }] },
          { any: [{ regex: '<[a-zA-Z/!]' }, assignedFrom({ regex: '<[a-zA-Z/!]' }, '$PAGE')] },
          { any: [fromRequest, { has: { stopBy: 'end', ...fromRequest } }] },
        ],
      }),
      {
        not: {
          has: {
            field: 'arguments',
            has: {
              stopBy: 'end',
              kind: 'call_expression',
              regex: '^(html\\.EscapeString|template\\.HTMLEscapeString)\\(',
            },
          },
        },
      },
    ],
  },
  cwe: 'CWE-79',
};
