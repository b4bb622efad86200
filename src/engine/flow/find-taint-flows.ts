import type { SgNode } from '@ast-grep/napi';
import type { Language } from '../languages.js';
import { constructorFields } from './constructor-fields.js';
import { type Analysis, MAX_CALL_DEPTH, type TaintFlow } from './context.js';
import { entryOf } from './entry-of.js';
import type { FlowSpec } from './flow-spec.js';
import { goFile } from './go/go-file.js';
import { run } from './interpret.js';
import type { FileIR, FunctionIR } from './ir.js';
import { javaFile } from './java/java-file.js';
import { javascriptFile } from './javascript/javascript-file.js';
import { mayNameSink, mayReachSink, routeApplies, routeHint } from './may-reach-sink.js';
import { pythonFile } from './python/python-file.js';
import { matchesAny } from './qualified-name.js';
import { rubyFile } from './ruby/ruby-file.js';
import { GO_SPEC } from './specs/go.js';
import { JAVA_SPEC } from './specs/java.js';
import { JAVASCRIPT_SPEC } from './specs/javascript.js';
import { PYTHON_SPEC } from './specs/python.js';
import { RUBY_SPEC } from './specs/ruby.js';

export type { TaintFlow } from './context.js';

/** Expression evaluations one file may take; past it the file's remaining paths are not followed. */
const STEP_BUDGET = 200_000;

interface Adapter {
  read: (root: SgNode) => FileIR;
  spec: FlowSpec;
  /** How call names the adapter makes up, which are no words, are written (may-reach-sink.ts). */
  spellings?: Record<string, RegExp>;
}

const ADAPTERS: Partial<Record<Language, Adapter>> = {
  go: { read: goFile, spec: GO_SPEC },
  java: { read: javaFile, spec: JAVA_SPEC },
  python: { read: pythonFile, spec: PYTHON_SPEC },
  javascript: { read: javascriptFile, spec: JAVASCRIPT_SPEC },
  typescript: { read: javascriptFile, spec: JAVASCRIPT_SPEC },
  tsx: { read: javascriptFile, spec: JAVASCRIPT_SPEC },
  // A subshell (`` `cmd` `` or `%x(cmd)`) is the call named `` ` `` (ruby-expr.ts).
  ruby: { read: rubyFile, spec: RUBY_SPEC, spellings: { '`': /`|%x/ } },
};

/** Whether the flow analysis reads this language yet. */
export function flowSupports(language: Language): boolean {
  return ADAPTERS[language] !== undefined;
}

const sourceText = new WeakMap<FlowSpec, RegExp>();
const requiredText = new WeakMap<FlowSpec, RegExp>();

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const last = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

/** Every source call of the spec, request input and scoped alike. */
const sourceCalls = (spec: FlowSpec): string[] => [
  ...spec.sources.flatMap((s) => s.calls ?? []),
  ...(spec.scoped?.sources.flatMap((s) => s.calls) ?? []),
];

/**
 * Whether the text may read a source as the spec knows it: reading the tree costs far more than
 * the analysis, and most files read none. A source on a typed receiver
 * (`HttpServletRequest.getParameter`) is looked for by its method name, one on a module object
 * (`request.args`, `random.randint`) as written or imported from its module; markers as an
 * annotation (`@RequestParam`), a call in a default (`Query(`) or a decorator (`@app.route`).
 */
function mayHaveSource(spec: FlowSpec, text: string): boolean {
  if (spec.requires !== undefined) {
    let required = requiredText.get(spec);
    if (!required) {
      required = new RegExp(spec.requires);
      requiredText.set(spec, required);
    }
    if (!required.test(text)) return false;
  }
  let re = sourceText.get(spec);
  if (!re) {
    const sources = [...sourceCalls(spec), ...spec.sources.flatMap((s) => s.attributes ?? [])];
    const modules = sourceCalls(spec)
      .filter((n) => /^[a-z_]\w*\./.test(n))
      .map((n) => `\\bfrom\\s+${escapeRegExp(n.slice(0, n.indexOf('.')))}\\s+import\\b`);
    const words = [
      ...sources.map((n) => (/^[A-Z]/.test(n) ? `\\b${escapeRegExp(last(n))}\\b` : `\\b${escapeRegExp(n)}\\b`)),
      ...modules,
      // A sink with a flag is reported when the flag is off, whatever reaches it: its name is enough.
      ...(spec.scoped?.sinks ?? [])
        .filter((s) => s.flag)
        .flatMap((s) => s.calls.map((n) => `\\b${escapeRegExp(last(n))}\\b`)),
      ...spec.paramSources
        .flatMap((s) => s.markers)
        .map((m) => `@${escapeRegExp(last(m))}\\b|\\b${escapeRegExp(last(m))}\\s*\\(`),
      // A route that is only a return sink with a text hint matters only where the hint is.
      ...spec.routes.flatMap((r) => {
        const hint = routeHint(r);
        return hint !== undefined ? [`(?:${hint})`] : r.markers.map((m) => `@[\\w.]*\\b${escapeRegExp(last(m))}\\b`);
      }),
    ];
    re = new RegExp([...new Set(words)].join('|'));
    sourceText.set(spec, re);
  }
  return re.test(text);
}

/** A test for a word among these names, or undefined when there are none. */
const wordsIn = (names: Iterable<string>): RegExp | undefined => {
  const list = [...new Set(names)].map(escapeRegExp);
  return list.length > 0 ? new RegExp(`\\b(?:${list.join('|')})\\s*\\(`) : undefined;
};

/**
 * The functions to run from their start: those that read a source (directly, or through a name
 * imported from a source's module: `from random import randint`) or are routes, and those that
 * call one of them by name, to the call depth followed (`resp.set_cookie("t", new_token())`).
 */
function entryFunctions(spec: FlowSpec, file: FileIR): FunctionIR[] {
  const calls = sourceCalls(spec);
  const imported = wordsIn([...file.aliases].filter(([, full]) => matchesAny(calls, [full])).map(([short]) => short));
  const entries = new Set(
    file.functions.filter(
      (fn) => spec.routes.some((r) => routeApplies(r, fn)) || mayHaveSource(spec, fn.text) || imported?.test(fn.text),
    ),
  );
  let reached = [...entries];
  for (let depth = 0; depth < MAX_CALL_DEPTH && reached.length > 0; depth++) {
    const callee = wordsIn(reached.map((fn) => fn.name));
    reached = file.functions.filter((fn) => !entries.has(fn) && callee?.test(fn.text));
    for (const fn of reached) entries.add(fn);
  }
  return file.functions.filter((fn) => entries.has(fn));
}

/**
 * The functions written around these lines: run from their start with nothing known of their
 * parameters, they show whether a pattern rule's sink there is only ever reached by the code's own
 * values (see `analyzeFlows`).
 */
function holding(functions: readonly FunctionIR[], lines: readonly number[]): FunctionIR[] {
  if (lines.length === 0) return [];
  return functions.filter((fn) => {
    const last = fn.line + countLines(fn.text) - 1;
    return lines.some((line) => line >= fn.line && line <= last);
  });
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Intra-file taint flows of one parsed file: each function and method is run from its start in
 * statement order, with request input as sources, and calls into this file's functions followed to
 * a bounded depth. Empty for a language the analysis does not read.
 */
export function findTaintFlows(language: Language, root: SgNode): TaintFlow[] {
  return analyzeFlows(language, root).flows;
}

/**
 * The flows, and the sinks (`line:cwe`) only ever reached with values nothing from outside can
 * shape (`isFixed`): a pattern rule's match there is disproved. The functions around the `prove`
 * lines (a pattern rule's matches) are run from their start too, even in a file that reads no input.
 */
export function analyzeFlows(
  language: Language,
  root: SgNode,
  prove: readonly number[] = [],
): { flows: TaintFlow[]; constantSinks: Set<string> } {
  const adapter = ADAPTERS[language];
  if (!adapter) return { flows: [], constantSinks: new Set() };
  const text = root.text();
  // Only a line that names one of the spec's sinks can be proved: the others cost nothing.
  const lines = prove.length > 0 ? text.split('\n') : [];
  const proved = prove.filter((line) => mayNameSink(adapter.spec, lines[line - 1] ?? '', adapter.spellings));
  if (proved.length === 0 && !mayHaveSource(adapter.spec, text)) return { flows: [], constantSinks: new Set() };
  const file = adapter.read(root);
  const functions = new Map<string, FunctionIR[]>();
  for (const fn of file.functions) functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
  const analysis: Analysis = {
    spec: adapter.spec,
    functions,
    classes: new Set(),
    aliases: file.aliases,
    flows: new Map(),
    globals: new Map(),
    stack: [],
    budget: { steps: STEP_BUDGET },
    constantSinks: new Map(),
  };
  // The file's classes are read when the analysis first asks (javascript-file.ts reads them lazily).
  let classes: Set<string> | undefined;
  Object.defineProperty(analysis, 'classes', { get: () => (classes ??= new Set(file.classes)) });
  analysis.globals = run(analysis, new Map(), file.globals, { returns: [] }) ?? new Map();
  // A function that reads no source (nor calls one that does) starts no flow; it is read only if a caller follows into it.
  // One whose run reaches no sink records nothing: it is not run at all. Those around a pattern
  // rule's match are, to prove or not what reaches it.
  const entries = new Set(entryFunctions(adapter.spec, file));
  const reaching = mayReachSink(adapter.spec, file, adapter.spellings);
  const proving = new Set(holding(file.functions, proved).filter((fn) => reaching.has(fn)));
  const converted = new Set([
    ...(adapter.spec.convertedTypes ?? []),
    ...(adapter.spec.convertedTypes ? (file.enums ?? []) : []),
  ]);
  // The constructors run there are run once: their flows are recorded like any entry's. A method
  // proved from its start takes the fields its class's constructors always fix.
  const owners = new Set([...proving].flatMap((fn) => (fn.owner === undefined ? [] : [fn.owner])));
  const { tainted, fixed, ran } = constructorFields(analysis, adapter.spec, file, entries, owners, () => root.text());
  for (const fn of file.functions) {
    if (ran.has(fn)) continue;
    const owned = tainted.size > 0 && fn.owner !== undefined ? tainted.get(fn.owner) : undefined;
    if (!proving.has(fn) && !((entries.has(fn) || owned) && reaching.has(fn))) continue;
    const { env, frame } = entryOf(adapter.spec, fn, converted);
    analysis.stack = [fn];
    const own = fn.owner === undefined ? undefined : fixed.get(fn.owner);
    run(analysis, new Map([...analysis.globals, ...(own ?? []), ...(owned ?? []), ...env]), fn.body, frame);
  }
  return {
    flows: [...analysis.flows.values()].sort((a, b) => a.sinkLine - b.sinkLine || a.cwe - b.cwe),
    constantSinks: new Set([...analysis.constantSinks].filter(([, fixed]) => fixed).map(([key]) => key)),
  };
}
