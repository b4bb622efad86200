import type { FlowSpec } from '../flow-spec.js';
import { SHELLS } from './shells.js';

const each = (object: string, names: string[]): string[] => names.map((n) => `${object}.${n}`);
/** The same members on each of the names a request, response or context object goes by. */
const on = (objects: string[], names: string[]): string[] => objects.flatMap((o) => each(o, names));

const REQUEST = ['req', 'request'];
/** Hono's request, on the handler's context (named `c` in Hono's own examples and most code). */
const HONO_REQUEST = 'c.req';
/** Express's and Koa's response, and Fastify's reply. */
const RESPONSE = ['res', 'response', 'reply'];
/**
 * The response methods (Express's, Fastify's `code`) that return the response itself, so that a chain ends on it
 * (`res.status(404).send(html)`): their result has the type `ExpressResponse`, a name for the
 * analysis only, on which the response's sinks are matched as on `res`.
 */
// (`set` and `append` are read as a map's and a list's first: a chain through them is not followed.)
const CHAINED = ['status', 'code', 'type', 'header', 'vary', 'location', 'links', 'cookie', 'clearCookie'];
const CHAINED_RESPONSE = 'ExpressResponse';
/** A response as the sinks are matched on: by its usual names, or as what a chain returned. */
const RESPONSES = [...RESPONSE, CHAINED_RESPONSE];
/** An option whose mere presence makes the call safe. */
const ANY_VALUE: string[] = [];
const FS_PATH_CALLS = [
  'readFile',
  'readFileSync',
  'createReadStream',
  'createWriteStream',
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'unlink',
  'unlinkSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'readdir',
  'readdirSync',
  'mkdir',
  'mkdirSync',
  'open',
  'openSync',
  'copyFile',
  'copyFileSync',
  'rename',
  'renameSync',
];
const FS_MODULES = ['fs', 'fs/promises', 'fs.promises', 'fs-extra', 'fsPromises'];
const CHILD_PROCESS = ['child_process'];
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'request', 'options'];
/** MongoDB and Mongoose methods whose first argument is a query document (operators included). */
const NOSQL_FILTERS = [
  'find',
  'findOne',
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
  'replaceOne',
  'countDocuments',
];

/** What the page's own input cannot harm: everything but its markup, its code and where it navigates. */
const PAGE_INPUT_SAFE_FOR = [78, 89, 22, 90, 117, 502, 643, 918, 943];

/**
 * Express, Koa, Fastify, Hapi, Hono, Next.js, NestJS and AWS Lambda request input; Node's standard
 * library and the common database, process, template and HTTP client packages. Names are matched
 * as written and through imports (`import { exec } from 'node:child_process'` is
 * `child_process.exec`).
 */
export const JAVASCRIPT_SPEC: FlowSpec = {
  sources: [
    // Path parameters, headers and cookies are strings: they cannot carry a query operator object.
    // Headers and cookies are the requester's own: no link makes a victim's browser send chosen
    // ones, so redirecting to one (`res.redirect(req.get('Referrer') || '/')`) sends nobody elsewhere.
    {
      attributes: [
        ...on([...REQUEST, 'ctx', 'ctx.request'], ['query']),
        'ctx.querystring',
        'req.nextUrl',
        'request.nextUrl',
      ],
      description: 'the query string',
    },
    {
      attributes: ['event.queryStringParameters', 'event.multiValueQueryStringParameters'],
      description: 'the query string',
    },
    { calls: ['searchParams.get', 'searchParams.getAll'], description: 'the query string', safeFor: [943] },
    // A Next.js page's `searchParams` prop, destructured: `function Page({ searchParams })`.
    { attributes: ['searchParams', 'props.searchParams'], description: 'the query string' },
    {
      attributes: [...on([...REQUEST, 'ctx', 'ctx.request'], ['params']), 'event.pathParameters'],
      description: 'a URL path parameter',
      safeFor: [943],
    },
    {
      attributes: [...on([...REQUEST, 'ctx.request'], ['body', 'files', 'file']), 'request.payload'],
      description: 'the request body',
    },
    { calls: on(REQUEST, ['json', 'formData', 'text']), description: 'the request body' },
    {
      attributes: on([...REQUEST, 'ctx', 'ctx.request'], ['headers']),
      calls: on([...REQUEST, 'ctx'], ['get', 'header']),
      description: 'a request header',
      safeFor: [943, 601],
    },
    {
      attributes: on(REQUEST, ['cookies', 'signedCookies']),
      calls: ['ctx.cookies.get'],
      description: 'a cookie',
      safeFor: [943, 601],
    },
    {
      attributes: on([...REQUEST, 'ctx', 'ctx.request'], ['url', 'originalUrl', 'path', 'href']),
      description: 'the request URL',
      safeFor: [943],
    },
    { calls: on(REQUEST, ['param']), description: 'a request parameter' },
    // Hono: the context's `c.req` reads input through calls.
    { calls: on([HONO_REQUEST], ['query', 'queries']), description: 'the query string' },
    { calls: on([HONO_REQUEST], ['param']), description: 'a URL path parameter', safeFor: [943] },
    {
      calls: on([HONO_REQUEST], ['json', 'text', 'parseBody', 'formData', 'arrayBuffer', 'blob']),
      description: 'the request body',
    },
    { calls: on([HONO_REQUEST], ['header']), description: 'a request header', safeFor: [943, 601] },
    { attributes: on([HONO_REQUEST], ['url', 'path']), description: 'the request URL', safeFor: [943] },
    // Browser code: the page's URL and referrer, which a link from anywhere chooses, and the
    // window's name, which the page that opened it chooses. They matter to what the page renders
    // or runs; a request the page sends goes from its user's own browser, not the server.
    {
      attributes: [
        ...each('location', ['search', 'hash', 'href', 'pathname']),
        ...each('document', ['URL', 'documentURI', 'baseURI', 'referrer']),
        'window.name',
      ],
      description: "the page's URL",
      safeFor: PAGE_INPUT_SAFE_FOR,
    },
  ],
  paramSources: [
    { markers: ['Query'], description: 'the query string' },
    { markers: ['Param'], description: 'a URL path parameter' },
    { markers: ['Body', 'UploadedFile'], description: 'the request body' },
    { markers: ['Headers'], description: 'a request header' },
    { markers: ['Args', 'Arg'], description: 'a GraphQL argument' },
    { markers: ['searchParams'], description: 'the query string' },
  ],
  // NestJS's built-in conversion pipes; a request that does not convert is refused (400) before the handler runs.
  convertingMarkers: ['ParseIntPipe', 'ParseFloatPipe', 'ParseBoolPipe', 'ParseUUIDPipe', 'ParseEnumPipe'],
  routes: [],
  sinks: [
    {
      calls: [
        ...each('child_process', ['exec', 'execSync']),
        'shelljs.exec',
        ...each('execa', ['execaCommand', 'execaCommandSync', 'command', 'commandSync']),
      ],
      args: [0],
      cwe: 78,
      kind: 'shell command',
    },
    {
      calls: on(CHILD_PROCESS, ['spawn', 'spawnSync', 'execFile', 'execFileSync']),
      args: [0, 1],
      requireKwarg: 'shell',
      cwe: 78,
      kind: 'shell command',
    },
    {
      calls: [...on(CHILD_PROCESS, ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']), 'execa'],
      args: [0],
      shellArgsAt: 1,
      cwe: 78,
      kind: 'program to run',
    },
    {
      calls: [
        'eval',
        'Function',
        'new Function',
        ...each('vm', ['runInThisContext', 'runInNewContext', 'runInContext', 'compileFunction']),
        'new vm.Script',
      ],
      cwe: 95,
      kind: 'code evaluation',
    },
    // A string given to a timer is compiled as code; a function is not (it is no tainted value).
    { calls: ['setTimeout', 'setInterval', 'setImmediate'], args: [0], cwe: 95, kind: 'code evaluation' },
    {
      calls: [
        ...each('ejs', ['render', 'compile']),
        ...each('pug', ['render', 'compile']),
        ...each('jade', ['render', 'compile']),
        ...each('handlebars', ['compile', 'precompile']),
        ...each('Handlebars', ['compile', 'precompile']),
        ...each('nunjucks', ['renderString', 'compile']),
        ...each('lodash', ['template']),
        '_.template',
        'lodash.template',
        ...each('mustache', ['render']),
        ...each('Mustache', ['render']),
        ...each('dot', ['template', 'compile']),
        ...each('doT', ['template', 'compile']),
      ],
      args: [0],
      cwe: 1336,
      kind: 'template',
    },
    {
      calls: [
        ...each('node-serialize', ['unserialize']),
        ...each('serialize', ['unserialize']),
        ...each('funcster', ['deepDeserialize']),
        ...each('cryo', ['parse']),
      ],
      args: [0],
      cwe: 502,
      kind: 'deserialisation',
    },
    {
      // Raw SQL with a string; a bound-parameter array beside it is not the query. An options
      // object (`pool.query({ text, values })`) is dangerous only in its query text.
      calls: [
        '*.query',
        '*.execute',
        '*.raw',
        '*.$queryRawUnsafe',
        '*.$executeRawUnsafe',
        'sequelize.query',
        '*.unsafe',
        '*.prepare',
      ],
      args: [0],
      kwargs: ['text', 'sql'],
      optionsObject: true,
      requirePrefix: SQL_OR_UNKNOWN(),
      cwe: 89,
      kind: 'SQL query',
    },
    // LDAP (ldapjs, ldapts): `client.search(base, { filter })`; a generic name, so only a filter
    // built as one (`(uid=...)`).
    {
      calls: ['*.search'],
      args: [1],
      kwargs: ['filter'],
      optionsObject: true,
      requirePrefix: '^\\s*\\(',
      cwe: 90,
      kind: 'LDAP query',
    },
    // XPath (xpath, the DOM's `evaluate`): an expression built as a path (`//product[@sku=...]`).
    {
      calls: ['xpath.select', 'xpath.select1', 'xpath.evaluate', 'xpath.parse', '*.evaluate', '*.selectNodes'],
      args: [0],
      requirePrefix: '^\\s*\\.?/',
      cwe: 643,
      kind: 'XPath query',
    },
    // A query builder's raw fragment (knex): a clause, not a whole query, so no statement keyword
    // starts it (`whereRaw(\`actor = '${actor}'\`)`); the bindings beside it are values.
    {
      calls: [
        '*.whereRaw',
        '*.orWhereRaw',
        '*.orderByRaw',
        '*.havingRaw',
        '*.joinRaw',
        '*.selectRaw',
        '*.fromRaw',
        '*.groupByRaw',
      ],
      args: [0],
      cwe: 89,
      kind: 'SQL query',
    },
    // SQL ORMs (Sequelize, TypeORM) take `{ where: ... }` and no query operators from strings.
    {
      calls: NOSQL_FILTERS.map((m) => `*.${m}`),
      args: [0],
      unlessKwarg: { name: 'where', values: ANY_VALUE },
      cwe: 943,
      kind: 'query document',
    },
    { calls: ['*.$where'], args: [0], cwe: 943, kind: 'query document' },
    {
      calls: [...FS_MODULES.flatMap((m) => each(m, FS_PATH_CALLS))],
      args: [0],
      cwe: 22,
      kind: 'file path',
    },
    {
      // Express's `root` option refuses a path that leaves it: any `root` makes the call safe.
      calls: on(RESPONSES, ['sendFile', 'download']),
      args: [0],
      unlessKwarg: { name: 'root', values: ANY_VALUE },
      cwe: 22,
      kind: 'file path',
    },
    {
      calls: [
        'fetch',
        'axios',
        ...each('axios', HTTP_METHODS),
        'got',
        ...each('got', HTTP_METHODS),
        ...each('http', ['get', 'request']),
        ...each('https', ['get', 'request']),
        'needle',
        ...each('needle', HTTP_METHODS),
        ...each('superagent', HTTP_METHODS),
        ...each('undici', ['request', 'fetch', 'stream']),
        'node-fetch',
        'request',
      ],
      args: [0],
      kwargs: ['url', 'baseURL', 'uri', 'host', 'hostname'],
      optionsObject: true,
      unlessFixedHost: true,
      cwe: 918,
      kind: 'outgoing request URL',
    },
    {
      calls: [
        ...on([...RESPONSES, 'ctx'], ['redirect', 'location']),
        'NextResponse.redirect',
        'next/navigation.redirect',
      ],
      unlessFixedHost: true,
      cwe: 601,
      kind: 'redirect',
    },
    {
      calls: on(RESPONSES, ['writeHead']),
      args: [],
      kwargs: ['Location', 'location'],
      unlessFixedHost: true,
      cwe: 601,
      kind: 'redirect',
    },
    // An HTML body: text built with markup at its start. Whatever else a handler sends (a
    // record, a list, a library's result) Express and Koa send as JSON, and a computed value
    // is not known to be markup.
    {
      calls: [...on(RESPONSES, ['send', 'write', 'end']), 'ctx.body=', 'ctx.response.body='],
      args: [0],
      optionsObject: true,
      requirePrefix: '^\\s*<',
      cwe: 79,
      kind: 'HTML response',
    },
    // Hono's `c.html(text)` sends the text as the page.
    { calls: ['c.html'], args: [0], cwe: 79, kind: 'HTML response' },
    {
      calls: ['*.innerHTML=', '*.outerHTML=', 'document.write', 'document.writeln'],
      cwe: 79,
      kind: 'HTML element',
    },
    { calls: ['*.insertAdjacentHTML'], args: [1], cwe: 79, kind: 'HTML element' },
  ],
  assignSinks: [],
  sanitizers: [
    {
      calls: [
        'parseInt',
        'parseFloat',
        'Number',
        'Number.parseInt',
        'Number.parseFloat',
        'Boolean',
        'BigInt',
        'Math.floor',
        'Math.ceil',
        'Math.round',
        'Math.abs',
        'Math.min',
        'Math.max',
        'Date.parse',
      ],
    },
    // A string is no operator object.
    { calls: ['String', '*.toString'], cwes: [943] },
    {
      calls: [
        'escape-html',
        'html-escaper.escape',
        'escape-goat.htmlEscape',
        'he.encode',
        'he.escape',
        'validator.escape',
        'DOMPurify.sanitize',
        'dompurify.sanitize',
        '*.sanitize',
        'sanitize-html',
        'xss',
        'xss.filterXSS',
        'filterXSS',
        'lodash.escape',
        '_.escape',
        'entities.encode',
        'entities.encodeHTML',
        'encodeURI',
        'react-dom/server.renderToString',
        'react-dom/server.renderToStaticMarkup',
        // Hono's html`...` escapes what it interpolates.
        'hono/html.html',
      ],
      cwes: [79],
    },
    // Percent-encoding leaves no markup, slash, colon or line break: safe in HTML text and as part of a URL.
    {
      calls: ['encodeURIComponent', 'querystring.escape', 'querystring.stringify'],
      cwes: [79, 601, 918, 117, 90, 643],
    },
    {
      calls: [
        '*.escape',
        '*.escapeId',
        'pg-format',
        ...['mysql', 'mysql2', 'sqlstring', 'SqlString'].map((m) => `${m}.format`),
      ],
      cwes: [89],
    },
    { calls: ['shell-quote.quote', 'shell-escape', 'shellescape'], cwes: [78] },
    { calls: ['path.basename', 'sanitize-filename'], cwes: [22] },
    { calls: ['JSON.stringify'], cwes: [95, 1336] },
  ],
  prefixTests: [{ calls: ['*.startsWith'], subject: 'receiver', prefix: 0 }],
  guards: [
    // An allow-list: `ALLOWED.includes(x)`, `allowed.has(x)`.
    { calls: ['*.includes', '*.has', '*.hasOwnProperty'], subject: 0 },
    {
      calls: each('validator', [
        'isInt',
        'isNumeric',
        'isUUID',
        'isAlphanumeric',
        'isAlpha',
        'isMongoId',
        'isHexadecimal',
      ]),
      subject: 0,
    },
    { calls: ['*.startsWith'], subject: 'receiver', cwes: [22], needsNormalized: true },
    { calls: ['Number.isInteger', 'Number.isSafeInteger'], subject: 0 },
  ],
  normalizers: [
    'path.resolve',
    'path.normalize',
    'path.join',
    'fs.realpathSync',
    'fs.promises.realpath',
    'fs/promises.realpath',
  ],
  returns: Object.fromEntries(on(RESPONSES, CHAINED).map((call) => [call, CHAINED_RESPONSE])),
  scalarResults: [
    '*.indexOf',
    '*.lastIndexOf',
    '*.includes',
    '*.startsWith',
    '*.endsWith',
    '*.test',
    '*.some',
    '*.every',
    '*.findIndex',
    '*.localeCompare',
    '*.charCodeAt',
    '*.has',
    '*.existsSync',
    'isNaN',
    'isFinite',
    'Array.isArray',
    'Number.isInteger',
    'Number.isNaN',
    'Date.now',
  ],
  containers: {
    lists: ['new Array', 'Array.from', 'new Set'],
    maps: ['new Map', 'new URLSearchParams'],
    listOf: ['Array.of'],
    mapOf: [],
    append: ['push', 'add'],
    insert: [],
    put: ['set', 'append'],
    get: ['get'],
    remove: ['delete'],
    removeValue: [],
    removeFirst: ['shift'],
    removeLast: ['pop'],
    // `unshift` puts values first: positions after it are not known, so it collapses as an extend does.
    extend: ['unshift'],
    clear: ['clear'],
  },
  rejects: [
    { text: '..', cwes: [22] },
    { text: '../', cwes: [22] },
    { text: "'", cwes: [89] },
    { text: '<', cwes: [79] },
  ],
  urlParsers: ['new URL', 'url.parse'],
  urlHosts: ['host', 'hostname', 'origin'],
  ownUrls: [...on(['req', 'request'], ['url', 'nextUrl', 'nextUrl.origin', 'nextUrl.href']), 'location.origin'],
  sanitizerNames: [{ pattern: '^(?:escape_?html|html_?escape|encode_?for_?html|sanitize_?html)$', cwes: [79] }],
  appendsTo: [],
  exits: ['process.exit'],
  responses: [],
  shells: SHELLS,
  selfNames: ['this'],
  constructors: { names: ['constructor'] },
};

/** SQL text, or a value of which no constant start is known (the query may be all input). */
function SQL_OR_UNKNOWN(): string {
  return '^(?:\\s*\\(?\\s*(?:select|insert|update|delete|with|replace|merge|call|exec|create|drop|alter|truncate|grant|revoke|set|show|pragma|begin|declare|explain|upsert)\\b|$)';
}
