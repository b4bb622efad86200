import type { Rule } from '../../rule-schema.js';
import { declaredFrom, firstArgument, requestParameter } from './fragments.js';

/** `dto.getCallbackUrl()`: a URL-like getter on `$DTO`. */
const URL_GETTER = {
  all: [
    { has: { field: 'object', kind: 'identifier', pattern: '$DTO' } },
    { has: { field: 'name', regex: '(?i)^get\\w*(url|uri|endpoint|callback|webhook|host)$' } },
    { has: { field: 'arguments', not: { has: { kind: 'identifier' } } } },
  ],
};

/** An outgoing HTTP call whose first argument is the URL: RestTemplate, java.net.http, WebClient, Jsoup. */
const HTTP_CLIENT_CALL = {
  kind: 'method_invocation',
  any: [
    {
      all: [
        {
          has: {
            field: 'name',
            regex:
              '^(getForObject|getForEntity|postForObject|postForEntity|postForLocation|exchange|put|delete|patchForObject)$',
          },
        },
        { has: { field: 'object', regex: '(?i)resttemplate$|^(rest|restClient|template)$' } },
      ],
    },
    { regex: '^(HttpRequest\\.newBuilder|Jsoup\\.connect)\\(' },
    // WebClient: `webClient.get().uri(url)`.
    { has: { field: 'name', regex: '^uri$' }, regex: '(?i)client\\b.*\\.(get|post|put|delete|patch|method)\\(' },
  ],
};

const OPENS = { kind: 'method_invocation', has: { field: 'name', regex: '^(openConnection|openStream|getContent)$' } };

/**
 * `new URL(...)`, `new URI(...)` or `URI.create(...)` that the method then requests: opened on the spot
 * (`new URL(u).openStream()`, through `toURL()`), handed to an HTTP client, or held in a local that
 * is opened. Parsing a URL to read its host or path (`new URL(request.getRequestURL().toString()).getHost()`)
 * sends nothing.
 */
const URL_CONSTRUCTOR = {
  any: [
    { kind: 'object_creation_expression', has: { field: 'type', regex: '^(java\\.net\\.)?(URL|URI)$' } },
    { kind: 'method_invocation', regex: '^(java\\.net\\.)?URI\\.create\\(' },
  ],
  all: [
    {
      any: [
        { inside: OPENS },
        { inside: { kind: 'method_invocation', has: { field: 'name', regex: '^toURL$' }, inside: OPENS } },
        { inside: { kind: 'argument_list', inside: HTTP_CLIENT_CALL } },
        {
          inside: {
            kind: 'variable_declarator',
            has: { field: 'name', pattern: '$OPENED' },
            inside: {
              stopBy: 'end',
              any: [{ kind: 'method_declaration' }, { kind: 'constructor_declaration' }],
              has: {
                stopBy: 'end',
                kind: 'method_invocation',
                all: [
                  { has: { field: 'object', pattern: '$OPENED' } },
                  { has: { field: 'name', regex: '^(openConnection|openStream|getContent|toURL)$' } },
                ],
              },
            },
          },
        },
      ],
    },
  ],
};

/**
 * A URL the caller chose: a request parameter, or a string that starts with it or with a bare scheme
 * (`"https://" + host + "/status"`). `"https://api.internal/users/" + id` fixes the host: not SSRF.
 */
const USER_URL = {
  any: [
    requestParameter('$P'),
    {
      kind: 'binary_expression',
      has: { stopBy: 'end', ...requestParameter('$P') },
      any: [
        { regex: '^"[a-zA-Z]*:?/*"\\s*\\+' },
        { has: { field: 'left', ...requestParameter('$P') } },
        { has: { field: 'left', kind: 'binary_expression', has: { field: 'left', ...requestParameter('$P') } } },
      ],
    },
  ],
};

/** A file or path built from the name the client gave its upload. */
const CLIENT_PATH = {
  any: [
    { kind: 'object_creation_expression', has: { field: 'type', regex: '^File$' } },
    { kind: 'method_invocation', regex: '^(Paths\\.get|Path\\.of|[\\w.]+\\.resolve)\\(' },
  ],
  has: {
    field: 'arguments',
    has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.getOriginalFilename\\(\\)$' },
  },
};

/** A File or Path built from a Spring request parameter (@RequestParam, @PathVariable) in a method that never checks startsWith. */
const springRequestPath = {
  any: [
    { kind: 'method_invocation', regex: '^(Paths\\.get|Path\\.of)\\(' },
    { kind: 'object_creation_expression', has: { field: 'type', regex: '^(File|FileInputStream|FileReader)$' } },
  ],
  has: {
    field: 'arguments',
    has: {
      kind: 'identifier',
      pattern: '$P',
      inside: {
        stopBy: 'end',
        kind: 'method_declaration',
        all: [
          {
            has: {
              field: 'parameters',
              has: {
                kind: 'formal_parameter',
                all: [
                  { has: { kind: 'modifiers', regex: '@(RequestParam|PathVariable|RequestHeader)\\b' } },
                  { has: { field: 'name', pattern: '$P' } },
                ],
              },
            },
          },
          { not: { has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.startsWith\\(' } } },
        ],
      },
    },
  },
};

/** A file sink: java.nio Files, streams and resources opened on a path, MultipartFile.transferTo. */
const FILE_SINK = {
  any: [
    { kind: 'method_invocation', regex: '^Files\\.\\w+\\(' },
    { kind: 'method_invocation', has: { field: 'name', regex: '^transferTo$' } },
    {
      kind: 'object_creation_expression',
      has: {
        field: 'type',
        regex:
          '^(FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile|FileSystemResource|UrlResource|PrintWriter)$',
      },
    },
  ],
};

export const ssrfHttpClientRule: Rule = {
  id: 'java.ssrf-http-client',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'The server calls a URL that the client supplied in the request body or parameters: a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts, or map an identifier to a known URL.',
  rule: {
    any: [HTTP_CLIENT_CALL, URL_CONSTRUCTOR],
    all: [
      firstArgument({
        any: [
          { kind: 'method_invocation', ...URL_GETTER },
          { has: { stopBy: 'end', kind: 'method_invocation', ...URL_GETTER } },
          // `String target = body.getCallbackUrl() + "?probe=1";` first.
          declaredFrom('$URL', {
            any: [
              { kind: 'method_invocation', ...URL_GETTER },
              { has: { stopBy: 'end', kind: 'method_invocation', ...URL_GETTER } },
            ],
          }),
        ],
      }),
      {
        inside: {
          stopBy: 'end',
          kind: 'method_declaration',
          has: {
            field: 'parameters',
            has: {
              kind: 'formal_parameter',
              all: [
                { has: { field: 'name', pattern: '$DTO' } },
                {
                  any: [
                    // A request DTO, or a webhook/integration record whose URL a user registered.
                    {
                      has: {
                        field: 'type',
                        regex: '(Request|Dto|DTO|Form|Command|Payload|Input|Registration|Subscription|Webhook|Hook)$',
                      },
                    },
                    { has: { kind: 'modifiers', regex: '@(RequestBody|RequestParam|ModelAttribute)\\b' } },
                  ],
                },
              ],
            },
          },
        },
      },
    ],
  },
  cwe: 'CWE-918',
};

/** Not a path whose file name alone is kept: `Path.of(name).getFileName()`, `new File(name).getName()`. */
const NOT_FILE_NAME_ONLY = {
  not: {
    inside: { field: 'object', kind: 'method_invocation', has: { field: 'name', regex: '^(getFileName|getName)$' } },
  },
};

export const pathTraversalRequestRule: Rule = {
  id: 'java.path-traversal-request',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'A file path is built from a servlet request parameter: "../" in the value reaches any file the process can read or overwrite (path traversal). Resolve it against the base directory, normalize() it and check startsWith(base), or keep only the file name.',
  rule: {
    any: [
      { kind: 'method_invocation', regex: '^(Paths\\.get|Path\\.of)\\(' },
      { kind: 'method_invocation', regex: '\\.resolve\\(' },
      {
        kind: 'object_creation_expression',
        has: { field: 'type', regex: '^(File|FileInputStream|FileReader|FileOutputStream|FileWriter)$' },
      },
    ],
    has: {
      field: 'arguments',
      has: {
        kind: 'method_invocation',
        regex: '^(req|request|httpRequest|servletRequest)\\.(getParameter|getHeader|getPathInfo)\\(',
      },
    },
    all: [
      {
        not: {
          inside: {
            stopBy: 'end',
            kind: 'method_declaration',
            has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.startsWith\\(' },
          },
        },
      },
      NOT_FILE_NAME_ONLY,
    ],
  },
  cwe: 'CWE-22',
};

export const pathTraversalRule: Rule = {
  id: 'java.path-traversal',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'A file is read, written or deleted at a path built from a request parameter without confining it: "../" in the value reaches any file the process can access (path traversal). Resolve it against the base directory, normalize() it and check startsWith(base).',
  rule: {
    any: [
      // Built and used in place: `Files.readAllBytes(Paths.get(BASE, file))`.
      { ...springRequestPath, all: [{ not: { inside: { kind: 'variable_declarator' } } }, NOT_FILE_NAME_ONLY] },
      // Built into a local first: reported where the file is read, written or deleted.
      {
        ...FILE_SINK,
        has: { field: 'arguments', has: { stopBy: 'end', ...declaredFrom('$PATH', springRequestPath) } },
      },
    ],
  },
  cwe: 'CWE-22',
  cvss: 7.5,
};

export const ssrfRule: Rule = {
  id: 'java.ssrf',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'The server fetches a URL taken from the request: a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts, or map an identifier to a known URL.',
  rule: {
    any: [URL_CONSTRUCTOR, HTTP_CLIENT_CALL],
    has: { field: 'arguments', has: { nthChild: 1, any: [USER_URL, declaredFrom('$URL', USER_URL)] } },
  },
  cwe: 'CWE-918',
  cvss: 7.5,
};

export const uploadOriginalFilenameRule: Rule = {
  id: 'java.upload-original-filename',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'An upload is written to a path built from the client-supplied file name (getOriginalFilename): "../" in the name writes outside the upload folder (path traversal). Generate the stored name, or keep only Paths.get(name).getFileName() and check the resolved path stays under the folder.',
  rule: {
    any: [
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^transferTo$' } },
          firstArgument({ any: [CLIENT_PATH, declaredFrom('$TARGET', CLIENT_PATH)] }),
        ],
      },
      {
        kind: 'method_invocation',
        regex: '^Files\\.(copy|write|move|newOutputStream)\\(',
        has: { field: 'arguments', has: { any: [CLIENT_PATH, declaredFrom('$TARGET', CLIENT_PATH)] } },
      },
      {
        kind: 'object_creation_expression',
        has: { field: 'type', regex: '^(FileOutputStream|FileWriter)$' },
        all: [firstArgument({ any: [CLIENT_PATH, declaredFrom('$TARGET', CLIENT_PATH)] })],
      },
    ],
    not: {
      inside: {
        stopBy: 'end',
        kind: 'method_declaration',
        regex: 'getFileName\\(\\)|FilenameUtils\\.getName|\\.startsWith\\(|contains\\("\\.\\."\\)',
      },
    },
  },
  cwe: 'CWE-22',
  cvss: 7.5,
};
