import type { Rule } from '../../rule-schema.js';
import {
  assignedFrom,
  firstArgument,
  fromParams,
  insideMethodWithParameter,
  PARAMS,
  paramsDerived,
  SCOPE,
} from './fragments.js';

export const ssrfStoredParamRule: Rule = {
  id: 'rb.ssrf-stored-param',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'The server fetches a URL that was taken from params (stored in a variable first): a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts before fetching.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'receiver', regex: '^(Net::HTTP|HTTParty|Faraday|RestClient|HTTP|Excon|URI)$' } },
      { has: { field: 'method', regex: '^(get|get_response|post|post_form|head|start|open|put|patch|delete)$' } },
      {
        has: {
          field: 'arguments',
          has: {
            nthChild: 1,
            any: [
              { kind: 'instance_variable', pattern: '$URL' },
              { has: { stopBy: 'end', kind: 'instance_variable', pattern: '$URL' } },
              { kind: 'identifier', pattern: '$URL' },
              { has: { stopBy: 'end', kind: 'identifier', pattern: '$URL' } },
            ],
          },
        },
      },
      {
        inside: {
          stopBy: 'end',
          any: [{ kind: 'class' }, { kind: 'method' }],
          has: {
            stopBy: 'end',
            kind: 'assignment',
            all: [
              { has: { field: 'left', pattern: '$URL' } },
              {
                has: {
                  field: 'right',
                  any: [
                    {
                      regex:
                        '^((URI|Addressable::URI)(\\.parse)?\\(\\s*)?(request\\.)?params(\\[|\\.(fetch|dig|require|permit)\\b)',
                    },
                    // A record built with its URL from params: `endpoints.new(url: params.require(:url))`.
                    {
                      kind: 'call',
                      has: { field: 'method', regex: '^(new|build|create|create!)$' },
                      all: [
                        {
                          has: {
                            field: 'arguments',
                            has: {
                              kind: 'pair',
                              regex: '^(url|uri|endpoint|callback_url|webhook_url|target_url|feed_url):',
                              has: { field: 'value', regex: PARAMS },
                            },
                          },
                        },
                      ],
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
  cwe: 'CWE-918',
};

export const pathTraversalRule: Rule = {
  id: 'rb.path-traversal',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'A file path built from a request parameter: "../" in the value reads or writes files outside the intended folder (path traversal). Use File.basename on the name, or check the expanded path stays under the base directory.',
  rule: {
    kind: 'call',
    any: [
      {
        all: [
          { has: { field: 'receiver', regex: '^(::)?(File|IO|Pathname|FileUtils)$' } },
          {
            has: {
              field: 'method',
              regex: '^(read|binread|readlines|foreach|open|new|write|binwrite|delete|unlink|rm|rm_f|rm_rf|cp|mv)$',
            },
          },
        ],
      },
      {
        all: [
          { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
          { has: { field: 'method', regex: '^(send_file|send_data_file)$' } },
        ],
      },
    ],
    has: {
      field: 'arguments',
      has: {
        nthChild: 1,
        any: [
          fromParams,
          // Through a local variable: `page = params[:page] || "index"; File.read(File.join(DIR, "#{page}.md"))`.
          assignedFrom('$PATH', paramsDerived),
          { has: { stopBy: 'end', ...assignedFrom('$PATH', paramsDerived) } },
        ],
        not: { has: { stopBy: 'end', kind: 'call', regex: '^(::)?File\\.basename\\b' } },
      },
    },
    // A name checked against an allow-list or the base folder before use.
    not: {
      inside: {
        stopBy: 'end',
        ...SCOPE,
        has: {
          stopBy: 'end',
          kind: 'call',
          has: { field: 'method', regex: '^(include\\?|start_with\\?|basename)$' },
        },
      },
    },
  },
  cwe: 'CWE-22',
  cvss: 7.5,
};

export const ssrfRule: Rule = {
  id: 'rb.ssrf',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'The server fetches a URL taken from params: a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts before fetching.',
  rule: {
    kind: 'call',
    all: [
      {
        any: [
          {
            all: [
              { has: { field: 'receiver', regex: '^(Net::HTTP|HTTParty|Faraday|RestClient|HTTP|Excon|URI)$' } },
              { has: { field: 'method', regex: '^(get|get_response|post|post_form|head|start|open|new)$' } },
            ],
          },
        ],
      },
      {
        has: {
          field: 'arguments',
          has: { nthChild: 1, any: [{ regex: PARAMS }, { has: { stopBy: 'end', regex: PARAMS } }] },
        },
      },
    ],
  },
  cwe: 'CWE-918',
  cvss: 7.5,
};

export const openUriArgumentRule: Rule = {
  id: 'rb.open-uri-argument',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'URI.open fetches whatever URL the caller passes in (any host, internal services, cloud metadata): server-side request forgery when the URL comes from a user. Check the host against an allow-list (and the scheme is https) before fetching.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'receiver', regex: '^(::)?URI$' } },
      { has: { field: 'method', regex: '^open$' } },
      firstArgument({
        kind: 'identifier',
        pattern: '$URL',
        ...insideMethodWithParameter('$URL'),
      }),
      // No host check in the method.
      {
        not: {
          inside: {
            stopBy: 'end',
            any: [{ kind: 'method' }, { kind: 'singleton_method' }],
            has: {
              stopBy: 'end',
              kind: 'call',
              has: { field: 'method', regex: '^(host|allowed\\w*\\??|include\\?)$' },
            },
          },
        },
      },
    ],
  },
  cwe: 'CWE-918',
};
