import type { SgNode } from '@ast-grep/napi';
import type { Language } from '../languages.js';
import type { Analysis, Env, Frame, TaintFlow } from './context.js';
import type { FlowSpec } from './flow-spec.js';
import { run } from './interpret.js';
import type { FileIR, FunctionIR } from './ir.js';
import { javaFile } from './java/java-file.js';
import { pythonFile } from './python/python-file.js';
import { matchesAny } from './qualified-name.js';
import { JAVA_SPEC } from './specs/java.js';
import { PYTHON_SPEC } from './specs/python.js';
import type { Value } from './value.js';

export type { TaintFlow } from './context.js';

/** Expression evaluations one file may take; past it the file's remaining paths are not followed. */
const STEP_BUDGET = 200_000;

const ADAPTERS: Partial<Record<Language, { read: (root: SgNode) => FileIR; spec: FlowSpec }>> = {
  java: { read: javaFile, spec: JAVA_SPEC },
  python: { read: pythonFile, spec: PYTHON_SPEC },
};

/** Whether the flow analysis reads this language yet. */
export function flowSupports(language: Language): boolean {
  return ADAPTERS[language] !== undefined;
}

const sourceText = new WeakMap<FlowSpec, RegExp>();

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const last = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

/**
 * Whether the text may read request input as the spec knows it: reading the tree costs far more
 * than the analysis, and most files read none. A source on a typed receiver
 * (`HttpServletRequest.getParameter`) is looked for by its method name, one on a module object
 * (`request.args`) as written; markers as an annotation (`@RequestParam`), a call in a default
 * (`Query(`) or a decorator (`@app.route`).
 */
function mayHaveSource(spec: FlowSpec, text: string): boolean {
  let re = sourceText.get(spec);
  if (!re) {
    const sources = spec.sources.flatMap((s) => [...(s.calls ?? []), ...(s.attributes ?? [])]);
    const words = [
      ...sources.map((n) => (/^[A-Z]/.test(n) ? `\\b${escapeRegExp(last(n))}\\b` : `\\b${escapeRegExp(n)}\\b`)),
      ...spec.paramSources
        .flatMap((s) => s.markers)
        .map((m) => `@${escapeRegExp(last(m))}\\b|\\b${escapeRegExp(last(m))}\\s*\\(`),
      ...spec.routes.flatMap((r) => r.markers).map((m) => `@[\\w.]*\\b${escapeRegExp(last(m))}\\b`),
    ];
    re = new RegExp([...new Set(words)].join('|'));
    sourceText.set(spec, re);
  }
  return re.test(text);
}

/** A request handler's parameters and return sink, from its markers. */
function entryOf(spec: FlowSpec, fn: FunctionIR): { env: Env; frame: Frame } {
  const env: Env = new Map();
  const frame: Frame = { returns: [], fn };
  const route = spec.routes.find((r) => matchesAny(r.markers, fn.markers));
  frame.returnSink = route?.returnSink;
  for (const param of fn.params) {
    let value: Value = param.type ? { type: param.type } : {};
    const marked = spec.paramSources.find((s) => matchesAny(s.markers, param.markers));
    const described =
      marked?.description ??
      (route?.paramsTainted && !spec.selfNames.includes(param.name) && param.name !== 'request'
        ? route.paramsTainted
        : undefined);
    if (described) value = { ...value, taint: { line: param.line, description: described, variable: param.name } };
    env.set(param.name, value);
  }
  return { env, frame };
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
 * The flows, and the sinks (`line:cwe`) only ever reached with values built from the code's own
 * constants: a pattern rule's match there is disproved.
 */
export function analyzeFlows(language: Language, root: SgNode): { flows: TaintFlow[]; constantSinks: Set<string> } {
  const adapter = ADAPTERS[language];
  if (!adapter || !mayHaveSource(adapter.spec, root.text())) return { flows: [], constantSinks: new Set() };
  const file = adapter.read(root);
  const functions = new Map<string, FunctionIR[]>();
  for (const fn of file.functions) functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
  const analysis: Analysis = {
    spec: adapter.spec,
    functions,
    classes: new Set(file.classes),
    aliases: file.aliases,
    flows: new Map(),
    globals: new Map(),
    stack: [],
    budget: { steps: STEP_BUDGET },
    constantSinks: new Map(),
  };
  analysis.globals = run(analysis, new Map(), file.globals, { returns: [] }) ?? new Map();
  for (const fn of file.functions) {
    // A function that reads no input starts no flow; it is read only if a caller follows into it.
    const routed = adapter.spec.routes.some((r) => matchesAny(r.markers, fn.markers));
    if (!routed && !mayHaveSource(adapter.spec, fn.text)) continue;
    const { env, frame } = entryOf(adapter.spec, fn);
    analysis.stack = [fn];
    run(analysis, new Map([...analysis.globals, ...env]), fn.body, frame);
  }
  return {
    flows: [...analysis.flows.values()].sort((a, b) => a.sinkLine - b.sinkLine || a.cwe - b.cwe),
    constantSinks: new Set([...analysis.constantSinks].filter(([, fixed]) => fixed).map(([key]) => key)),
  };
}
