import { describe, expect, it } from 'vitest';
import { flowsOf } from './flows-of.js';

/** A Flask view around a body; the body starts on line 7. */
const flask = (body: string) =>
  flowsOf(
    'python',
    `import configparser, os, pathlib
from pathlib import Path
from flask import request

@app.route("/f", methods=["POST"])
def view():
${body}
    return "done"
`,
  );

describe('Python paths and config maps', () => {
  it('follows a pathlib path joined with `/` to its methods, and not to an existence check', () => {
    expect(
      flask(`    name = request.form.get("name")
    base = pathlib.Path("/srv/files")
    p = base / name
    if p.exists() and os.path.isfile("/srv/files/" + name):
        p.read_text()
    Path(name).unlink()
    (base / "fixed.txt").read_text()`),
    ).toEqual(['22@11<-7', '22@12<-7']);
  });

  it('does not take a query set for a path: only a pathlib receiver is', () => {
    expect(
      flask(`    name = request.form.get("name")
    rows = Item.objects.filter(name=name)
    rows.read_text()`),
    ).toEqual([]);
  });

  it('reads a ConfigParser option back as what was set under that section and option', () => {
    expect(
      flask(`    name = request.form.get("name")
    conf = configparser.ConfigParser()
    conf.add_section("s")
    conf.set("s", "a", "fixed.txt")
    conf.set("s", "b", name)
    open(conf.get("s", "a"))
    open(conf.get("s", "b"))
    loaded = configparser.ConfigParser()
    open(loaded.get("s", "b"))`),
    ).toEqual(['22@13<-7']);
  });
});
