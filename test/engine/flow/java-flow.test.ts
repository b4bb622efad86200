import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf, servlet } from './flows-of.js';

const java = (body: string, extra = '') => flowsOf('java', servlet(body, extra));

describe('Java taint flows', () => {
  it('reports a request parameter concatenated into a SQL query, on the sink line, naming the source line', () => {
    const flows = fullFlowsOf(
      'java',
      servlet(`    String id = request.getParameter("id");
    java.sql.Statement st = conn.createStatement();
    st.executeQuery("select * from t where id = '" + id + "'");`),
    );
    expect(flows).toEqual([
      {
        sinkLine: 6,
        sourceLine: 4,
        sourceDescription: 'a request parameter',
        cwe: 89,
        sinkKind: 'SQL query',
        variable: 'id',
      },
    ]);
  });

  it('reports a Spring MVC handler returning "redirect:" followed by input, not a redirect to a path it wrote', () => {
    const controller = (returned: string) => `package com.example.web;

@Controller
public class LocaleController {
    @PostMapping("/locale")
    public String change(@RequestParam(defaultValue = "/") String back) {
        return ${returned};
    }
}`;
    expect(flowsOf('java', controller('"redirect:" + back'))).toEqual(['601@7<-6']);
    expect(flowsOf('java', controller('"redirect:/settings?from=" + back'))).toEqual([]);
    expect(flowsOf('java', controller('"redirect:/"'))).toEqual([]);
    // A view name, not a redirect.
    expect(flowsOf('java', controller('"locale/" + back'))).toEqual([]);
  });

  it('reads Spring WebFlux request input into R2DBC SQL and a WebClient, not into bound or fixed-host ones', () => {
    const handler = `package com.example.reactive;

public class CustomerHandler {
    private final DatabaseClient db;

    public Mono<ServerResponse> byCity(ServerRequest request) {
        String city = request.queryParam("city").orElse("Berlin");
        var rows = db.sql("SELECT id, name FROM customers WHERE city = '" + city + "'").fetch().all();
        var bound = db.sql("SELECT id FROM customers WHERE city = :city").bind("city", city).fetch().all();
        String url = request.pathVariable("url");
        Mono<String> page = WebClient.create(url).get().retrieve().bodyToMono(String.class);
        Mono<String> fixed = WebClient.create("https://api.example.org").get().retrieve().bodyToMono(String.class);
        return ServerResponse.ok().body(rows, Map.class);
    }
}`;
    expect(flowsOf('java', handler)).toEqual(['89@8<-7', '918@11<-10']);
  });

  it("reports a request value resolved against a folder and handed to Spring's FileSystemResource", () => {
    const controller = (resolved: string) => `package com.example.files;

@RestController
public class ExportController {
    private final Path exportRoot = Paths.get("/srv/exports");

    @GetMapping("/exports/{name}")
    public ResponseEntity<Resource> download(@PathVariable String name) {
        Path target = exportRoot.resolve(${resolved});
        return ResponseEntity.ok(new FileSystemResource(target));
    }
}`;
    expect(flowsOf('java', controller('name'))).toEqual(['22@10<-8']);
    expect(flowsOf('java', controller('"report.csv"'))).toEqual([]);
  });

  it('reports a handler returning markup built from input, not text, an escaped value or a redirect to a path', () => {
    const controller = (body: string) => `package com.example.web;

@RestController
public class GreetingController {
    @GetMapping(value = "/greeting", produces = MediaType.TEXT_HTML_VALUE)
    public String greeting(@RequestParam(defaultValue = "visitor") String name) {
        ${body}
    }
}`;
    expect(flowsOf('java', controller('return "<html><body><p>Welcome, " + name + "</p></body></html>";'))).toEqual([
      '79@7<-6',
    ]);
    expect(flowsOf('java', controller('return "Welcome, " + name;'))).toEqual([]);
    expect(flowsOf('java', controller('return "<p>" + HtmlUtils.htmlEscape(name) + "</p>";'))).toEqual([]);
    // Formatted text starts with its pattern's text before the first placeholder.
    expect(flowsOf('java', controller('return String.format("<p>Welcome back, %s!</p>", name);'))).toEqual(['79@7<-6']);
    expect(flowsOf('java', controller('return "<p>Welcome back, %s!</p>".formatted(name);'))).toEqual(['79@7<-6']);
    expect(flowsOf('java', controller('return String.format("Welcome back, %s!", name);'))).toEqual([]);
    expect(
      flowsOf(
        'java',
        controller('if (name.isEmpty()) return "redirect:" + name;\n        return "<p>" + name + "</p>";'),
      ),
    ).toEqual(['601@7<-6', '79@8<-6']);
  });

  it('reports a JAX-RS resource method returning markup built from a query parameter, not its text', () => {
    const resource = (body: string, annotation = '@GET') => `package com.acme.api;

@Path("/greeting")
public class GreetingResource {
    ${annotation}
    @Produces(MediaType.TEXT_HTML)
    public String greet(@QueryParam("who") String who) {
        String name = who == null ? "world" : who;
        ${body}
    }
}`;
    expect(flowsOf('java', resource('return "<p>Hello, " + name + "</p>";'))).toEqual(['79@9<-7']);
    expect(flowsOf('java', resource('return "<p>Hello, " + name + "</p>";', '@POST'))).toEqual(['79@9<-7']);
    expect(flowsOf('java', resource('return "Hello, " + name;'))).toEqual([]);
    // Not a resource method: what it returns goes wherever its caller sends it.
    expect(flowsOf('java', resource('return "<p>Hello, " + name + "</p>";', '@Deprecated'))).toEqual([]);
  });

  it('matches names written fully qualified as their short spelling', () => {
    const source = `class H {
  void get(javax.servlet.http.HttpServletRequest req) throws Exception {
    String p = req.getHeader("X");
    java.io.FileInputStream f = new java.io.FileInputStream("/data/" + p);
    java.lang.Runtime.getRuntime().exec(p);
  }
}`;
    expect(flowsOf('java', source)).toEqual(['22@4<-3', '78@5<-3']);
  });

  it('follows StringBuilder appends, String.format, arrays and re-assignment', () => {
    expect(
      java(`    String p = request.getParameter("p");
    StringBuilder sb = new StringBuilder("ls ");
    sb.append("-l ").append(p);
    Runtime.getRuntime().exec(sb.toString());
    String[] args = {"a", String.format("%s.txt", p)};
    String q = args[1];
    q = q.trim();
    new java.io.FileInputStream(q);
    String safe = args[0];
    new java.io.FileInputStream(safe);`),
    ).toEqual(['78@7<-4', '22@11<-4']);
  });

  it('reads maps and lists element by element, the last write winning', () => {
    expect(
      java(`    String p = request.getParameter("p");
    java.util.Map<String, Object> m = new java.util.HashMap<>();
    m.put("a", p);
    m.put("b", "constant");
    response.getWriter().println(m.get("b"));
    m.put("a", "overwritten");
    response.getWriter().println(m.get("a"));
    java.util.List<String> l = new java.util.ArrayList<>();
    l.add("x");
    l.add(p);
    l.add("y");
    l.remove(0);
    response.getWriter().println(l.get(1));
    response.getWriter().println(l.get(0));`),
    ).toEqual(['79@17<-4']);
  });

  it("runs a process builder's first word only, unless it is a shell given a command, also one picked per platform", () => {
    expect(
      java(`    String name = request.getParameter("file");
    new ProcessBuilder("convert", "uploads/" + name, "thumbs/" + name).start();
    new ProcessBuilder(java.util.List.of("dig", "+short", name)).start();
    new ProcessBuilder("sh", "-c", "convert " + name).start();
    new ProcessBuilder(name, "--version").start();
    java.util.List<String> argv = new java.util.ArrayList<String>();
    if (System.getProperty("os.name").contains("Windows")) {
      argv.add("cmd.exe");
      argv.add("/c");
    } else {
      argv.add("sh");
      argv.add("-c");
    }
    argv.add("echo " + name);
    new ProcessBuilder().command(argv).start();
    java.util.List<String> tool = new java.util.ArrayList<String>();
    tool.add(System.getenv("IMAGE_TOOL"));
    tool.add("--input");
    tool.add(name);
    new ProcessBuilder(tool).start();`),
    ).toEqual(['78@7<-4', '78@8<-4', '78@18<-4']);
  });

  it('decides ternaries, ifs and switches on constants and merges both paths otherwise', () => {
    expect(
      java(`    String p = request.getParameter("p");
    int n = 86;
    String a = (7 * 18) + n > 200 ? "safe" : p;
    response.getWriter().print(a);
    String b = n > 1000 ? "safe" : p;
    response.getWriter().print(b);
    String c = "abc";
    switch ("xyz".charAt(1)) {
      case 'x': c = p; break;
      case 'y': c = "fine"; break;
      default: c = p;
    }
    response.getWriter().print(c);
    if (n * 2 < 100) { c = p; }
    response.getWriter().print(c);
    if (request.getMethod().isEmpty()) { c = p; }
    response.getWriter().print(c);`),
    ).toEqual(['79@9<-4', '79@20<-4']);
  });

  it('runs a switch group on into the next when it has no break', () => {
    expect(
      java(`    String p = request.getParameter("p");
    String c = "";
    switch (2) {
      case 2: c = "ok";
      case 3: c = p;
    }
    response.getWriter().print(c);`),
    ).toEqual(['79@10<-4']);
  });

  it('ends taint at integer conversion, and an HTML escape for HTML only', () => {
    expect(
      java(`    String p = request.getParameter("p");
    int n = Integer.parseInt(p);
    conn.createStatement().executeQuery("select * from t where id = " + n);
    String e = org.springframework.web.util.HtmlUtils.htmlEscape(p);
    response.getWriter().print(e);
    java.sql.Statement st = conn.createStatement();
    st.executeUpdate("update t set v = '" + e + "'");`),
    ).toEqual(['89@10<-4']);
  });

  it('takes a request parameter declared as a number, date, UUID or an enum of the file as converted, not a String', () => {
    const controller = (param: string, query: string) => `package com.example.admin;

@RestController
public class ExportController {
    enum Table { ORDERS, INVOICES }
    private JdbcTemplate jdbc;

    @GetMapping("/export")
    public List<Map<String, Object>> export(${param}) {
        return jdbc.queryForList(${query});
    }
}`;
    const sql = (name: string) => `"SELECT * FROM t WHERE v = '" + ${name} + "'"`;
    expect(flowsOf('java', controller('@RequestParam Table table', sql('table.name()')))).toEqual([]);
    expect(flowsOf('java', controller('@QueryParam("limit") @DefaultValue("20") int limit', sql('limit')))).toEqual([]);
    expect(flowsOf('java', controller('@RequestParam long[] ids', sql('ids[0]')))).toEqual([]);
    expect(flowsOf('java', controller('@PathVariable UUID id', sql('id')))).toEqual([]);
    expect(flowsOf('java', controller('@RequestParam String table', sql('table')))).toEqual(['89@10<-9']);
    // An enum of another file may be anything the analysis cannot see: a String-like type stays input.
    expect(flowsOf('java', controller('@RequestParam Region region', sql('region')))).toEqual(['89@10<-9']);
  });

  it('does not report a sink reached by a constant or through parameter binding', () => {
    expect(
      java(`    String p = request.getParameter("p");
    java.sql.PreparedStatement ps = conn.prepareStatement("select * from t where id = ?");
    ps.setString(1, p);
    ps.executeQuery();
    Runtime.getRuntime().exec("ls -l");`),
    ).toEqual([]);
  });

  it('follows a value into a helper of the same file and back, and into a sink inside a helper', () => {
    const extra = `  private String quote(String s) { return "'" + s + "'"; }
  private String fixed(String s) { return "fixed"; }
  private void run(String cmd) throws Exception { Runtime.getRuntime().exec(cmd); }`;
    expect(
      java(
        `    String p = request.getParameter("p");
    conn.createStatement().execute("select " + quote(p));
    conn.createStatement().execute("select " + fixed(p));
    run(p);
    new Handler().run("constant");`,
        extra,
      ),
    ).toEqual(['89@5<-4', '78@12<-4']);
  });

  it('takes Spring annotated parameters and the Servlet getters as sources', () => {
    const source = `class C {
  @GetMapping("/u")
  public String u(@RequestParam("name") String name, @RequestHeader("X") String h, HttpServletRequest request) {
    jdbcTemplate.queryForList("select * from u where n = '" + name + "'");
    new java.io.FileReader(h);
    java.util.Enumeration<String> hs = request.getHeaders("Y");
    String first = hs.nextElement();
    request.getSession().setAttribute("k", first);
    javax.servlet.http.Cookie[] cookies = request.getCookies();
    for (javax.servlet.http.Cookie c : cookies) { response.sendRedirect(c.getValue()); }
    return "ok";
  }
  void other(HttpServletResponse response) {}
}`;
    expect(flowsOf('java', source)).toEqual(['89@4<-3', '22@5<-3', '501@8<-6']);
  });

  it('clears a value checked against an allow-list in the branch where the check holds', () => {
    expect(
      java(`    String p = request.getParameter("p");
    if (ALLOWED.contains(p)) {
      Runtime.getRuntime().exec(p);
    } else {
      Runtime.getRuntime().exec(p);
    }`),
    ).toEqual(['78@8<-4']);
  });

  it('reports a File or URL built from input where it is opened, and a stream where objects are read', () => {
    expect(
      java(`    String p = request.getParameter("p");
    java.io.File f = new java.io.File("/srv/data", p);
    if (f.exists()) {
      java.net.URL u = new java.net.URL(p);
      u.openStream();
      new java.net.URL("https://api.example/v1/" + p).openStream();
      java.io.ObjectInputStream in = new java.io.ObjectInputStream(request.getInputStream());
      in.readObject();
    }`),
    ).toEqual(['22@6<-4', '918@8<-4', '502@11<-10']);
  });

  it('clears a path normalised and checked against its base, and a value rejected for containing `..`', () => {
    expect(
      java(`    String p = request.getParameter("p");
    java.nio.file.Path path = ROOT.resolve(p).normalize();
    if (!path.startsWith(ROOT) || !java.nio.file.Files.isRegularFile(path)) throw new SecurityException(p);
    java.nio.file.Files.readAllBytes(path);
    if (p.contains("..")) { return; }
    new java.io.FileInputStream(p);
    response.getWriter().print(p);`),
    ).toEqual(['79@10<-4']);
  });

  it('clears a redirect target whose parsed host is on an allow-list', () => {
    expect(
      java(`    String next = request.getParameter("next");
    java.net.URI uri = new java.net.URI(next);
    if (!ALLOWED_HOSTS.contains(uri.getHost())) { response.sendError(400); return; }
    response.sendRedirect(next);
    response.sendRedirect("/home?from=" + next);
    response.sendRedirect(request.getParameter("other"));`),
    ).toEqual(['601@9<-9']);
  });

  it('reports XPath and LDAP queries built from request input', () => {
    expect(
      java(`    String p = request.getParameter("p");
    javax.xml.xpath.XPath xp = javax.xml.xpath.XPathFactory.newInstance().newXPath();
    xp.evaluate("/users/user[@name='" + p + "']", doc);
    javax.naming.directory.DirContext ctx = new javax.naming.directory.InitialDirContext(env);
    ctx.search("ou=users", "(uid=" + p + ")", controls);`),
    ).toEqual(['643@6<-4', '90@8<-4']);
  });
});
