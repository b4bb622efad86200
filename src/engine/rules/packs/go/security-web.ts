import type { Rule } from '../../rule-schema.js';
import { argument, assignedFrom, callTo, fromRequest } from './fragments.js';

/** `http.NewRequest(method, url, body)` (or WithContext) with a URL from the request. */
const taintedNewRequest = {
  kind: 'call_expression',
  regex: '^http\\.NewRequest',
  any: [
    { all: [{ has: { field: 'function', regex: '^http\\.NewRequest$' } }, argument(2, fromRequest)] },
    { all: [{ has: { field: 'function', regex: '^http\\.NewRequestWithContext$' } }, argument(3, fromRequest)] },
  ],
};

/**
 * The name of an archive entry, written by whoever made the archive: `f.Name` in a function that reads
 * a zip or tar archive (or takes a `*zip.File` / `*tar.Header`). "../" in it escapes the target (zip slip).
 */
const archiveEntryName = {
  kind: 'selector_expression',
  regex: '^\\w+\\.Name$',
  inside: {
    stopBy: 'end',
    all: [
      { any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }] },
      {
        any: [
          { has: { stopBy: 'end', ...callTo('^(zip\\.(OpenReader|NewReader)|tar\\.NewReader)$') } },
          { has: { field: 'parameters', regex: '\\*(zip\\.File|tar\\.Header)\\b' } },
        ],
      },
    ],
  },
};

export const ssrfRule: Rule = {
  id: 'go.ssrf',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'An outgoing request to a URL taken from the request: the caller can make the server reach internal services or cloud metadata (SSRF). Allow-list hosts, or map a key to a fixed URL.',
  rule: {
    kind: 'call_expression',
    any: [
      {
        all: [
          { has: { field: 'function', regex: '^(http|(?i)\\w*client)\\.(Get|Head|Post|PostForm)$' } },
          argument(1, fromRequest),
        ],
      },
      // A request built here and sent in the same function is reported where it is sent (`client.Do(req)`).
      {
        ...taintedNewRequest,
        not: {
          inside: {
            stopBy: 'end',
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
            has: { stopBy: 'end', ...callTo('\\.Do$') },
          },
        },
      },
      {
        all: [{ has: { field: 'function', regex: '\\.Do$' } }, argument(1, assignedFrom(taintedNewRequest, '$REQ'))],
      },
    ],
  },
  cwe: 'CWE-918',
  cvss: 8.6,
};

export const pathTraversalRule: Rule = {
  id: 'go.path-traversal',
  languages: ['go'],
  type: 'security',
  severity: 'important',
  message:
    'A file path built from the request: "../" in the value reaches files outside the intended folder (path traversal). Use filepath.Base on the name, or check the cleaned path stays under the base directory (os.Root in Go 1.24).',
  rule: {
    kind: 'call_expression',
    any: [
      {
        has: {
          field: 'function',
          regex:
            '^(os\\.(Open|OpenFile|ReadFile|Create|Remove|RemoveAll|WriteFile|ReadDir|Mkdir|MkdirAll)|ioutil\\.(ReadFile|WriteFile)|http\\.ServeFile)$',
        },
      },
      // gin `c.File` / `c.FileAttachment`, echo `c.Attachment` / `c.Inline`, fiber `c.SendFile` / `c.Download`.
      {
        has: {
          field: 'function',
          regex: '^(c|ctx)\\.(File|FileAttachment|Attachment|Inline|SendFile|Download|SaveUploadedFile)$',
        },
      },
      // A joined path used in place; one stored in a variable is reported where the file is opened.
      {
        has: { field: 'function', regex: '^(filepath|path)\\.Join$' },
        not: {
          inside: {
            kind: 'expression_list',
            inside: {
              any: [{ kind: 'short_var_declaration' }, { kind: 'assignment_statement' }, { kind: 'var_spec' }],
            },
          },
        },
      },
    ],
    all: [
      {
        has: {
          field: 'arguments',
          any: [
            { has: fromRequest },
            // Zip slip: an archive entry's name joined to the destination, in place or in a variable.
            {
              has: {
                any: [
                  { kind: 'call_expression', has: { stopBy: 'end', ...archiveEntryName } },
                  assignedFrom({ kind: 'call_expression', has: { stopBy: 'end', ...archiveEntryName } }, '$TARGET'),
                ],
              },
            },
          ],
        },
      },
      { not: { has: { field: 'arguments', has: { stopBy: 'end', ...callTo('^(filepath|path)\\.Base$') } } } },
      // The function checks the path stays under its base: `strings.HasPrefix(p, base)`, `filepath.Rel`.
      {
        not: {
          inside: {
            stopBy: 'end',
            any: [{ kind: 'function_declaration' }, { kind: 'method_declaration' }, { kind: 'func_literal' }],
            has: { stopBy: 'end', ...callTo('^(strings\\.HasPrefix|filepath\\.Rel|filepath\\.IsLocal)$') },
          },
        },
      },
    ],
  },
  cwe: 'CWE-22',
  cvss: 7.5,
};
