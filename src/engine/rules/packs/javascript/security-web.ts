import type { Rule } from '../../rule-schema.js';
import {
  calleeName,
  calleeProperty,
  callOfFileFunction,
  carriesRequest,
  DYNAMIC_STRING,
  declaredFrom,
  FUNCTION,
  firstArgument,
  LANGUAGES,
  nestRequestParameter,
  parameterOfEnclosingFunction,
  REQUEST_VALUE_LITE,
  REQUEST_VALUE_TEXT,
} from './fragments.js';

/**
 * A URL whose host (or whole value) the request controls: a template that starts with a request
 * value (`${req.body.callbackHost}/hooks`, `http://${req.query.service}.internal`), or
 * `new URL(req.query.path, base)` (an absolute path replaces the base), or a base built that way.
 */
const HOST_TEMPLATE = {
  kind: 'template_string',
  regex: '^`(https?://)?\\$\\{',
  has: {
    kind: 'template_substitution',
    not: { follows: { kind: 'template_substitution', stopBy: 'end' } },
    has: { ...REQUEST_VALUE_LITE, stopBy: 'end' },
  },
};

const URL_HOST_FROM_REQUEST = {
  any: [
    HOST_TEMPLATE,
    {
      kind: 'new_expression',
      has: { field: 'constructor', regex: '^URL$' },
      all: [
        {
          has: {
            field: 'arguments',
            any: [
              { has: { nthChild: 1, ...REQUEST_VALUE_LITE } },
              { has: { nthChild: 2, any: [HOST_TEMPLATE, declaredFrom(HOST_TEMPLATE, '$BASEVAR')] } },
            ],
          },
        },
      ],
    },
  ],
};

const URL_NAME = '(?i)(url|uri|link|endpoint|host|callback|webhook|target)';

/** A member `$DTO.<url-like>` whose object the function's parameters declare with `parameter` (a DTO). */
const urlFieldOfParameter = (parameter: Record<string, unknown>) => ({
  kind: 'member_expression',
  all: [
    { has: { field: 'object', kind: 'identifier', pattern: '$DTO' } },
    { has: { field: 'property', regex: URL_NAME } },
    {
      inside: {
        ...FUNCTION,
        stopBy: 'end',
        has: { field: 'parameters', has: { ...parameter, has: { kind: 'identifier', pattern: '$DTO' } } },
      },
    },
  ],
});

/** A URL a client controls: read from the request, or built with the request choosing the host. */
const SSRF_URL = {
  any: [
    REQUEST_VALUE_LITE,
    // The host comes from the request: `${req.body.callbackHost}/hooks`, `new URL(req.query.path, base)`.
    URL_HOST_FROM_REQUEST,
    declaredFrom(URL_HOST_FROM_REQUEST, '$URLVAR'),
    // A NestJS request parameter named like a URL: `@Query('url') url: string`.
    { ...nestRequestParameter('$URLPARAM'), regex: URL_NAME },
    // A URL field of a body read in the same function: `const body = await request.json(); fetch(body.url)`.
    {
      kind: 'member_expression',
      all: [
        { has: { field: 'property', regex: URL_NAME } },
        { has: { field: 'object', ...declaredFrom({ regex: REQUEST_VALUE_TEXT }, '$BODYVAR') } },
      ],
    },
    // The URL field of a record just stored from the request:
    // `const hook = await Webhook.create({ url: req.body.url })` ... `fetch(hook.url)`.
    {
      kind: 'member_expression',
      all: [
        { has: { field: 'property', regex: URL_NAME } },
        {
          has: {
            field: 'object',
            ...declaredFrom(
              {
                has: {
                  kind: 'pair',
                  stopBy: 'end',
                  all: [
                    { has: { field: 'key', regex: URL_NAME } },
                    { has: { field: 'value', regex: REQUEST_VALUE_TEXT } },
                  ],
                },
              },
              '$RECORDVAR',
            ),
          },
        },
      ],
    },
    // A field of a NestJS request DTO: `@Body() dto: WebhookDto` ... `fetch(dto.url)`.
    urlFieldOfParameter({ regex: '^@(Body|Query|Param)\\(' }),
    // A URL field of a request DTO handed to a service: `importFromUrl(dto: ImportImageDto)` ... `get(dto.sourceUrl)`
    // (a TypeScript parameter, read as text: `kind` would not compile for JavaScript).
    urlFieldOfParameter({ regex: '^[\\w$]+\\??\\s*:\\s*\\w*(Dto|DTO|Input|Payload|Body)\\b' }),
  ],
};

/**
 * A call of a function of this file that opens a file at a path built from one of its parameters,
 * with no basename/containment check: `loadTemplate(name)` with `fs.readFile(`${DIR}/${name}.html`)`.
 */
const FILE_HELPER_CALL = callOfFileFunction('$FILEHELPER', [
  {
    regex:
      '\\b(readFile|readFileSync|createReadStream|createWriteStream|writeFile|writeFileSync|appendFile|unlink|unlinkSync|rm|rmSync|readdir|sendFile)\\(',
  },
  { not: { regex: '\\bbasename\\(|\\.startsWith\\(|\\brelative\\(' } },
  {
    has: {
      stopBy: 'end',
      any: [DYNAMIC_STRING, { kind: 'call_expression', regex: '^(path\\.)?(join|resolve)\\(' }],
      has: parameterOfEnclosingFunction('$FPARAM'),
    },
  },
]);

export const pathTraversalRule: Rule = {
  id: 'js.path-traversal',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'A file path built from request input lets a client read or write outside the intended folder (`../`): resolve it against a fixed root and check the result stays inside.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeProperty(
            '^(readFile|readFileSync|createReadStream|createWriteStream|writeFile|writeFileSync|appendFile|unlink|unlinkSync|rm|rmSync|readdir|open)$',
            '^(fs|fsp|fsPromises|fs\\.promises|promises)$',
          ),
          // The same functions imported by name (`import { readFile } from 'node:fs/promises'`).
          calleeName(
            '^(readFile|readFileSync|createReadStream|createWriteStream|writeFile|writeFileSync|appendFile|unlink|unlinkSync|rm|rmSync|readdir)$',
          ),
          calleeProperty('^(sendFile|download)$', '^(res|response|reply)$'),
        ],
      },
      firstArgument(
        carriesRequest({ not: { has: { kind: 'call_expression', regex: '^(path\\.)?basename\\(', stopBy: 'end' } } }),
      ),
      // The function checks the path stays inside its folder: `if (!target.startsWith(BASE + sep))`.
      {
        not: {
          inside: {
            ...FUNCTION,
            stopBy: 'end',
            has: {
              kind: 'call_expression',
              stopBy: 'end',
              any: [{ regex: '^[\\w$.]+\\.startsWith\\(' }, { regex: '^(path\\.)?relative\\(' }],
            },
          },
        },
      },
      // Express's sendFile with a `root` option refuses paths that leave it.
      { not: { has: { field: 'arguments', has: { kind: 'object', has: { kind: 'pair', regex: '^root\\s*:' } } } } },
    ],
  },
  cwe: 'CWE-22',
  cvss: 7.5,
};

export const pathTraversalHelperRule: Rule = {
  id: 'js.path-traversal-helper',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'This passes request input to a function of this file that builds a file path from it and opens the file: `../` in the value reads or writes outside the intended folder. Reduce it to a basename or an allow-listed name, or check the resolved path stays inside its root.',
  rule: {
    kind: 'call_expression',
    // Cheap checks first: a plain function called with a request value, then the helper's text.
    all: [
      { has: { field: 'function', kind: 'identifier' } },
      { has: { field: 'arguments', regex: '\\b(req|request|ctx|event|params)\\b' } },
      { has: { field: 'arguments', has: REQUEST_VALUE_LITE } },
      FILE_HELPER_CALL,
    ],
  },
  cwe: 'CWE-22',
};

export const ssrfRule: Rule = {
  id: 'js.ssrf',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'Requesting a URL taken from the request lets a client make the server call internal addresses (SSRF): allow-list hosts or map ids to known URLs.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeName('^(fetch|axios|got|request|needle|ky|\\$fetch|ofetch)$'),
          calleeProperty(
            '^(get|post|put|patch|delete|head|request|fetch|stream)$',
            '^(axios|got|http|https|superagent|needle|ky|undici|(this\\.)?(http|httpService|httpClient))$',
          ),
        ],
      },
      firstArgument({
        any: [
          SSRF_URL,
          // An options object: `axios({ url: req.body.url })`, `http.get({ host: req.query.host })`.
          {
            kind: 'object',
            has: {
              kind: 'pair',
              all: [
                { has: { field: 'key', regex: '^(url|baseURL|uri|host|hostname)$' } },
                { has: { field: 'value', ...REQUEST_VALUE_LITE } },
              ],
            },
          },
        ],
      }),
    ],
  },
  cwe: 'CWE-918',
  cvss: 8.6,
};
