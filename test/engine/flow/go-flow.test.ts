import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf } from './flows-of.js';

/** A net/http handler around a body; the body starts on line 4. */
const handler = (body: string, extra = '') =>
  flowsOf(
    'go',
    `package main

func handle(w http.ResponseWriter, r *http.Request) {
${body}
}
${extra}`,
  );

describe('Go taint flows', () => {
  it("reads fiber's c *fiber.Ctx input: a header into a request's URL, a path parameter into SQL", () => {
    expect(
      flowsOf(
        'go',
        `package main

func proxy(c *fiber.Ctx) error {
	backend := c.Get("X-Backend-Host")
	req, _ := http.NewRequest(http.MethodGet, "http://"+backend+"/status", nil)
	resp, _ := http.DefaultClient.Do(req)
	db.Query("SELECT * FROM t WHERE id = " + c.Params("id"))
	db.Query("SELECT * FROM t WHERE id = $1", c.Params("id"))
	return c.Send(resp.Body)
}
`,
      ),
    ).toEqual(['918@6<-4', '89@7<-7']);
  });

  it('reports an XPath expression built from the query string, not a constant one', () => {
    expect(
      handler(`	expr := "//product[@sku='" + r.URL.Query().Get("sku") + "']/name"
	node := xmlquery.FindOne(doc, expr)
	nodes := htmlquery.Find(page, fmt.Sprintf("//a[@href='%s']", r.FormValue("href")))
	path, _ := xpath.Compile(r.FormValue("q"))
	same := xmlquery.FindOne(doc, "//product[@sku='a']")
	_, _, _, _ = node, nodes, path, same`),
    ).toEqual(['643@5<-4', '643@6<-6', '643@7<-7']);
  });

  it('reports the query string formatted into a SQL query, on the sink line, naming the source line', () => {
    const source = `package main
func search(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	db.Query(fmt.Sprintf("SELECT * FROM users WHERE name = '%s'", name))
}
`;
    expect(fullFlowsOf('go', source)).toEqual([
      {
        sinkLine: 4,
        sourceLine: 3,
        sourceDescription: 'the query string',
        cwe: 89,
        sinkKind: 'SQL query',
        variable: 'name',
      },
    ]);
  });

  it('reads chi and gorilla/mux path variables, through a helper building the query', () => {
    const source = `package store

func buildEventsQuery(kind string) string {
	var sb strings.Builder
	sb.WriteString("SELECT id FROM events WHERE kind = '")
	sb.WriteString(kind)
	sb.WriteString("'")
	return sb.String()
}

func EventsHandler(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rows, _ := db.QueryContext(r.Context(), buildEventsQuery(chi.URLParam(r, "kind")))
		id := mux.Vars(r)["id"]
		db.Exec("DELETE FROM events WHERE id = " + id)
		db.Exec("DELETE FROM events WHERE id = $1", id)
		_ = rows
	}
}`;
    expect(flowsOf('go', source)).toEqual(['89@13<-13', '89@15<-14']);
  });

  it("reports markup sent as gin's raw body, not text or JSON sent that way", () => {
    const flash = (send: string) => `package api

func Flash(c *gin.Context) {
	msg := c.Query("msg")
	body := "<div class=\\"flash\\">" + msg + "</div>"
	${send}
}`;
    expect(flowsOf('go', flash('c.Data(http.StatusOK, "text/html; charset=utf-8", []byte(body))'))).toEqual([
      '79@6<-4',
    ]);
    expect(flowsOf('go', flash('c.Data(http.StatusOK, "application/json", []byte(msg))'))).toEqual([]);
    expect(flowsOf('go', flash('c.String(http.StatusOK, body)'))).toEqual([]);
  });

  it('follows :=, =, multiple assignment, concatenation, += and Sprintf', () => {
    expect(
      handler(`	p := r.FormValue("p")
	var a, b string = "x", p
	db.Exec("DELETE FROM t WHERE a = '" + a + "'")
	db.Exec("DELETE FROM t WHERE b = '" + b + "'")
	c := "safe"
	c += p
	db.Exec(c)
	var d string
	d = fmt.Sprintf("SELECT %s", p)
	db.Exec(d)
	e, f := p, "fixed"
	db.Exec(f)
	db.Exec(e)`),
    ).toEqual(['89@7<-4', '89@10<-4', '89@13<-4', '89@16<-4']);
  });

  it('follows strings.Builder writes, strings.Join, TrimSpace, ToLower and Split(...)[0]', () => {
    expect(
      handler(`	p := r.Header.Get("X-Name")
	var sb strings.Builder
	sb.WriteString("SELECT * FROM t WHERE n = '")
	db.Query(sb.String())
	sb.WriteString(p)
	db.Query(sb.String())
	db.Query(strings.Join([]string{"SELECT", strings.ToLower(strings.TrimSpace(p))}, " "))
	db.Query(strings.Join([]string{"SELECT", "1"}, " "))
	db.Query("SELECT " + strings.Split(p, ",")[0])`),
    ).toEqual(['89@9<-4', '89@10<-4', '89@12<-4']);
  });

  it('reads slices and maps element by element, the last write winning', () => {
    expect(
      handler(`	p := r.PathValue("p")
	args := []string{"ls", p}
	exec.Command(args[0]).Run()
	exec.Command(args[1]).Run()
	args = append(args, "safe")
	exec.Command(args[2]).Run()
	m := map[string]string{"a": p, "b": "fixed"}
	exec.Command(m["b"]).Run()
	m["b"] = p
	exec.Command(m["b"]).Run()
	m["a"] = "fixed"
	exec.Command(m["a"]).Run()`),
    ).toEqual(['78@7<-4', '78@13<-4']);
  });

  it('tells a shell running a command string from a fixed program with arguments', () => {
    expect(
      handler(`	p := r.FormValue("p")
	exec.Command("ls", "-l", p).Run()
	exec.Command("sh", "-c", "ls "+p).Run()
	exec.Command(p, "-l").Run()
	exec.CommandContext(ctx, "bash", "-c", p).Run()
	exec.CommandContext(ctx, "git", "log", p).Run()`),
    ).toEqual(['78@6<-4', '78@7<-4', '78@8<-4']);
  });

  it('decides if and switch on constants, and follows both branches otherwise', () => {
    expect(
      handler(`	p := r.FormValue("p")
	mode := "safe"
	cmd := "ls"
	if mode == "raw" {
		cmd = p
	}
	exec.Command(cmd).Run()
	switch mode {
	case "raw", "other":
		cmd = p
	default:
		cmd = "ls"
	}
	exec.Command(cmd).Run()
	if r.Method == "POST" {
		cmd = p
	}
	exec.Command(cmd).Run()`),
    ).toEqual(['78@21<-4']);
  });

  it('ends taint at strconv conversion, and escaping only for its own sink', () => {
    expect(
      handler(`	p := r.FormValue("p")
	n, err := strconv.Atoi(p)
	db.Exec("DELETE FROM t WHERE id = " + strconv.Itoa(n))
	b, _ := strconv.ParseBool(p)
	db.Exec(fmt.Sprintf("UPDATE t SET f = %v", b))
	e := html.EscapeString(p)
	fmt.Fprintf(w, "<p>%s</p>", e)
	fmt.Fprintf(w, "<p>%s</p>", template.HTMLEscapeString(p))
	db.Exec("SELECT '" + e + "'")
	w.Write([]byte("<p>" + url.QueryEscape(p)))`),
    ).toEqual(['89@12<-4']);
  });

  it('keeps only the file name after filepath.Base, and a cleaned path checked against its base', () => {
    expect(
      handler(`	p := r.FormValue("file")
	os.Open(filepath.Join("/srv/files", filepath.Base(p)))
	full := filepath.Join("/srv/files", p)
	if !strings.HasPrefix(full, "/srv/files/") {
		http.Error(w, "bad path", 400)
		return
	}
	os.ReadFile(full)
	raw := "/srv/files/" + p
	if strings.HasPrefix(raw, "/srv/files/") {
		os.ReadFile(raw)
	}
	if strings.Contains(p, "..") {
		return
	}
	http.ServeFile(w, r, p)`),
    ).toEqual(['22@14<-4']);
  });

  it('takes an allow-list map lookup as a check, written as a bool map or a comma-ok', () => {
    expect(
      handler(
        `	p := r.FormValue("p")
	if !allowed[p] {
		return
	}
	exec.Command(p).Run()
	q := r.FormValue("q")
	if _, ok := allowed[q]; !ok {
		return
	}
	exec.Command(q).Run()
	s := r.FormValue("s")
	if _, ok := r.Form[s]; ok {
		exec.Command(s).Run()
	}
	exec.Command(s).Run()`,
        'var allowed = map[string]bool{"ls": true}',
      ),
    ).toEqual(['78@16<-14', '78@18<-14']);
  });

  it('follows a value into a helper of the same file and back, with multiple return values', () => {
    expect(
      handler(
        `	p := r.FormValue("p")
	q, err := wrap(p)
	db.Exec(q)
	safe, _ := fixed(p)
	db.Exec(safe)
	run(p)
	_, leaked := swap(p)
	db.Exec(leaked)`,
        `func wrap(s string) (string, error) {
	return "SELECT " + s, nil
}
func fixed(s string) (string, error) {
	return "SELECT 1", nil
}
func run(cmd string) {
	exec.Command("sh", "-c", cmd).Run()
}
func swap(s string) (string, string) {
	return "SELECT 1", s
}`,
      ),
    ).toEqual(['89@6<-4', '89@11<-4', '78@20<-4']);
  });

  it("follows a method's call of another method of its receiver's type", () => {
    const source = `package main
func (s *Server) Files(w http.ResponseWriter, r *http.Request) {
	s.send(w, r.FormValue("name"))
}
func (s *Server) send(w http.ResponseWriter, name string) {
	http.ServeFile(w, nil, "/srv/"+name)
}
`;
    expect(flowsOf('go', source)).toEqual(['22@6<-3']);
  });

  it('does not report a constant reaching a sink, or placeholders with bound arguments', () => {
    expect(
      handler(`	p := r.FormValue("p")
	const q = "SELECT * FROM t"
	db.Query(q)
	db.Query("SELECT * FROM t WHERE a = $1", p)
	db.QueryContext(ctx, "SELECT * FROM t WHERE a = ?", p)
	stmt, _ := db.Prepare("INSERT INTO t VALUES (?)")
	stmt.Exec(p)
	exec.Command("ls", "-l").Run()`),
    ).toEqual([]);
  });

  it('reads gin and echo handlers, bound request structs and function literals', () => {
    const source = `package main
func routes(r *gin.Engine) {
	r.GET("/u/:id", func(c *gin.Context) {
		id := c.Param("id")
		db.Where("id = " + id).First(&u)
		db.Where(&User{ID: id}).First(&u)
		db.Where("id = ?", id).First(&u)
		var in Input
		if err := c.ShouldBindJSON(&in); err != nil {
			return
		}
		db.Raw("SELECT * FROM t ORDER BY " + in.Sort).Scan(&rows)
		c.Redirect(302, c.Query("next"))
		c.Redirect(302, "/home?x="+c.Query("next"))
	})
}
func show(c echo.Context) error {
	return c.HTML(200, "<h1>"+c.QueryParam("title")+"</h1>")
}
`;
    expect(flowsOf('go', source)).toEqual(['89@5<-4', '89@12<-9', '601@13<-13', '79@18<-18']);
  });

  it('reports outgoing requests, redirects, templates and HTML writes, but not to a fixed host or a non-HTTP writer', () => {
    expect(
      handler(`	u := r.FormValue("u")
	http.Get(u)
	http.Get("https://api.example.com/items?id=" + u)
	req, _ := http.NewRequest("GET", u, nil)
	client.Do(req)
	http.Redirect(w, r, u, http.StatusFound)
	http.Redirect(w, r, "/done", http.StatusFound)
	template.Must(template.New("page").Parse(u))
	fmt.Fprintf(w, "<p>%s</p>", u)
	fmt.Fprintf(os.Stderr, "bad %s", u)
	io.WriteString(w, u)
	html := template.HTML(u)`),
    ).toEqual(['918@5<-4', '918@8<-4', '601@9<-4', '1336@11<-4', '79@12<-4', '79@14<-4', '79@15<-4']);
  });

  it('checks a request where it is sent, by its URL only, and not a key given to another Do', () => {
    expect(
      handler(`	u := r.FormValue("u")
	req, _ := http.NewRequestWithContext(r.Context(), "GET", u, nil)
	resp, err := s.client.Do(req)
	post, _ := http.NewRequest("POST", "https://hooks.example.com/in", strings.NewReader(u))
	http.DefaultClient.Do(post)
	group.Do(u, load)`),
    ).toEqual(['918@6<-4']);
  });

  it('takes filepath.Rel and a ".." prefix check of the result as a base check', () => {
    expect(
      handler(`	full := filepath.Join("/srv/assets", r.URL.Query().Get("name"))
	rel, err := filepath.Rel("/srv/assets", full)
	if err != nil || strings.HasPrefix(rel, "..") {
		return
	}
	http.ServeFile(w, r, full)
	other := filepath.Join("/srv/assets", r.URL.Path)
	rel2, _ := filepath.Rel("/srv/assets", other)
	if strings.HasPrefix(rel2, "/") {
		return
	}
	http.ServeFile(w, r, other)`),
    ).toEqual(['22@15<-10']);
  });

  it('reports request text run by an embedded interpreter, and not its result written back', () => {
    expect(
      handler(`	vm := otto.New()
	value, err := vm.Run(r.FormValue("script"))
	w.Write([]byte(value.String()))
	rt := goja.New()
	rt.RunString("1 + 1")`),
    ).toEqual(['94@5<-5']);
  });

  it('reads nothing from a function without a request parameter', () => {
    const source = `package main
func load(name string) {
	db.Query("SELECT * FROM t WHERE n = '" + name + "'")
}
func other(r *Request) {
	db.Query(r.FormValue("q"))
}
`;
    expect(flowsOf('go', source)).toEqual([]);
  });
});
