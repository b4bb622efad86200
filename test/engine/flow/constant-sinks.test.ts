import { describe, expect, it } from 'vitest';
import { securityFindings } from './flows-of.js';

/** The security findings of a whole added Python file, as `ruleId@line`. */
const findingsOf = (source: string): string[] =>
  securityFindings('app/views.py', source).map((f) => `${f.ruleId}@${f.line}`);

/** A Flask view around a body; the body starts on line 8. */
const view = (body: string) => `import base64
import pickle
import subprocess
from flask import request

@app.route("/run", methods=["POST"])
def run():
${body}
    return "done"`;

describe("a pattern rule's match on a sink reached only by the code's constants", () => {
  it('goes when a constant branch, the last write of a map key or a list position picks the constant', () => {
    expect(
      findingsOf(
        view(`    param = request.form.get("p")
    bar = "safe" if 7 * 42 - 86 > 200 else param
    subprocess.run(f"echo {bar}", shell=True)
    box = {"a": "x", "b": param}
    pickle.loads(base64.b64decode(box["a"]))
    items = ["x", param]
    subprocess.run(f"echo {items[0]}".split(" ")[0] + " -l", shell=True)`),
      ),
    ).toEqual([]);
  });

  it('stays when the value may come from the request or from outside the code', () => {
    expect(
      findingsOf(
        view(`    param = request.form.get("p")
    bar = "safe" if request.method == "GET" else param
    subprocess.run(f"echo {bar}", shell=True)
    cached = redis_client.get("cart")
    pickle.loads(cached)
    pickle.loads(base64.b64decode(stored(param)))`),
      ),
    ).toEqual(['py.command-injection@10', 'py.unsafe-deserialization@12', 'py.unsafe-deserialization@13']);
  });

  it('stays in a helper followed from one caller with a constant: other callers may pass anything', () => {
    const source = `import subprocess
from flask import request

def shell(cmd):
    subprocess.run(f"sh -c {cmd}", shell=True)

@app.route("/x")
def x():
    shell("ls")
    q = request.args.get("q", "")
    return "ok"`;
    expect(findingsOf(source)).toEqual(['py.command-injection@5']);
  });

  it('goes on a line where a chained sink call is given nothing at its dangerous position', () => {
    const controller = (where: string) => `class ArchiveController < ApplicationController
  def index
    year = params[:year].to_i
    @posts = Post.where(${where}).order(id: :desc)
  end
end`;
    const rb = (where: string) =>
      securityFindings('app/controllers/archive_controller.rb', controller(where)).map((f) => `${f.ruleId}@${f.line}`);
    expect(rb('"extract(year from published_at) = #{year}"')).toEqual([]);
    expect(rb('"extract(year from published_at) = #{params[:year]}"')).toEqual(['rb.sql-injection@4']);
  });

  it("goes on a route's returned markup when every value in it is escaped for HTML", () => {
    const route = (body: string) => `require "sinatra"

get "/greet" do
  name = ${body}
  "<p>Hello, #{name}</p>"
end`;
    const rb = (body: string) => securityFindings('web/app.rb', route(body)).map((f) => `${f.ruleId}@${f.line}`);
    expect(rb('Rack::Utils.escape_html(params.fetch("name", "guest"))')).toEqual([]);
    expect(rb('ERB::Util.html_escape(params["name"].to_s)')).toEqual([]);
    expect(rb('params.fetch("name", "guest")')).toEqual(['rb.sinatra-html-response@5']);
  });
});

describe('placeholders and allow-listed words are the code’s own text', () => {
  it('drops a SQL rule’s match on placeholders made by mapping each value to ?, not on the values themselves', () => {
    const repo = (marks: string) => `const pool = require('./pool');

async function findTags(names) {
  const marks = ${marks}.join(', ');
  const [rows] = await pool.query(\`SELECT id FROM tags WHERE name IN (\${marks})\`, names);
  return rows;
}

module.exports = { findTags };
`;
    const lines = (marks: string) => securityFindings('src/tags.js', repo(marks)).map((f) => `${f.ruleId}@${f.line}`);
    expect(lines("names.map(() => '?')")).toEqual([]);
    expect(lines("new Array(names.length).fill('?')")).toEqual([]);
    expect(lines('names.map((n) => `${n}`)')).toEqual(['js.sql-injection@5']);
  });

  it('drops a Go rule’s match on an ORDER BY word looked up in a map of the code’s own (sqlx Select)', () => {
    const handler = (lookup: string) => `package handlers

import (
	"net/http"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
)

var sorts = map[string]string{"name": "name", "joined": "joined_at DESC"}

func List(db *sqlx.DB) echo.HandlerFunc {
	return func(c echo.Context) error {
		order, ok := ${lookup}
		if !ok {
			order = "name"
		}
		var names []string
		if err := db.Select(&names, "SELECT name FROM members ORDER BY "+order); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, names)
	}
}
`;
    const lines = (lookup: string) =>
      securityFindings('internal/handlers/members.go', handler(lookup)).map((f) => `${f.ruleId}@${f.line}`);
    expect(lines('sorts[c.QueryParam("sort")]')).toEqual([]);
    expect(lines('c.QueryParam("sort"), true')).toEqual(['go.sql-injection@19']);
  });
});
