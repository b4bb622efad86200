/**
 * What the analysis knows about a language and its frameworks, as data: where untrusted input
 * enters, what ends its taint, and where it must not arrive. Names are written short
 * (`Statement.executeQuery`, `subprocess.run`, `new File`) and match their fully qualified
 * spelling too (see qualified-name.ts).
 */

export interface SourceSpec {
  /** Calls whose result is untrusted: `HttpServletRequest.getParameter`. */
  calls?: string[] | undefined;
  /** Attribute reads whose value is untrusted: `request.args`. */
  attributes?: string[] | undefined;
  description: string;
  /** CWEs its value cannot reach as it is read (a URL path parameter is a string, never a query operator object). */
  safeFor?: number[] | undefined;
}

/** Parameters the framework fills from the request: by annotation or default-value marker. */
export interface ParamSourceSpec {
  markers: string[];
  description: string;
}

/** Decorators or annotations that make a function a request handler. */
export interface RouteSpec {
  markers: string[];
  /**
   * Instead of markers: a function with no decorator or annotation at all, a view registered
   * elsewhere (Flask's `app.add_url_rule`). Give it a `returnSink` with a `textHint`.
   */
  unmarked?: boolean | undefined;
  /** Its parameters come from the URL (Flask's `<name>`, FastAPI's path and query parameters). */
  paramsTainted?: string | undefined;
  /**
   * What it returns is the response body, an HTML sink unless it is a JSON or escaped value; of a
   * returned tuple, only the first element is the body.
   */
  returnSink?: ReturnSinkSpec | undefined;
}

export interface ReturnSinkSpec {
  cwe: number;
  kind: string;
  /**
   * Only a value whose constant start matches, as a sink's `requirePrefix`: Spring MVC's
   * `"redirect:" + url` is a redirect (`^redirect:$`; `"redirect:/home?from=" + x` is not), a
   * body starting with markup is HTML (`^\s*<`).
   */
  requirePrefix?: string | undefined;
  /** With `requirePrefix`: what a function's text must hold to return such a value (reading its markers costs a walk of the tree). */
  textHint?: string | undefined;
}

export interface SinkSpec {
  calls: string[];
  cwe: number;
  /** What the sink does, for the comment: 'SQL query', 'shell command'. */
  kind: string;
  /** Positions of the dangerous arguments; all arguments when absent. */
  args?: number[] | undefined;
  /** Keyword arguments that are dangerous too (`url=`). */
  kwargs?: string[] | undefined;
  /** Only when this keyword argument is a true constant (`shell=True`). */
  requireKwarg?: string | undefined;
  /** Not when this keyword argument is one of these names (`Loader=SafeLoader`), or is given at all when none are listed. */
  unlessKwarg?: { name: string; values: string[] } | undefined;
  /**
   * Only the program of a command: a list's first element, or the whole string; all of the list
   * when that program is a shell given a command string (`["sh", "-c", cmd]`).
   */
  programOnly?: boolean | undefined;
  /**
   * When the program (the first argument) is one of `shells`, the argument list at this position
   * is a command string for it too: `spawn('sh', ['-c', cmd])`.
   */
  shellArgsAt?: number | undefined;
  /** Only the first element of a sequence argument (Flask's `(body, status, headers)`). */
  firstOfSequence?: boolean | undefined;
  /** The receiver is what is dangerous (`url.openStream()`, `in.readObject()`). */
  receiver?: boolean | undefined;
  /**
   * Only when the dangerous value starts with text matching this expression: a generic method
   * name (`search`) is a sink when its argument is built as the query language (`(uid=...)`).
   */
  requirePrefix?: string | undefined;
  /** Not when the value starts with a fixed scheme and host, or is a relative path. */
  unlessFixedHost?: boolean | undefined;
  /** Not when the receiver has one of these types (a prepared statement's `Exec` binds its arguments). */
  unlessReceiverType?: string[] | undefined;
  /** Only a value that is no container: GORM's `Where(&User{...})` binds a struct's or map's fields. */
  scalarOnly?: boolean | undefined;
  /**
   * An object or array at a dangerous position is an options object (or data sent as JSON): only
   * its fields named in `kwargs` are dangerous (`pool.query({ text, values })`).
   */
  optionsObject?: boolean | undefined;
  /**
   * Only when the argument at this position (or keyword), or the receiver, was built or set up
   * with this property true (`XMLParser(resolve_entities=True)`, `setFeature(feature_external_ges, True)`).
   */
  requireProp?: { arg: number | 'receiver'; kwarg?: string | undefined; prop: string } | undefined;
  /**
   * Not when the value is an object the program constructed (it has a type): Rails'
   * `redirect_to @project` goes to the record's own page, whatever the user typed into it.
   */
  unlessObject?: boolean | undefined;
  /**
   * Any method whose own name matches this expression is a sink too, whatever its receiver
   * (`setPassword`, `set_reset_token`): for scoped sinks, where the name says what is stored.
   */
  callPattern?: string | undefined;
  /**
   * A write made safe by a flag (a cookie's Secure): the argument at `arg` or keyword `kwarg`,
   * or with `prop` that property of it (recorded by `propSetters`). A true constant makes the
   * sink safe; a false constant is reported whatever the value, naming the line that set it;
   * never set, the sink is reported only for a value that reaches it. A flag set to a value not
   * known (`secure=app.config[...]`, or set on one path only) was thought about: not reported.
   */
  flag?: { arg?: number | undefined; kwarg?: string | undefined; prop?: string | undefined } | undefined;
  /**
   * It builds a query that another call runs (SQLAlchemy's `text()`, an LDAP filter or search
   * request, a compiled XPath): when the built value is stored in a variable, the finding goes on
   * the line that first uses that variable (`session.execute(stmt)`), where the query runs.
   */
  reportAtUse?: boolean | undefined;
}

/** Assignments into an object that are sinks: `session[key] = value`. */
export interface AssignSinkSpec {
  objects: string[];
  /** Or any object whose last name segment matches this expression (a store named `user_session`). */
  objectPattern?: string | undefined;
  cwe: number;
  kind: string;
}

/** A scoped source: its values matter only for the sinks of the CWEs it feeds. */
export interface ScopedSourceSpec {
  calls: string[];
  /** The CWEs its values feed: a predictable number 330 (and 614, as a credential); a secret 614. */
  feeds: number[];
  description: string;
  /** The call writes its value into this argument instead of returning it (`Random.nextBytes(buf)`). */
  fills?: number | undefined;
}

/**
 * Values that are not untrusted input but matter for some sinks: a predictable random number is
 * harmless in a SQL query and a flaw as a session token; a secure token is harmless anywhere but
 * in a cookie sent without Secure. Kept apart from `sources`/`sinks` so that neither kind reaches
 * the other's sinks: a scoped source reaches only the scoped sinks of the CWEs it `feeds`, and
 * request input never reaches a scoped sink (a request value in a cookie is not weak randomness).
 * A value may carry both kinds (`userId + Math.random()`); sanitizers clear only request input.
 */
export interface ScopedSpec {
  sources: ScopedSourceSpec[];
  sinks: SinkSpec[];
  assignSinks: AssignSinkSpec[];
  /** Setters that record their first argument as a property of the receiver: `Cookie.setSecure` -> `secure`. */
  propSetters: Record<string, string>;
  /** Calls whose result has a known type, looked up after `returns`: `SecureRandom.getInstance` -> `SecureRandom`. */
  returns: Record<string, string>;
}

export interface SanitizerSpec {
  calls: string[];
  /** CWEs its result is safe for; all when absent (an integer is safe everywhere). */
  cwes?: number[] | undefined;
}

/** Checks in a condition that make a value safe in the branch where they hold. */
export interface GuardSpec {
  calls: string[];
  /** The checked value: the receiver (`allowed.contains(x)` has it at 0, `x.startsWith(p)` at receiver). */
  subject: 'receiver' | number;
  cwes?: number[] | undefined;
  /** Only for a value a path normaliser returned (a prefix check on a raw path proves nothing). */
  needsNormalized?: boolean | undefined;
}

/**
 * A test of what a text starts with (`x.startsWith("/")`, `strings.HasPrefix(x, "/")`): with a
 * constant prefix it tells whether a redirect target is a path on this site (guards.ts).
 */
export interface PrefixTestSpec {
  calls: string[];
  subject: 'receiver' | number;
  /** The position of the prefix argument. */
  prefix: number;
}

export interface ContainerSpec {
  /** Constructors and factories of sequences and maps. */
  lists: string[];
  maps: string[];
  /** Factories whose arguments are the elements (`Arrays.asList`, `List.of`). */
  listOf: string[];
  mapOf: string[];
  /** Method names, by what they do to their receiver. */
  append: string[];
  insert: string[];
  put: string[];
  get: string[];
  /** Removal by position when given a number, else by value (Java's `List.remove`). */
  remove: string[];
  /** Removal by value only (Python's `list.remove`). */
  removeValue: string[];
  /** Removal of the first or last element when called without an argument. */
  removeFirst: string[];
  removeLast: string[];
  extend: string[];
  clear: string[];
}

export interface FlowSpec {
  sources: SourceSpec[];
  paramSources: ParamSourceSpec[];
  /**
   * Parameter markers that convert the input before the handler sees it (NestJS's
   * `@Param('id', ParseIntPipe)`): such a parameter holds a number, boolean or UUID, as if the code
   * had converted it itself (`Value.fixed`), whatever source marks it.
   */
  convertingMarkers?: string[] | undefined;
  /**
   * Declared types the framework converts a marked request parameter to before the handler runs,
   * refusing a request whose text does not convert (Spring's and JAX-RS's `int limit`, `UUID id`,
   * an array of them; the adapters give a type without its generic arguments, so a `List<Long>` is
   * not known to be one): such a parameter is no text anyone can shape (`Value.fixed`). An enum
   * the file declares is one too.
   */
  convertedTypes?: string[] | undefined;
  routes: RouteSpec[];
  sinks: SinkSpec[];
  assignSinks: AssignSinkSpec[];
  sanitizers: SanitizerSpec[];
  guards: GuardSpec[];
  prefixTests: PrefixTestSpec[];
  /**
   * Rejections: a value found to contain this text is turned away where the check holds, so it is
   * safe where it does not for these CWEs (`if "../" in name: abort()`).
   */
  rejects: { text: string; cwes: number[] }[];
  /** URL parsers (`urlparse`, `new URI`), and the parts of their result that name the host. */
  urlParsers: string[];
  urlHosts: string[];
  /**
   * The request's own URL or origin as written (`request.url`, `request.nextUrl.origin`): the
   * client reached this site through it, so as a URL parser's base (`new URL(path, request.url)`)
   * it gives this site's origin, and a parsed URL's origin or host equal to it is on this site.
   */
  ownUrls?: string[] | undefined;
  /**
   * URL builders: calls whose result starts as their first argument's text
   * (`UriComponentsBuilder.fromHttpUrl("https://geo.example.org/v1")`), and the methods of a
   * built URL that change its path, query or encoding but never its scheme and host.
   */
  urlBuilders?: { starts: string[]; keeps: string[] } | undefined;
  /**
   * The framework's redirect makes a path a full URL on this host (Rails' `redirect_to "/x"`
   * sends `https://this.host/x`, Sinatra's too): there, a target that starts with `/` and not
   * `//` is a path on this site, backslash or not.
   */
  redirectKeepsHost?: boolean | undefined;
  /** Sanitizers known by a naming convention (`escapeHtml`, `html_escape`): a regular expression on the name. */
  sanitizerNames: { pattern: string; cwes: number[] }[];
  /**
   * Calls that set a named flag on their receiver, kept like a constructor's keyword for sinks
   * that require it: `parser.setFeature(feature_external_ges, True)` sets `feature_external_ges`.
   */
  propSetters?: string[] | undefined;
  /**
   * Maps keyed by two names, by the receiver's type (`ConfigParser`: `set(section, option,
   * value)`, `get(section, option)`): read and written like a map whose key is the pair.
   */
  sectionMaps?: { types: string[]; put: string[]; get: string[] } | undefined;
  /**
   * Calls without input or side effect (`base64.b64decode`, `str`, `*.decode`): given only
   * constants, their result is built from constants too, though the analysis does not compute it.
   */
  pure?: string[] | undefined;
  /** Writes that add their argument to the receiver's text (`StringIO.write`). */
  appendsTo: string[];
  /** Calls that never return (`abort(404)`, `sys.exit()`): the path ends there. */
  exits: string[];
  /** Calls returning a response object rather than text: returning one writes no text. */
  responses: string[];
  /** Programs that run their `-c` argument as a shell command. */
  shells: string[];
  /** Path normalisers: a prefix check on their result clears CWE-22. */
  normalizers: string[];
  /** Calls whose result has a known type: `Runtime.getRuntime` -> `Runtime`. */
  returns: Record<string, string>;
  /** Calls that return a number or boolean whatever their input (`length`, `equals`). */
  scalarResults: string[];
  containers: ContainerSpec;
  /** Names of the receiver in a method body (`this`, `self`). */
  selfNames: string[];
  /**
   * How a class's constructor is named (`__init__`, `initialize`; a Java constructor is named
   * after its class), and which of its parameters hold request input by convention (a Rails
   * service object is made with the controller's `params`). What the constructor stores in the
   * instance (`self.x`, `this.x`, `@x`) is what every other method of the class starts with.
   */
  constructors?: { names: string[]; requestParams?: { names: string[]; description: string } } | undefined;
  /**
   * Text a file or function must also hold to read input at all, as a regular expression: Go reads
   * request input only through a parameter typed `*http.Request`, `*gin.Context`, `echo.Context`.
   */
  requires?: string | undefined;
  /** Weak randomness, secrets and cookies (see `ScopedSpec`); a language may have none yet. */
  scoped?: ScopedSpec | undefined;
}
