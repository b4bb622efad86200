import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf } from './flows-of.js';

/** A Flask view around a body; the body starts on line 6. */
const flask = (body: string, extra = '') =>
  flowsOf(
    'python',
    `import os, subprocess
from flask import Flask, redirect, request, session

@app.route("/v")
def view():
${body}
    return "done"
${extra}`,
  );

describe('Python taint flows', () => {
  it('reports the query string formatted into a SQL query, on the sink line, naming the source line', () => {
    const source = `from flask import request
def view(db):
    name = request.args.get("name")
    db.cursor().execute(f"select * from users where name = '{name}'")
`;
    expect(fullFlowsOf('python', source)).toEqual([
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

  it('takes a function without decorators that reads the request and returns markup as a view registered elsewhere', () => {
    const view = (returned: string, decorator = '') => `from flask import request, jsonify

${decorator}def search_page():
    q = request.args.get("q", "")
    html = f"<p>Results for <b>{q}</b></p>"
    return ${returned}

app.add_url_rule("/search", view_func=search_page)`;
    expect(flowsOf('python', view('html'))).toEqual(['79@6<-4']);
    // Text that is no markup, and a decorated function that is no Flask route (a JSON API), are not.
    expect(flowsOf('python', view('q.upper()'))).toEqual([]);
    expect(flowsOf('python', view('html', '@login_required\n'))).toEqual([]);
  });

  it("reads aiohttp's request input: the query, the route's match_info and the awaited body", () => {
    expect(
      flowsOf(
        'python',
        `import asyncio
from aiohttp import web

async def flush(request: web.Request) -> web.Response:
    params = await request.post()
    opts = {"zone": params.get("zone", "example.internal")}
    await asyncio.create_subprocess_shell("rndc flush %(zone)s" % opts)
    name = request.match_info["name"]
    await asyncio.create_subprocess_shell("rndc reload " + name)
    await asyncio.create_subprocess_shell("rndc stats " + request.query.get("view", ""))
    return web.json_response({"ok": True})`,
      ),
    ).toEqual(['78@7<-5', '78@9<-8', '78@10<-10']);
  });

  it('follows %, format, join, concatenation, tuples and augmented assignment', () => {
    expect(
      flask(`    p = request.form["p"]
    os.system("ls %s" % p)
    a, b = "x", p
    os.popen("cat {}".format(b))
    c = "safe"
    c += p
    subprocess.getoutput(" ".join(["echo", c]))
    os.system("ls " + a)`),
    ).toEqual(['78@7<-6', '78@9<-6', '78@12<-6']);
  });

  it('does not report bound parameters or a constant', () => {
    expect(
      flask(`    p = request.args["p"]
    cursor.execute("select * from t where id = %s", (p,))
    os.system("ls -l")`),
    ).toEqual([]);
  });

  it("reports Django's QuerySet.extra given SQL text built from input, not its bound params", () => {
    expect(
      flask(`    domain = request.args.get("domain", "")
    condition = "email LIKE '%%@" + domain + "'"
    Contact.objects.extra(where=[condition])
    Contact.objects.extra(select={"n": "length(" + domain + ")"})
    Contact.objects.extra(where=["email LIKE %s"], params=["%@" + domain])`),
    ).toEqual(['89@8<-6', '89@9<-6']);
  });

  it('tells a shell command from an argument list, where only the program is dangerous', () => {
    expect(
      flask(`    p = request.args.get("p")
    subprocess.run(["ls", p])
    subprocess.run([p, "-l"])
    subprocess.run("ls " + p, shell=True)
    subprocess.run(p)`),
    ).toEqual(['78@8<-6', '78@9<-6', '78@10<-6']);
  });

  it('reads dicts and lists element by element, the last write winning, and pops shift the list', () => {
    expect(
      flask(`    p = request.cookies.get("p")
    d = {"a": p, "b": "fixed"}
    open(d["b"])
    d["b"] = p
    open(d["b"])
    items = ["safe", p, "also safe"]
    items.append(p)
    items.pop(0)
    open(items[1])
    open(items[0])
    del items[0]
    open(items[0])
    open(items[-1])`),
    ).toEqual(['22@10<-6', '22@15<-6', '22@18<-6']);
  });

  it('decides constant conditions, conditional expressions and match on a literal', () => {
    expect(
      flask(`    p = request.values.get("p")
    x = p if 3 > 4 else "safe"
    eval(x)
    if 10 * 2 == 20:
        y = "safe"
    else:
        y = p
    eval(y)
    match "ABC"[1]:
        case "a" | "B":
            z = "safe"
        case _:
            z = p
    eval(z)
    w = p if request.method == "POST" else "safe"
    eval(w)`),
    ).toEqual(['94@21<-6']);
  });

  it('ends taint at int(), and html.escape for HTML only', () => {
    expect(
      flask(`    p = request.args.get("p")
    n = int(p)
    os.system("kill " + str(n))
    import html
    e = html.escape(p)
    cursor.execute("select '" + e + "'")
    return "<p>" + e + "</p>"`),
    ).toEqual(['89@11<-6']);
  });

  it("reports a Flask view's tainted return and path parameters as HTML, but not jsonify", () => {
    const source = `from flask import request, jsonify
@app.route("/hello/<name>")
def hello(name):
    return "<h1>" + name + "</h1>"
@app.route("/api")
def api():
    return jsonify(request.args.get("q"))
`;
    expect(flowsOf('python', source)).toEqual(['79@4<-3']);
  });

  it('follows a value through a helper of the same file, and into a sink inside one', () => {
    expect(
      flask(
        `    p = request.args.get("p")
    os.system(wrap(p))
    os.system(fixed(p))
    run(p)`,
        `def wrap(s):
    return "echo " + s
def fixed(s):
    return "echo hi"
def run(cmd):
    subprocess.call(cmd, shell=True)
`,
      ),
    ).toEqual(['78@7<-6', '78@16<-6']);
  });

  it('takes FastAPI parameters and Django request attributes as sources, through import aliases', () => {
    const source = `from fastapi import Query
from django.http import HttpResponse
import subprocess as sp
from os import system

@router.get("/run")
def run(cmd: str = Query(None)):
    sp.Popen(cmd, shell=True)

def django_view(request):
    q = request.GET["q"]
    system(q)
    return HttpResponse("<p>" + q + "</p>")
`;
    expect(flowsOf('python', source)).toEqual(['78@8<-7', '78@12<-11', '79@13<-11']);
  });

  it('clears a path normalised and checked against its base, and a value on an allow-list', () => {
    expect(
      flask(`    p = request.args.get("p")
    full = os.path.realpath(os.path.join("/srv", p))
    if full.startswith("/srv/"):
        open(full)
    open(full)
    if p not in ALLOWED:
        raise ValueError(p)
    os.system(p)`),
    ).toEqual(['22@10<-6']);
  });

  it('reports redirects unless the host is checked, and session writes', () => {
    expect(
      flask(`    nxt = request.args.get("next")
    if url_has_allowed_host_and_scheme(nxt, allowed_hosts={"a.example"}):
        redirect(nxt)
    redirect(nxt)
    session["user"] = nxt`),
    ).toEqual(['601@9<-6', '501@10<-6']);
  });

  it('reports unsafe deserialisation and loaders, not the safe loader', () => {
    expect(
      flask(`    body = request.get_data()
    import pickle, yaml
    pickle.loads(body)
    yaml.load(body, Loader=yaml.SafeLoader)
    yaml.load(body, Loader=yaml.Loader)`),
    ).toEqual(['502@8<-6', '502@10<-6']);
  });

  it('reports XML parsed with entity resolution on, and XPath built from input', () => {
    expect(
      flask(`    x = request.data
    from lxml import etree
    etree.fromstring(x, etree.XMLParser(resolve_entities=False))
    etree.fromstring(x, etree.XMLParser(resolve_entities=True))
    root = etree.fromstring("<a/>")
    root.xpath("//user[@name='" + request.args["u"] + "']")`),
    ).toEqual(['611@9<-6', '643@11<-11']);
  });
});

describe('Python taint flows: framework details', () => {
  it("reads only a response tuple's body as HTML, and a redirect's result as no text", () => {
    const source = `import flask
from flask import request, make_response
@app.route("/a")
def a():
    v = request.args.get("v")
    r = make_response(("saved", {"X-Value": v}))
    return flask.redirect(v)
@app.route("/b")
def b():
    v = request.args.get("v")
    return make_response((v, 200))
`;
    expect(flowsOf('python', source)).toEqual(['601@7<-5', '79@11<-10']);
  });

  it('takes a rejected character as a check for what it would have broken', () => {
    expect(
      flowsOf(
        'python',
        `from flask import request
def v(cursor):
    name = request.args.get("name")
    if "'" in name:
        return "no"
    cursor.execute(f"select * from t where n = '{name}'")
    if ".." in name:
        raise ValueError()
    open("/srv/" + name)
    os.system("echo " + name)
`,
      ),
    ).toEqual(['78@10<-3']);
  });

  it('reports a command string given to a shell program in an argument list', () => {
    expect(
      flowsOf(
        'python',
        `from flask import request
import subprocess
def v():
    c = request.args.get("c")
    subprocess.run(["sh", "-c", "echo " + c])
    subprocess.run(["/usr/bin/echo", c])
`,
      ),
    ).toEqual(['78@5<-4']);
  });

  it("takes Django's format_html as escaping its arguments", () => {
    const source = `from django.http import HttpResponse
from django.utils.html import format_html
def v(request):
    return HttpResponse(format_html("<p>{}</p>", request.GET.get("n", "")))
def w(request):
    return HttpResponse("<p>%s</p>" % request.GET.get("n", ""))
`;
    expect(flowsOf('python', source)).toEqual(['79@6<-6']);
  });

  it('clears a URL whose parsed host was checked against an allow-list, and escapes by naming convention', () => {
    const source = `from flask import request, redirect
from urllib.parse import urlparse
from helpers import escape_html
def v():
    nxt = request.args.get("next")
    u = urlparse(nxt)
    if u.netloc not in ["example.com"] or u.scheme != "https":
        return "bad"
    return redirect(nxt)
def w():
    nxt = request.args.get("next")
    u = urlparse(nxt)
    if u.scheme != "https":
        return "bad"
    return redirect(nxt)
@app.route("/x")
def x():
    return "<p>" + escape_html(request.args["q"]) + "</p>"
`;
    expect(flowsOf('python', source)).toEqual(['601@15<-11']);
  });

  it('reads escapes in string literals: a rejected quote written escaped', () => {
    const source = `from flask import request
def v(cursor):
    name = request.args.get("name")
    if '\\'' in name:
        return "no"
    cursor.execute(f"select * from t where n = '{name}'")
`;
    expect(flowsOf('python', source)).toEqual([]);
  });

  it('reports an LDAP filter built from input, and not a search for other text', () => {
    const source = `from flask import request
import re
def v(conn):
    uid = request.args.get("uid")
    conn.search("ou=users", f"(&(objectClass=person)(uid={uid}))")
    re.search("x", uid)
    conn.search_s("ou=users", 2, "(uid=" + uid + ")")
`;
    expect(flowsOf('python', source)).toEqual(['90@5<-4', '90@7<-4']);
  });

  it('follows text written into a StringIO', () => {
    const source = `from flask import request
import io
def v(root):
    buf = io.StringIO()
    buf.write("//user[@name='")
    buf.write(request.args["u"])
    root.xpath(buf.getvalue())
`;
    expect(flowsOf('python', source)).toEqual(['643@7<-6']);
  });

  it('reports a session key chosen by the user', () => {
    expect(
      flowsOf(
        'python',
        `from flask import request, session
def v():
    k = request.form["k"]
    session[k] = "fixed"
    session["fixed"] = "value"
`,
      ),
    ).toEqual(['501@4<-3']);
  });

  it("reads a bare redirect in a hunk without its imports as the framework's, not a method named so", () => {
    expect(
      flowsOf(
        'python',
        `@bp.post("/login")
def login():
    next_url = request.args.get("next") or url_for("dashboard.index")
    if next_url == "/":
        return redirect(url_for("home"))
    flow.redirect(next_url)
    return redirect(next_url)
`,
      ),
    ).toEqual(['601@7<-3']);
  });
});
