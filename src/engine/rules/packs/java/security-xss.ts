import type { Rule } from '../../rule-schema.js';
import { MAPPING, requestParameter } from './fragments.js';

export const servletXssRule: Rule = {
  id: 'java.servlet-xss',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'A request parameter is written into the HTML response without escaping: markup in the value runs in the page (XSS). Escape it (OWASP Encoder Encode.forHtml, HtmlUtils.htmlEscape) or render a template that escapes.',
  rule: {
    kind: 'method_invocation',
    all: [
      { has: { field: 'name', regex: '^(print|println|write|printf|format|append)$' } },
      { has: { field: 'object', regex: '\\.getWriter\\(\\)$|\\.getOutputStream\\(\\)$|^(out|writer|pw)$' } },
      {
        has: {
          field: 'arguments',
          has: {
            stopBy: 'end',
            any: [
              {
                kind: 'method_invocation',
                regex:
                  '^(req|request|httpRequest|servletRequest)\\.(getParameter|getHeader|getQueryString|getRequestURI|getCookies)\\(',
              },
              // `String name = request.getParameter("name");` earlier in the method.
              {
                kind: 'identifier',
                pattern: '$VALUE',
                inside: {
                  stopBy: 'end',
                  kind: 'method_declaration',
                  has: {
                    stopBy: 'end',
                    kind: 'variable_declarator',
                    all: [
                      { has: { field: 'name', pattern: '$VALUE' } },
                      {
                        has: {
                          field: 'value',
                          regex: '^(req|request|httpRequest|servletRequest)\\.(getParameter|getHeader)\\(',
                        },
                      },
                    ],
                  },
                },
              },
            ],
          },
        },
      },
      { not: { has: { field: 'arguments', regex: '(?i)(escape|encode\\.for|sanitize)' } } },
    ],
  },
  cwe: 'CWE-79',
  cvss: 6.1,
};

export const springHtmlResponseXssRule: Rule = {
  id: 'java.spring-html-response-xss',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'A controller returns HTML built from a request parameter as the response body, without escaping: markup in the value runs in the page (XSS). Render a template that escapes, or escape the value with HtmlUtils.htmlEscape / Encode.forHtml.',
  rule: {
    kind: 'return_statement',
    has: {
      any: [
        { kind: 'binary_expression', regex: '"[^"]*<[a-zA-Z/!]' },
        {
          kind: 'method_invocation',
          regex: '^(String\\.format\\(\\s*"[^"]*<[a-zA-Z/!]|"[^"]*<[a-zA-Z/!][^"]*"\\.formatted\\()',
        },
      ],
      all: [
        { has: { stopBy: 'end', ...requestParameter('$P') } },
        {
          not: {
            has: { stopBy: 'end', kind: 'method_invocation', regex: '(?i)(escape|encode|sanitize|clean)\\w*\\(' },
          },
        },
      ],
    },
    inside: {
      stopBy: 'end',
      kind: 'method_declaration',
      all: [
        { has: { kind: 'modifiers', regex: MAPPING } },
        {
          any: [
            { has: { kind: 'modifiers', regex: '@ResponseBody\\b|TEXT_HTML|text/html' } },
            {
              inside: {
                stopBy: 'end',
                kind: 'class_declaration',
                has: { kind: 'modifiers', regex: '@RestController\\b' },
              },
            },
          ],
        },
      ],
    },
  },
  cwe: 'CWE-79',
  cvss: 6.1,
};
