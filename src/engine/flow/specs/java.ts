import type { FlowSpec } from '../flow-spec.js';
import { JAVA_SESSION_SPEC } from './java-session.js';
import { SHELLS } from './shells.js';

const REQUEST = ['HttpServletRequest', 'ServletRequest', 'HttpServletRequestWrapper', 'ServletRequestWrapper'];
const on = (types: string[], methods: string[]): string[] => types.flatMap((t) => methods.map((m) => `${t}.${m}`));

const INTEGERS = [
  'Integer.parseInt',
  'Integer.valueOf',
  'Long.parseLong',
  'Long.valueOf',
  'Short.parseShort',
  'Double.parseDouble',
  'Double.valueOf',
  'Float.parseFloat',
  'Boolean.parseBoolean',
  'Boolean.valueOf',
  'UUID.fromString',
];

/** Spring MVC's request-mapping annotations: the method handles requests. */
const HANDLER_MAPPINGS = ['GetMapping', 'PostMapping', 'PutMapping', 'DeleteMapping', 'PatchMapping', 'RequestMapping'];

/** JAX-RS resource methods' annotations: what such a method returns is the response's entity. */
const JAXRS_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

/** The start of SQL text: a statement's first keyword, or a JDBC call escape (`{call proc(?)}`). */
const SQL_TEXT = '^\\s*(\\{\\s*(\\?\\s*=\\s*)?call|select|insert|update|delete|merge|replace|upsert|with|call|exec)\\b';

/** The Servlet API, Spring MVC and the JDK; names as written, matched qualified or not. */
export const JAVA_SPEC: FlowSpec = {
  sources: [
    {
      calls: on(REQUEST, ['getParameter', 'getParameterValues', 'getParameterMap', 'getParameterNames']),
      description: 'a request parameter',
    },
    { calls: on(REQUEST, ['getHeader', 'getHeaders', 'getHeaderNames']), description: 'a request header' },
    { calls: on(REQUEST, ['getCookies']), description: 'a cookie' },
    { calls: on(REQUEST, ['getQueryString']), description: 'the query string' },
    { calls: on(REQUEST, ['getInputStream', 'getReader', 'getPart', 'getParts']), description: 'the request body' },
    {
      calls: on(REQUEST, ['getRequestURI', 'getRequestURL', 'getPathInfo', 'getServletPath']),
      description: 'the request path',
    },
    // Spring WebFlux's functional endpoints.
    { calls: on(['ServerRequest'], ['queryParam', 'queryParams']), description: 'a request parameter' },
    { calls: on(['ServerRequest'], ['pathVariable', 'pathVariables']), description: 'a URL path parameter' },
    {
      calls: on(['ServerRequest'], ['formData', 'multipartData', 'bodyToMono', 'bodyToFlux']),
      description: 'the request body',
    },
    { calls: on(['ServerRequest'], ['headers', 'cookies']), description: 'a request header' },
  ],
  paramSources: [
    {
      markers: ['RequestParam', 'PathVariable', 'MatrixVariable', 'ModelAttribute'],
      description: 'a request parameter',
    },
    { markers: ['RequestBody', 'RequestPart'], description: 'the request body' },
    { markers: ['RequestHeader'], description: 'a request header' },
    { markers: ['CookieValue'], description: 'a cookie' },
    { markers: ['QueryParam', 'PathParam', 'FormParam'], description: 'a request parameter' },
    { markers: ['HeaderParam'], description: 'a request header' },
    { markers: ['CookieParam'], description: 'a cookie' },
  ],
  convertedTypes: [
    ...['int', 'long', 'short', 'byte', 'double', 'float', 'boolean'],
    ...['Integer', 'Long', 'Short', 'Byte', 'Double', 'Float', 'Boolean', 'BigDecimal', 'BigInteger', 'UUID'],
    ...['LocalDate', 'LocalDateTime', 'LocalTime', 'Instant', 'OffsetDateTime', 'ZonedDateTime', 'Duration'],
  ],
  routes: [
    // Spring MVC: a handler returning "redirect:" followed by input sends the browser there.
    {
      markers: HANDLER_MAPPINGS,
      returnSink: { cwe: 601, kind: 'redirect', requirePrefix: '^redirect:$', textHint: 'redirect:' },
    },
    // A handler's returned text starting with markup is the page (a `@RestController`'s String is
    // sent as text/html to a browser that asks for it; a view name never starts with `<`), and so
    // is a JAX-RS resource method's.
    {
      markers: [...HANDLER_MAPPINGS, ...JAXRS_METHODS],
      returnSink: { cwe: 79, kind: 'HTML response', requirePrefix: '^\\s*<', textHint: '"\\s*<[A-Za-z!/]' },
    },
  ],
  sinks: [
    {
      calls: [
        ...on(
          ['Statement', 'PreparedStatement', 'CallableStatement'],
          ['execute', 'executeQuery', 'executeUpdate', 'executeLargeUpdate', 'addBatch'],
        ),
        ...on(['Connection'], ['prepareStatement', 'prepareCall', 'nativeSQL']),
        '*.execute',
        '*.executeQuery',
        '*.executeUpdate',
        '*.prepareStatement',
        '*.prepareCall',
        '*.addBatch',
        ...on(
          ['JdbcTemplate', 'NamedParameterJdbcTemplate', 'JdbcOperations'],
          [
            'query',
            'queryForObject',
            'queryForList',
            'queryForMap',
            'queryForRowSet',
            'queryForLong',
            'queryForInt',
            'update',
            'batchUpdate',
            'execute',
          ],
        ),
        '*.queryForObject',
        '*.queryForList',
        '*.queryForMap',
        '*.queryForRowSet',
        '*.batchUpdate',
        ...on(['EntityManager', 'Session'], ['createQuery', 'createNativeQuery', 'createSQLQuery']),
        // Spring's R2DBC client.
        ...on(['DatabaseClient'], ['sql']),
        '*.createNativeQuery',
        '*.createSQLQuery',
      ],
      args: [0],
      cwe: 89,
      kind: 'SQL query',
    },
    // A query method on a receiver of unknown type (a template held in another class's field):
    // a sink when its first argument is written as SQL.
    {
      calls: ['*.query', '*.update', '*.queryForStream'],
      args: [0],
      requirePrefix: SQL_TEXT,
      cwe: 89,
      kind: 'SQL query',
    },
    // `Runtime.exec` splits a string into words itself, and takes the environment beside it.
    { calls: ['Runtime.exec'], cwe: 78, kind: 'operating-system command' },
    // A process builder runs its first word: the others are that program's arguments, unless it is
    // a shell given a command (`"sh", "-c", cmd`).
    {
      calls: ['new ProcessBuilder', 'ProcessBuilder.command'],
      programOnly: true,
      cwe: 78,
      kind: 'operating-system command',
    },
    {
      calls: [
        'new FileInputStream',
        'new FileOutputStream',
        // Spring's file resources, which a handler returns to be read and sent.
        'new FileSystemResource',
        'new PathResource',
        'new FileReader',
        'new FileWriter',
        'new RandomAccessFile',
        'new PrintWriter',
        'new PrintStream',
        '*.transferTo',
        ...on(
          ['Files'],
          [
            'newInputStream',
            'newOutputStream',
            'newBufferedReader',
            'newBufferedWriter',
            'readAllBytes',
            'readAllLines',
            'readString',
            'write',
            'writeString',
            'delete',
            'deleteIfExists',
            'copy',
            'move',
            'lines',
            'createFile',
            'createDirectory',
            'createDirectories',
          ],
        ),
      ],
      cwe: 22,
      kind: 'file path',
    },
    {
      calls: on(['ResponseWriter', 'ResponseStream'], ['print', 'println', 'write', 'printf', 'format', 'append']),
      cwe: 79,
      kind: 'HTML response',
    },
    // `ResponseEntity.ok().body(html)`: a body that starts with markup is a page, as a handler's returned text.
    { calls: ['*.body'], args: [0], requirePrefix: '^\\s*<', cwe: 79, kind: 'HTML response' },
    {
      calls: on(
        ['DirContext', 'InitialDirContext', 'LdapContext', 'InitialLdapContext', 'LdapTemplate', 'LDAPConnection'],
        ['search', 'list', 'lookup'],
      ),
      cwe: 90,
      kind: 'LDAP query',
    },
    // A directory search on a context of unknown type: its filter is `(attr=value)`.
    { calls: ['*.search'], args: [1], requirePrefix: '^\\s*\\(', cwe: 90, kind: 'LDAP query' },
    { calls: on(['XPath'], ['evaluate', 'evaluateExpression']), args: [0], cwe: 643, kind: 'XPath query' },
    { calls: on(['XPath'], ['compile']), args: [0], cwe: 643, kind: 'XPath query', reportAtUse: true },
    { calls: on(['HttpSession'], ['setAttribute', 'putValue']), cwe: 501, kind: 'session attribute' },
    // An uploaded part saved under a path: `part.write(dest.getAbsolutePath())`.
    { calls: ['Part.write'], args: [0], cwe: 22, kind: 'file path' },
    { calls: on(['HttpServletResponse'], ['sendRedirect']), unlessFixedHost: true, cwe: 601, kind: 'redirect' },
    {
      calls: on(['ScriptEngine'], ['eval']).concat(['ExpressionParser.parseExpression', 'GroovyShell.evaluate']),
      args: [0],
      cwe: 94,
      kind: 'code evaluation',
    },
    { calls: ['XStream.fromXML', 'Yaml.load'], args: [0], cwe: 502, kind: 'deserialisation' },
    // A stream is read (and its objects built) by readObject, where the comment belongs.
    {
      calls: on(['ObjectInputStream', 'XMLDecoder'], ['readObject', 'readUnshared']),
      receiver: true,
      cwe: 502,
      kind: 'deserialisation',
    },
    // A File or URL built from input is only a name until something opens it.
    {
      calls: on(
        ['File'],
        ['exists', 'delete', 'createNewFile', 'mkdir', 'mkdirs', 'listFiles', 'list', 'renameTo', 'deleteOnExit'],
      ),
      receiver: true,
      cwe: 22,
      kind: 'file path',
    },
    {
      calls: on(['URL'], ['openStream', 'openConnection', 'getContent']),
      receiver: true,
      unlessFixedHost: true,
      cwe: 918,
      kind: 'outgoing request URL',
    },
    {
      calls: [
        ...on(['RestTemplate'], ['getForObject', 'getForEntity', 'postForObject', 'postForEntity', 'exchange']),
        // Spring WebFlux's client made for one base URL.
        'WebClient.create',
      ],
      args: [0],
      unlessFixedHost: true,
      cwe: 918,
      kind: 'outgoing request URL',
    },
    {
      calls: on(
        ['Logger', 'Log'],
        ['info', 'warn', 'error', 'debug', 'trace', 'fine', 'finer', 'finest', 'warning', 'severe', 'log'],
      ),
      cwe: 117,
      kind: 'log entry',
    },
  ],
  assignSinks: [],
  sanitizers: [
    { calls: INTEGERS },
    {
      calls: [
        '*.encodeForHTML',
        '*.encodeForHTMLAttribute',
        '*.encodeForJavaScript',
        'StringEscapeUtils.escapeHtml',
        'StringEscapeUtils.escapeHtml4',
        'StringEscapeUtils.escapeXml',
        'HtmlUtils.htmlEscape',
        'Encode.forHtml',
        'Encode.forHtmlContent',
        'Encode.forHtmlAttribute',
        'HtmlEscapers.htmlEscaper',
      ],
      cwes: [79],
    },
    { calls: ['*.encodeForSQL'], cwes: [89] },
    { calls: ['*.encodeForLDAP', '*.encodeForDN'], cwes: [90] },
    { calls: ['*.encodeForXPath'], cwes: [643] },
    { calls: ['*.encodeForOS'], cwes: [78] },
    // Leaves only letters, digits and `.-*_`: no markup, quote, separator or line break survives.
    { calls: ['URLEncoder.encode', '*.encodeForURL'], cwes: [79, 89, 90, 643, 78, 22, 117] },
    { calls: ['FilenameUtils.getName', 'File.getName'], cwes: [22] },
  ],
  prefixTests: [{ calls: ['*.startsWith'], subject: 'receiver', prefix: 0 }],
  guards: [
    { calls: ['*.contains', '*.containsKey', '*.matches'], subject: 0 },
    { calls: ['*.startsWith'], subject: 'receiver', cwes: [22], needsNormalized: true },
  ],
  normalizers: [
    'File.getCanonicalPath',
    'Path.normalize',
    '*.normalize',
    'Path.toRealPath',
    'FilenameUtils.normalize',
    '*.getCanonicalPath',
    '*.toRealPath',
  ],
  returns: {
    'Runtime.getRuntime': 'Runtime',
    'HttpServletResponse.getWriter': 'ResponseWriter',
    'HttpServletResponse.getOutputStream': 'ResponseStream',
    'HttpServletRequest.getSession': 'HttpSession',
    'XPathFactory.newXPath': 'XPath',
    'DriverManager.getConnection': 'Connection',
    'DataSource.getConnection': 'Connection',
    'Connection.createStatement': 'Statement',
    'Connection.prepareStatement': 'PreparedStatement',
    'Connection.prepareCall': 'CallableStatement',
    'ScriptEngineManager.getEngineByName': 'ScriptEngine',
    'ScriptEngineManager.getEngineByExtension': 'ScriptEngine',
    'LoggerFactory.getLogger': 'Logger',
    'Logger.getLogger': 'Logger',
    'LogManager.getLogger': 'Logger',
    'ProcessBuilder.command': 'ProcessBuilder',
  },
  scalarResults: [
    '*.length',
    '*.size',
    '*.isEmpty',
    '*.equals',
    '*.equalsIgnoreCase',
    '*.contains',
    '*.containsKey',
    '*.startsWith',
    '*.endsWith',
    '*.indexOf',
    '*.hashCode',
    '*.compareTo',
    '*.matches',
    '*.hasMoreElements',
    '*.hasNext',
    '*.exists',
    '*.isDirectory',
    '*.getContentLength',
    '*.getIntHeader',
    '*.getDateHeader',
  ],
  containers: {
    lists: [
      'new ArrayList',
      'new LinkedList',
      'new Vector',
      'new ArrayDeque',
      'new Stack',
      'new HashSet',
      'new LinkedHashSet',
      'new TreeSet',
      'new CopyOnWriteArrayList',
    ],
    maps: [
      'new HashMap',
      'new LinkedHashMap',
      'new TreeMap',
      'new Hashtable',
      'new ConcurrentHashMap',
      'new Properties',
    ],
    listOf: ['Arrays.asList', 'List.of', 'Set.of', 'Collections.singletonList', 'Stream.of'],
    mapOf: ['Map.of'],
    append: ['add', 'addLast', 'offer', 'offerLast', 'push', 'addElement', 'append'],
    insert: ['insert', 'addFirst', 'offerFirst'],
    put: ['put', 'putIfAbsent', 'setProperty'],
    get: ['get', 'getOrDefault', 'getProperty', 'elementAt'],
    remove: ['remove'],
    removeValue: [],
    removeFirst: ['poll', 'pollFirst', 'removeFirst', 'pop', 'remove'],
    removeLast: ['pollLast', 'removeLast'],
    extend: ['addAll', 'putAll'],
    clear: ['clear'],
  },
  rejects: [
    { text: '..', cwes: [22] },
    { text: "'", cwes: [89, 643] },
    { text: '<', cwes: [79] },
  ],
  responses: [],
  exits: ['System.exit'],
  appendsTo: ['StringWriter.write', 'StringWriter.append', 'CharArrayWriter.write', 'CharArrayWriter.append'],
  urlParsers: ['new URL', 'new URI', 'URI.create'],
  urlHosts: ['getHost', 'getAuthority'],
  urlBuilders: {
    starts: [
      ...on(['UriComponentsBuilder'], ['fromHttpUrl', 'fromUriString']),
      'UriBuilder.fromUri',
      'URI.create',
      ...on(['HttpUrl'], ['parse', 'get']),
    ],
    keeps: [
      ...['queryParam', 'queryParams', 'replaceQueryParam', 'path', 'pathSegment', 'fragment'],
      ...['build', 'encode', 'expand', 'buildAndExpand', 'toUri', 'toUriString', 'toString'],
      ...['newBuilder', 'addQueryParameter', 'addEncodedQueryParameter', 'addPathSegment'],
    ],
  },
  sanitizerNames: [{ pattern: '^(?:escape_?html|html_?escape|encode_?for_?html)', cwes: [79] }],
  shells: SHELLS,
  selfNames: ['this'],
  constructors: { names: [] },
  ...JAVA_SESSION_SPEC,
};
