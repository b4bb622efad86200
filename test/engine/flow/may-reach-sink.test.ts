import { describe, expect, it } from 'vitest';
import type { FileIR } from '../../../src/engine/flow/ir.js';
import { javascriptFile } from '../../../src/engine/flow/javascript/javascript-file.js';
import { mayReachSink } from '../../../src/engine/flow/may-reach-sink.js';
import { pythonFile } from '../../../src/engine/flow/python/python-file.js';
import { rubyFile } from '../../../src/engine/flow/ruby/ruby-file.js';
import { JAVASCRIPT_SPEC } from '../../../src/engine/flow/specs/javascript.js';
import { PYTHON_SPEC } from '../../../src/engine/flow/specs/python.js';
import { RUBY_SPEC } from '../../../src/engine/flow/specs/ruby.js';
import type { Language } from '../../../src/engine/languages.js';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';
import { flowsOf } from './flows-of.js';

function fileOf(language: Language, source: string): FileIR {
  const root = parseSource(language, source).root();
  return language === 'python' ? pythonFile(root) : language === 'ruby' ? rubyFile(root) : javascriptFile(root);
}

const reaching = (set: Set<{ name: string }>): string[] => [...set].map((fn) => fn.name).sort();

describe('mayReachSink', () => {
  it('keeps the functions that name a sink, call one that does, or use an imported name of one', () => {
    const file = fileOf(
      'javascript',
      `import { exec as run } from 'child_process';
function show(req, res) { res.json({ id: req.params.id }); }
function shell(cmd) { return run(cmd); }
function helper(x) { return require('child_process').execSync(x); }
function middle(x) { return helper(x.trim()); }
function outer(req) { return middle(req.query.x); }
function label(user) { return user.name; }
`,
    );
    expect(reaching(mayReachSink(JAVASCRIPT_SPEC, file))).toEqual(['helper', 'middle', 'outer', 'shell']);
  });

  it('reads a sink name as a whole word only', () => {
    // `findOrder` and `evaluated` are not the sinks `find` and `eval`.
    const file = fileOf('javascript', 'function load(req) { return service.findOrder(req.params.id).evaluated(); }\n');
    expect(reaching(mayReachSink(JAVASCRIPT_SPEC, file))).toEqual([]);
  });

  it('keeps a route whose return is a sink, whatever its text', () => {
    const file = fileOf(
      'python',
      `from flask import Flask
app = Flask(__name__)

@app.route("/u/<name>")
def hello(name):
    return name

def total(items):
    return len(items)
`,
    );
    expect(reaching(mayReachSink(PYTHON_SPEC, file))).toEqual(['hello']);
  });

  it('finds a sink matched by a name pattern through the identifiers of the file', () => {
    const file = fileOf(
      'python',
      `def reset(user, value):
    user.set_api_key(value)

def other(user):
    return user.id
`,
    );
    expect(reaching(mayReachSink(PYTHON_SPEC, file))).toEqual(['reset']);
  });

  it('knows a call name without words by its spelling, and keeps every function without one', () => {
    const source = `class Runner
  def list(dir)
    %x(ls #{dir})
  end

  def size(items)
    items.length
  end
end
`;
    const file = fileOf('ruby', source);
    expect(reaching(mayReachSink(RUBY_SPEC, file, { '`': /`|%x/ }))).toEqual(['list']);
    expect(reaching(mayReachSink(RUBY_SPEC, file))).toEqual(['list', 'size']);
  });
});

describe('the flow analysis with functions that reach no sink left out', () => {
  it('still follows a source into a helper that holds the sink', () => {
    expect(
      flowsOf(
        'javascript',
        `const cp = require('child_process');
function run(cmd) { cp.exec(cmd); }
function handler(req, res) {
  const name = req.query.name;
  run('ls ' + name);
  res.json({ ok: true });
}
`,
      ),
    ).toEqual(['78@2<-4']);
  });
});
