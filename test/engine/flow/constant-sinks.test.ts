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
});
