import { describe, expect, it } from 'vitest';
import { flowsOf, securityFindings } from './flows-of.js';

/** The findings of a whole added file, as `ruleId@line`. */
const findingsOf = (path: string, source: string): string[] =>
  securityFindings(path, source).map((f) => `${f.ruleId}@${f.line}`);

describe('a sink reached only by checked values: an allow-list pick, a number', () => {
  it('clears a ternary that takes the request value only where an allow-list holds it', () => {
    const picked = `const SORTABLE = new Set(['created_at', 'title']);
function list(req, res) {
  const column = SORTABLE.has(req.query.sort) ? req.query.sort : 'created_at';
  db.query('SELECT id FROM t ORDER BY ' + column);
}`;
    expect(flowsOf('javascript', picked)).toEqual([]);
    expect(findingsOf('src/routes/list.js', picked)).toEqual([]);
    // The same ternary the wrong way round takes the request value where the check fails.
    const inverted = picked.replace('? req.query.sort : ', "? 'created_at' : ");
    const swapped = inverted.replace("'created_at';\n  db", 'req.query.sort;\n  db');
    expect(flowsOf('javascript', swapped)).toEqual(['89@4<-3']);
  });

  it("clears a value that a predicate of the file checks against an allow-list, as the predicate's check would", () => {
    const typescript = (guard: string) => `import { pool } from '../db';
const SORTABLE = ['created_at', 'priority', 'title'] as const;
type SortColumn = (typeof SORTABLE)[number];
function isSortColumn(value: string): value is SortColumn {
  return ${guard};
}
export async function listSorted(sort: string) {
  const column = isSortColumn(sort) ? sort : 'created_at';
  return pool.query(\`SELECT id, title FROM tickets ORDER BY \${column} DESC\`);
}`;
    expect(
      findingsOf('src/repositories/sorted.ts', typescript('(SORTABLE as readonly string[]).includes(value)')),
    ).toEqual([]);
    // A predicate that checks something else proves nothing of the value.
    expect(findingsOf('src/repositories/sorted.ts', typescript('value.length < 20'))).toEqual(['js.sql-injection@9']);
    const python = `from flask import abort, request
ALLOWED = {"name", "created_at"}

def is_sortable(column):
    return column in ALLOWED

@app.route("/users")
def users():
    sort = request.args.get("sort", "name")
    if not is_sortable(sort):
        abort(400)
    return db.execute(f"SELECT id FROM users ORDER BY {sort}").fetchall()`;
    expect(findingsOf('app/views.py', python)).toEqual([]);
    expect(findingsOf('app/views.py', python.replace('if not is_sortable(sort)', 'if is_sortable(sort)'))).toEqual([
      'py.sql-injection@12',
    ]);
  });

  it('takes a comprehension whose element reads none of its loop names as made of that element alone', () => {
    const repository = (element: string) => `import sqlite3

def accounts_for_owners(conn: sqlite3.Connection, owner_ids: list[int]):
    placeholders = ",".join(${element} for owner in owner_ids)
    return conn.execute(f"SELECT * FROM accounts WHERE owner_id IN ({placeholders})", owner_ids).fetchall()`;
    expect(findingsOf('app/db/accounts.py', repository('"?"'))).toEqual([]);
    expect(findingsOf('app/db/accounts.py', repository('str(owner)'))).toEqual(['py.sql-injection@5']);
    const view = `from flask import request

@app.route("/accounts")
def accounts():
    ids = request.args.getlist("id")
    quoted = ",".join(f"'{i}'" for i in ids)
    return db.execute(f"SELECT * FROM accounts WHERE id IN ({quoted})").fetchall()`;
    expect(flowsOf('python', view)).toEqual(['89@7<-5']);
  });

  it('reads a prefix check of a normalised path written on its text (path.to_s, str(p)) as a check of the path', () => {
    const ruby = (check: string) => `class ExportsController < ApplicationController
  ROOT = Rails.root.join("storage", "exports").realpath

  def show
    path = ROOT.join(params[:file].to_s).expand_path
    return head :not_found unless ${check}
    send_file path, disposition: "attachment"
  end
end`;
    expect(flowsOf('ruby', ruby('path.to_s.start_with?("#{ROOT}/") && path.file?'))).toEqual([]);
    expect(flowsOf('ruby', ruby('path.file?'))).toEqual(['22@7<-5']);
    const python = (check: string) => `import os
from flask import abort, request, send_file

BASE = os.path.realpath("/srv/exports")

@app.route("/export")
def export():
    path = os.path.realpath(os.path.join(BASE, request.args["name"]))
    if not ${check}:
        abort(404)
    return send_file(path)`;
    expect(flowsOf('python', python('str(path).startswith(BASE + os.sep)'))).toEqual([]);
    expect(flowsOf('python', python('str(path).endswith(".csv")'))).toEqual(['22@11<-8']);
  });

  it('clears a parsed URL whose own host the code checks against an allow-list, for the requests it makes', () => {
    const route = (check: string) => `const HOSTS = new Set(['avatars.githubusercontent.com', 'secure.gravatar.com']);
export async function GET(request) {
  const url = new URL(request.nextUrl.searchParams.get('src') ?? '', 'https://secure.gravatar.com');
  if (url.protocol !== 'https:' || ${check}) return new Response(null, { status: 400 });
  return fetch(url);
}`;
    expect(flowsOf('typescript', route('!HOSTS.has(url.hostname)'))).toEqual([]);
    // A check of something else about it proves nothing of its host.
    expect(flowsOf('typescript', route("!url.pathname.startsWith('/avatar/')"))).toEqual(['918@5<-3']);
  });

  it("disproves a pattern rule's match in a file that reads no request input", () => {
    // No source here: the functions around the rule's matches are run to see what reaches them.
    const repository = `export function listOrders(knex, archived, limit) {
  const table = archived ? 'orders_archive' : 'orders';
  const rows = Number.parseInt(limit, 10);
  return knex.raw(\`SELECT id FROM \${table} LIMIT \${rows}\`);
}
export function byName(knex, name) {
  return knex.raw(\`SELECT id FROM orders WHERE name = '\${name}'\`);
}`;
    expect(findingsOf('src/repositories/orders.js', repository)).toEqual(['js.sql-injection@7']);
  });

  it('clears a number conversion of request input in every language the flow reads', () => {
    const python = `@app.route("/posts")
def posts():
    offset = (int(request.args.get("page", "1")) - 1) * 25
    return db.execute(f"SELECT id FROM posts LIMIT 25 OFFSET {offset}").fetchall()`;
    expect(findingsOf('app/views.py', python)).toEqual([]);
    const ruby = `class PostsController < ApplicationController
  def index
    offset = params[:page].to_i * 25
    @posts = Post.find_by_sql("SELECT id FROM posts LIMIT 25 OFFSET #{offset}")
  end
end`;
    expect(findingsOf('app/controllers/posts_controller.rb', ruby)).toEqual([]);
    // Unconverted, the same value is an injection.
    expect(findingsOf('app/controllers/posts_controller.rb', ruby.replace('.to_i * 25', ''))).toEqual([
      'rb.sql-injection@4',
    ]);
  });

  it('keeps a shell run with spawn: the command string of sh -c is the sink, not only the program', () => {
    const spawned = `import { spawn } from 'node:child_process';
export function thumbnail(upload) {
  return spawn('sh', ['-c', \`convert \${upload.path} out.png\`]);
}
export function handler(req) {
  return spawn('bash', ['-c', 'tar czf ' + req.query.name]);
}`;
    expect(flowsOf('javascript', spawned)).toEqual(['78@6<-6']);
    expect(findingsOf('src/jobs/thumbs.js', spawned)).toEqual(['js.shell-c-command@3', 'js.shell-c-command@6']);
  });

  it('clears a lookup in a map of constants, an element checked at a constant key, and a method of checked values', () => {
    const go = `package tickets

var sortable = map[string]string{"created": "created_at", "title": "title"}

func List(w http.ResponseWriter, r *http.Request) {
	column, ok := sortable[r.URL.Query().Get("sort")]
	if !ok {
		column = "created_at"
	}
	db.Query("SELECT id FROM tickets ORDER BY " + column)
}`;
    expect(findingsOf('internal/tickets/list.go', go)).toEqual([]);
    const ruby = `class TicketsController < ApplicationController
  SORTABLE = %w[created_at title].freeze
  def index
    sort = SORTABLE.include?(params[:sort]) ? params[:sort] : "created_at"
    page = [params[:page].to_i, 1].max
    @tickets = Ticket.find_by_sql("SELECT id FROM tickets ORDER BY #{sort} LIMIT 25 OFFSET #{page * 25}")
  end
end`;
    expect(findingsOf('app/controllers/tickets_controller.rb', ruby)).toEqual([]);
    // The check on another key proves nothing of this one.
    const otherKey = ruby.replace('SORTABLE.include?(params[:sort])', 'SORTABLE.include?(params[:order])');
    expect(findingsOf('app/controllers/tickets_controller.rb', otherKey)).toEqual(['rb.sql-injection@6']);
  });

  it('keeps a query joined from a list that paths built differently: its elements are no longer known', () => {
    const repository = `export class Audit {
  where(filter) {
    const parts = ['1 = 1'];
    if (filter.actor) parts.push(\`actor = '\${filter.actor}'\`);
    return parts.join(' AND ');
  }
  search(filter) {
    return this.db.query(\`SELECT * FROM audit WHERE \${this.where(filter)}\`);
  }
}`;
    expect(findingsOf('src/repositories/audit.js', repository)).toEqual(['js.sql-injection@8']);
  });

  it('reads -c as a shell command only for a shell or a program not known', () => {
    const view = (command: string) => `import subprocess
from flask import request

@app.route("/ping")
def ping():
    host = request.args.get("host", "")
    prog = request.args.get("prog", "")
    subprocess.run(${command}, capture_output=True)
    return "ok"`;
    expect(flowsOf('python', view('["ping", "-c", "2", "--", host]'))).toEqual([]);
    expect(flowsOf('python', view('["/bin/sh", "-c", "ping " + host]'))).toEqual(['78@8<-6']);
    expect(flowsOf('python', view('[prog, "-c", "ping " + host]'))).toEqual(['78@8<-7']);
  });

  it('rates a request value written to a log as a warning: a forged line misleads, it runs nothing', () => {
    const logged = securityFindings(
      'app/views.py',
      `import logging
from flask import request

log = logging.getLogger(__name__)

@app.route("/health")
def health():
    caller = request.headers.get("X-Caller", "")
    log.info("probe from " + caller)
    return "ok"`,
    );
    expect(logged.map((f) => [f.ruleId, f.severity, f.line])).toEqual([['py.flow.log-injection', 'warning', 9]]);
  });

  it('rates a request value stored in the session as a warning: it matters where later code trusts it', () => {
    const stored = securityFindings(
      'accounts/views/language.py',
      `def set_language(request):
    request.session["lang"] = request.POST.get("lang", "en")
    return HttpResponse("ok")`,
    );
    expect(stored.map((f) => [f.ruleId, f.severity, f.line, f.cvssScore])).toEqual([
      ['py.flow.trust-boundary', 'warning', 2, 5.4],
    ]);
  });

  it("disproves a pattern rule's match on a value sanitized for the sink's CWE, not for another", () => {
    const quoted = `import shlex
import subprocess


def archive_folder(request):
    folder = shlex.quote(request.form["folder"])
    subprocess.run(f"tar -czf /backups/f.tgz -C /srv/data {folder}", shell=True, check=True)`;
    expect(findingsOf('app/tools/archive.py', quoted)).toEqual([]);
    // An HTML escape is no shell quoting: the command is still built of request input.
    const escaped = quoted.replace('import shlex', 'import html').replace('shlex.quote(', 'html.escape(');
    expect(findingsOf('app/tools/archive.py', escaped)).toEqual(['py.command-injection@7']);
  });

  it("disproves a pattern rule's request to a host the code wrote, not to a host the input picks", () => {
    const fixedHost = `package clients

import (
	"net/http"
	"net/url"
)

func PackageInfo(w http.ResponseWriter, r *http.Request) {
	resp, _ := http.Get("https://registry.example.org/" + url.PathEscape(r.URL.Query().Get("name")))
	defer resp.Body.Close()
}`;
    expect(findingsOf('internal/clients/registry.go', fixedHost)).toEqual([]);
    const anyHost = fixedHost.replace('"https://registry.example.org/" + ', '"https://" + ');
    expect(findingsOf('internal/clients/registry.go', anyHost)).not.toEqual([]);
  });
});
