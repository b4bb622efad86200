import type { FlowSpec } from '../flow-spec.js';
import { SHELLS } from './shells.js';

const on = (type: string, methods: string[]): string[] => methods.map((m) => `${type}.${m}`);
const any = (methods: string[]): string[] => methods.map((m) => `*.${m}`);
/**
 * Types are written short (`Request` matches `http.Request`): the quick test of a file's text for
 * sources looks for the method names of a name that starts with a capital.
 */
const REQUEST = 'Request';
/** A request's URL: `r.URL` has this type, named after where it was read. */
const REQUEST_URL = 'Request.URL';
const GIN = 'Context';
const ECHO = 'Context';
/** Fiber's `c *fiber.Ctx`. */
const FIBER = 'Ctx';
const WRITER = 'ResponseWriter';
/** Conventional names of an HTTP client whose type the analysis does not see (a struct field). */
const CLIENTS = ['client', 'Client', 'httpClient', 'HTTPClient', 'HttpClient', 'hc', 'cli'];
/** Prepared statements: their `Exec`/`Query` bind the arguments. */
const STATEMENTS = ['sql.Stmt', 'sqlx.Stmt', 'sqlx.NamedStmt'];

/**
 * net/http, gin, echo, fiber and the standard library. Request input is read through a parameter's
 * type (`r *http.Request`, `c *gin.Context`, `c echo.Context`, `c *fiber.Ctx`), so sources are methods and fields of
 * those types; names as written, matched qualified or not.
 */
export const GO_SPEC: FlowSpec = {
  sources: [
    { calls: on(REQUEST, ['FormValue']), description: 'a request parameter' },
    {
      calls: [
        ...on(GIN, ['Query', 'DefaultQuery', 'GetQuery', 'QueryArray', 'GetQueryArray', 'QueryMap', 'GetQueryMap']),
      ],
      description: 'the query string',
    },
    {
      calls: [
        ...on(REQUEST_URL, ['Query']),
        ...on(ECHO, ['QueryParam', 'QueryParams', 'QueryString']),
        ...on(FIBER, ['Query', 'Queries', 'QueryParser']),
      ],
      description: 'the query string',
    },
    { attributes: [`${REQUEST_URL}.RawQuery`], description: 'the query string' },
    {
      calls: [
        ...on(REQUEST, ['PostFormValue']),
        ...on(GIN, ['PostForm', 'DefaultPostForm', 'GetPostForm', 'PostFormArray', 'GetPostFormArray', 'PostFormMap']),
        ...on(ECHO, ['FormValue', 'FormParams']),
      ],
      description: 'the form body',
    },
    { attributes: on(REQUEST, ['Form', 'PostForm', 'MultipartForm']), description: 'the form body' },
    {
      calls: [
        ...on(REQUEST, ['PathValue']),
        ...on(GIN, ['Param']),
        ...on(ECHO, ['Param', 'ParamValues']),
        ...on(FIBER, ['Params', 'AllParams', 'ParamsParser']),
        // The chi and gorilla/mux routers' path variables.
        'chi.URLParam',
        'chi.URLParamFromCtx',
        'mux.Vars',
      ],
      description: 'a URL path parameter',
    },
    {
      calls: [
        ...on(REQUEST, ['UserAgent', 'Referer']),
        ...on(GIN, ['GetHeader']),
        ...on(FIBER, ['Get', 'GetReqHeaders']),
      ],
      description: 'a request header',
    },
    { attributes: on(REQUEST, ['Header', 'Trailer']), description: 'a request header' },
    {
      calls: [
        ...on(REQUEST, ['Cookie', 'Cookies']),
        ...on(GIN, ['Cookie']),
        ...on(ECHO, ['Cookie', 'Cookies']),
        ...on(FIBER, ['Cookies']),
      ],
      description: 'a cookie',
    },
    {
      calls: [
        ...on(REQUEST, ['FormFile', 'MultipartReader']),
        ...on(GIN, [
          'GetRawData',
          'FormFile',
          'MultipartForm',
          'ShouldBind',
          'ShouldBindJSON',
          'ShouldBindXML',
          'ShouldBindQuery',
          'ShouldBindUri',
          'ShouldBindHeader',
          'ShouldBindWith',
          'ShouldBindBodyWith',
          'Bind',
          'BindJSON',
          'BindXML',
          'BindQuery',
          'BindUri',
          'BindHeader',
        ]),
        ...on(ECHO, ['Bind', 'FormFile', 'MultipartForm']),
        ...on(FIBER, ['Body', 'BodyRaw', 'FormValue', 'FormFile', 'MultipartForm', 'BodyParser']),
      ],
      description: 'the request body',
    },
    { attributes: on(REQUEST, ['Body']), description: 'the request body' },
    {
      calls: [
        ...on(REQUEST_URL, ['String', 'EscapedPath', 'RequestURI']),
        ...on(FIBER, ['OriginalURL', 'Path', 'BaseURL']),
      ],
      attributes: [...on(REQUEST_URL, ['Path', 'RawPath', 'Fragment']), ...on(REQUEST, ['RequestURI'])],
      description: 'the request URL',
    },
  ],
  paramSources: [],
  routes: [],
  sinks: [
    {
      calls: any([
        'Query',
        'QueryRow',
        'Exec',
        'Prepare',
        'Queryx',
        'QueryRowx',
        'MustExec',
        'NamedQuery',
        'NamedExec',
        'Preparex',
      ]),
      args: [0],
      unlessReceiverType: STATEMENTS,
      cwe: 89,
      kind: 'SQL query',
    },
    {
      calls: any([
        'QueryContext',
        'QueryRowContext',
        'ExecContext',
        'PrepareContext',
        'QueryxContext',
        'QueryRowxContext',
        'MustExecContext',
        'NamedQueryContext',
        'NamedExecContext',
        'PreparexContext',
      ]),
      args: [1],
      unlessReceiverType: STATEMENTS,
      cwe: 89,
      kind: 'SQL query',
    },
    { calls: any(['SelectContext', 'GetContext']), args: [2], cwe: 89, kind: 'SQL query' },
    // sqlx's `db.Select(&rows, query, args...)`: a common name, so only text that starts as a query.
    // (Its `Get` is left out: a sink's result is no input, and `Query().Get(name)` is the input.)
    {
      calls: any(['Select']),
      args: [1],
      requirePrefix: '^\\s*(SELECT|WITH)\\b',
      cwe: 89,
      kind: 'SQL query',
    },
    // GORM: `Raw`/`Where` take SQL text; a struct or map condition is bound, so only a string counts.
    { calls: any(['Raw', 'Where', 'Having', 'Joins']), args: [0], scalarOnly: true, cwe: 89, kind: 'SQL query' },
    { calls: ['exec.Command', 'exec.CommandContext'], programOnly: true, cwe: 78, kind: 'program to run' },
    // XPath over XML or HTML (antchfx's xmlquery, htmlquery, xpath).
    {
      calls: [
        ...['xmlquery', 'htmlquery'].flatMap((p) => on(p, ['Find', 'FindOne', 'Query', 'QueryAll'])),
        'xpath.Select',
      ],
      args: [1],
      cwe: 643,
      kind: 'XPath query',
    },
    { calls: ['xpath.Compile', 'xpath.MustCompile'], args: [0], cwe: 643, kind: 'XPath query', reportAtUse: true },
    // go-ldap: the search request's filter (its seventh argument), run by `conn.Search(req)`.
    { calls: ['ldap.NewSearchRequest'], args: [6], cwe: 90, kind: 'LDAP query', reportAtUse: true },
    {
      calls: [
        'os.Open',
        'os.OpenFile',
        'os.ReadFile',
        'os.Create',
        'os.Remove',
        'os.RemoveAll',
        'os.WriteFile',
        'os.ReadDir',
        'os.Mkdir',
        'os.MkdirAll',
        'os.Stat',
        'os.Lstat',
        'os.Chmod',
        'ioutil.ReadFile',
        'ioutil.WriteFile',
        'ioutil.ReadDir',
        ...on(GIN, ['File', 'FileAttachment']),
        ...on(ECHO, ['File', 'Attachment', 'Inline']),
        ...on(FIBER, ['SendFile', 'Download']),
      ],
      args: [0],
      cwe: 22,
      kind: 'file path',
    },
    { calls: ['os.Rename', 'os.Symlink', 'os.Link'], cwe: 22, kind: 'file path' },
    { calls: ['http.ServeFile'], args: [2], cwe: 22, kind: 'file path' },
    {
      calls: [
        ...on(WRITER, ['Write', 'WriteString', 'Fprintf', 'Fprint', 'Fprintln']),
        'template.HTML',
        'template.JS',
        'template.HTMLAttr',
        'template.URL',
        'template.CSS',
        'template.Srcset',
      ],
      cwe: 79,
      kind: 'HTML response',
    },
    { calls: on(ECHO, ['HTML', 'HTMLBlob']), args: [1], cwe: 79, kind: 'HTML response' },
    // gin's raw body (`c.Data(200, "text/html", body)`) and echo's `Blob`: HTML when the text
    // starts with markup, as for a response writer. (`String` answers text/plain in both.)
    {
      calls: [...on(GIN, ['Data']), ...on(ECHO, ['Blob'])],
      args: [2],
      requirePrefix: '^\\s*<',
      cwe: 79,
      kind: 'HTML response',
    },
    {
      calls: ['http', 'http.Client', 'http.DefaultClient', ...CLIENTS].flatMap((c) =>
        on(c, ['Get', 'Head', 'Post', 'PostForm']),
      ),
      args: [0],
      unlessFixedHost: true,
      cwe: 918,
      kind: 'outgoing request URL',
    },
    // The adapter reads `http.NewRequest(...)` as its URL: the request is checked where it is sent.
    // `Do` by a client's type or its conventional names: `singleflight.Group.Do(key, fn)` is no request.
    {
      calls: ['http.Client.Do', 'http.DefaultClient.Do', ...CLIENTS.map((c) => `${c}.Do`)],
      args: [0],
      unlessFixedHost: true,
      cwe: 918,
      kind: 'outgoing request URL',
    },
    // Embedded JavaScript and Go interpreters.
    {
      calls: ['Otto.Run', 'Otto.Eval', 'Runtime.RunString', 'Interpreter.Eval'],
      args: [0],
      cwe: 94,
      kind: 'code evaluation',
    },
    { calls: ['Runtime.RunScript'], args: [1], cwe: 94, kind: 'code evaluation' },
    { calls: ['http.Redirect'], args: [2], unlessFixedHost: true, cwe: 601, kind: 'redirect' },
    {
      calls: [...on(GIN, ['Redirect']), ...on(ECHO, ['Redirect'])],
      args: [1],
      unlessFixedHost: true,
      cwe: 601,
      kind: 'redirect',
    },
    { calls: ['Template.Parse'], args: [0], cwe: 1336, kind: 'template' },
  ],
  assignSinks: [],
  sanitizers: [
    {
      calls: [
        'strconv.Atoi',
        'strconv.ParseInt',
        'strconv.ParseUint',
        'strconv.ParseFloat',
        'strconv.ParseBool',
        'strconv.Itoa',
        'strconv.FormatInt',
        'strconv.FormatUint',
        'strconv.FormatBool',
        'strconv.Quote',
        'uuid.Parse',
        'uuid.MustParse',
        'len',
      ],
    },
    {
      calls: [
        'html.EscapeString',
        'template.HTMLEscapeString',
        'template.HTMLEscaper',
        'template.JSEscapeString',
        'json.Marshal',
      ],
      cwes: [79],
    },
    // Both leave letters, digits and `-_.~`: no markup, quote, slash, space or line break survives.
    { calls: ['url.QueryEscape', 'url.PathEscape'], cwes: [79, 89, 78, 117] },
    { calls: ['filepath.Base', 'path.Base'], cwes: [22] },
    // go-ldap's escapes: `*()\\` and NUL in a filter value, the special characters of a DN.
    { calls: ['ldap.EscapeFilter', 'ldap.EscapeDN'], cwes: [90] },
  ],
  prefixTests: [{ calls: ['strings.HasPrefix'], subject: 0, prefix: 1 }],
  guards: [
    { calls: ['strings.HasPrefix'], subject: 0, cwes: [22], needsNormalized: true },
    { calls: ['filepath.IsLocal'], subject: 0, cwes: [22] },
    { calls: ['slices.Contains'], subject: 1 },
  ],
  rejects: [
    { text: '..', cwes: [22] },
    { text: '../', cwes: [22] },
    { text: "'", cwes: [89] },
    { text: '<', cwes: [79] },
  ],
  urlParsers: ['url.Parse', 'url.ParseRequestURI'],
  urlHosts: ['Host', 'Hostname'],
  sanitizerNames: [{ pattern: '^(?:escape_?html|html_?escape)', cwes: [79] }],
  appendsTo: [
    ...on('strings.Builder', ['WriteString', 'WriteByte', 'WriteRune', 'Write']),
    ...on('bytes.Buffer', ['WriteString', 'WriteByte', 'WriteRune', 'Write']),
    ...any(['Fprintf', 'Fprint', 'Fprintln', 'WriteString']),
  ],
  exits: ['panic', 'os.Exit', 'log.Fatal', 'log.Fatalf', 'log.Fatalln', 'log.Panic', 'log.Panicf', 'log.Panicln'],
  responses: [],
  shells: SHELLS,
  normalizers: ['filepath.Clean', 'filepath.Abs', 'filepath.Join', 'filepath.EvalSymlinks', 'path.Clean', 'path.Join'],
  returns: {
    'http.Request.URL': 'http.Request.URL',
    'gin.Context.Request': 'http.Request',
    'gin.Context.Writer': 'http.ResponseWriter',
    'echo.Context.Request': 'http.Request',
    'echo.Context.Response': 'http.ResponseWriter',
    'otto.New': 'otto.Otto',
    'goja.New': 'goja.Runtime',
    'interp.New': 'interp.Interpreter',
    'template.New': 'Template',
    'template.Must': 'Template',
    ...Object.fromEntries(
      ['New', 'Funcs', 'Delims', 'Option', 'Lookup', 'Clone'].map((m) => [`Template.${m}`, 'Template']),
    ),
    ...Object.fromEntries(['Prepare', 'PrepareContext'].map((m) => [`*.${m}`, 'sql.Stmt'])),
    ...Object.fromEntries(['Preparex', 'PreparexContext'].map((m) => [`*.${m}`, 'sqlx.Stmt'])),
    ...Object.fromEntries(['PrepareNamed', 'PrepareNamedContext'].map((m) => [`*.${m}`, 'sqlx.NamedStmt'])),
  },
  scalarResults: [
    'len',
    'cap',
    'strings.HasPrefix',
    'strings.HasSuffix',
    'strings.Contains',
    'strings.ContainsAny',
    'strings.ContainsRune',
    'strings.Index',
    'strings.IndexByte',
    'strings.LastIndex',
    'strings.Count',
    'strings.EqualFold',
    'strings.Compare',
    'bytes.Equal',
    'bytes.Contains',
    'bytes.HasPrefix',
    'errors.Is',
    'errors.As',
    'os.IsNotExist',
    'os.IsExist',
    'utf8.RuneCountInString',
    'utf8.ValidString',
    'regexp.MatchString',
    '*.MatchString',
    '*.Match',
  ],
  containers: {
    lists: [],
    maps: [],
    listOf: [],
    mapOf: [],
    append: ['append'],
    insert: [],
    put: [],
    get: ['Get'],
    remove: ['delete'],
    removeValue: [],
    removeFirst: [],
    removeLast: [],
    extend: ['extend'],
    clear: [],
  },
  selfNames: [],
  requires: '\\*\\s*http\\.Request\\b|\\bgin\\.Context\\b|\\becho\\.Context\\b|\\bfiber\\.Ctx\\b',
};
