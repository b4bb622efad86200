import { type Analysis, type Env, type Frame, noteSink, recordFlow } from './context.js';
import { dottedName, evaluate, qualify, readElement } from './evaluate.js';
import { firstOf, namePattern } from './evaluate-call.js';
import { foldBinary, truthy } from './fold.js';
import { refine, refinementsOf } from './guards.js';
import type { Case, Expr, FunctionIR, Stmt, Target } from './ir.js';
import { matchesAny } from './qualified-name.js';
import {
  constant,
  isFixed,
  isSafeFor,
  join,
  keyOf,
  merge,
  named,
  prefixOf,
  taintFor,
  taintOf,
  UNKNOWN,
  type Value,
} from './value.js';

/** Two environments after their paths meet; a path that returned or raised is left out. */
function mergeEnvs(a: Env | undefined, b: Env | undefined): Env | undefined {
  if (!a || !b) return a ?? b;
  const out: Env = new Map();
  for (const key of new Set([...a.keys(), ...b.keys()])) out.set(key, merge(a.get(key), b.get(key)));
  return out;
}

function assignTo(analysis: Analysis, env: Env, target: Target, value: Value, line: number): void {
  switch (target.k) {
    case 'name': {
      let stored = value;
      // The comment names the variable a source was first stored in.
      const taint = named(value.taint, target.name);
      if (taint !== value.taint) stored = { ...value, taint };
      if (target.type && !stored.type) stored = { ...stored, type: target.type };
      env.set(target.name, stored);
      return;
    }
    case 'attr': {
      const path = dottedName(target.object);
      if (path) env.set(`${path}.${target.name}`, value);
      return;
    }
    case 'index': {
      const path = dottedName(target.object);
      const index = evaluate(analysis, env, target.index);
      // A key the user chose is as untrusted in a session as a value.
      checkAssignSink(analysis, path, index, line, true);
      checkAssignSink(analysis, path, value, line);
      if (!path) return;
      const container = env.get(path) ?? UNKNOWN;
      const key = keyOf(index);
      if (key !== undefined && container.items && Number.isInteger(Number(key))) {
        const items = [...container.items];
        items[Number(key)] = value;
        env.set(path, { ...container, items });
      } else if (key !== undefined && !container.items) {
        env.set(path, { ...container, keys: new Map(container.keys ?? []).set(key, value) });
      } else env.set(path, { ...container, rest: join(container.rest, taintOf(value)) });
      return;
    }
    case 'tuple': {
      target.items.forEach((item, i) => {
        assignTo(analysis, env, item, value.items ? readElement(value, constant(i)) : { taint: taintOf(value) }, line);
      });
    }
  }
}

/** The expression that reads what a target writes (for `+=`); undefined for a tuple. */
function targetExpr(target: Target, line: number): Expr | undefined {
  if (target.k === 'name') return { k: 'name', name: target.name, line };
  if (target.k === 'attr') return { k: 'attr', object: target.object, name: target.name, line };
  if (target.k === 'index') return { k: 'index', object: target.object, index: target.index, line };
  return undefined;
}

/** Reports a value written into a sink object; a key (`isKey`) only to request-input sinks. */
function checkAssignSink(analysis: Analysis, path: string, value: Value, line: number, isKey = false): void {
  if (!path) return;
  const { assignSinks } = analysis.spec;
  const scoped = isKey ? undefined : analysis.spec.scoped;
  const last = path.slice(path.lastIndexOf('.') + 1);
  for (const [sink, isScoped] of [
    ...assignSinks.map((s) => [s, false] as const),
    ...(scoped?.assignSinks ?? []).map((s) => [s, true] as const),
  ]) {
    const byName = sink.objectPattern !== undefined && namePattern(sink.objectPattern).test(last);
    if (!byName && !matchesAny(sink.objects, [path])) continue;
    const taint = taintFor(value, sink.cwe, isScoped);
    if (taint)
      recordFlow(analysis, {
        sinkLine: line,
        sourceLine: taint.line,
        sourceDescription: taint.description,
        cwe: sink.cwe,
        sinkKind: sink.kind,
        variable: taint.variable,
      });
  }
}

/** Runs statements in order; returns the environment after them, or undefined if every path returned or raised. */
export function run(analysis: Analysis, env: Env, body: Stmt[], frame: Frame): Env | undefined {
  let current: Env | undefined = env;
  for (const stmt of body) {
    if (!current || analysis.budget.steps < 0) return current;
    current = step(analysis, current, stmt, frame);
  }
  return current;
}

function runCases(analysis: Analysis, env: Env, cases: Case[], from: number, frame: Frame): Env | undefined {
  let current: Env | undefined = new Map(env);
  for (let i = from; i < cases.length && current; i++) {
    current = run(analysis, current, cases[i]?.body ?? [], frame);
    if (!cases[i]?.fallsThrough) break;
  }
  return current;
}

function step(analysis: Analysis, env: Env, stmt: Stmt, frame: Frame): Env | undefined {
  switch (stmt.k) {
    case 'assign': {
      let value = evaluate(analysis, env, stmt.value);
      const read = stmt.op ? targetExpr(stmt.target, stmt.line) : undefined;
      if (stmt.op && read) {
        // `s += x` is `s = s + x`: folded when both are known, tainted when either is.
        const old = evaluate(analysis, env, read);
        const folded =
          old.known && value.known
            ? foldBinary(stmt.op.replace(/=$/, ''), old.constant ?? null, value.constant ?? null)
            : undefined;
        // It still starts with what it started with (`html += row` keeps `<ul>`).
        const taint = join(taintOf(old), taintOf(value));
        value =
          folded !== undefined
            ? constant(folded)
            : {
                taint,
                type: old.type,
                prefix: prefixOf(old),
                fixed: (!taint && isFixed(old) && isFixed(value)) || undefined,
              };
      }
      assignTo(analysis, env, stmt.target, value, stmt.line);
      return env;
    }
    case 'declare':
      env.set(stmt.name, { type: stmt.type });
      return env;
    case 'expr': {
      evaluate(analysis, env, stmt.expr);
      const e = stmt.expr;
      const exits =
        e.k === 'call' && e.callee && matchesAny(analysis.spec.exits, [e.callee, qualify(analysis, e.callee)]);
      return exits ? undefined : env;
    }
    case 'block':
      return run(analysis, env, stmt.body, frame);
    case 'return': {
      const value = stmt.value ? evaluate(analysis, env, stmt.value) : UNKNOWN;
      frame.returns.push(value);
      frame.exits?.push(env);
      const body = firstOf(value);
      for (const sink of frame.returnSinks ?? []) {
        if (sink.requirePrefix !== undefined && !namePattern(sink.requirePrefix).test(prefixOf(body) ?? '')) continue;
        noteSink(analysis, stmt.line, sink.cwe, isSafeFor(body, sink.cwe));
        const taint = taintFor(body, sink.cwe);
        if (taint)
          recordFlow(analysis, {
            sinkLine: stmt.line,
            sourceLine: taint.line,
            sourceDescription: taint.description,
            cwe: sink.cwe,
            sinkKind: sink.kind,
            variable: taint.variable,
          });
      }
      return undefined;
    }
    case 'raise':
      return undefined;
    case 'if': {
      const test = evaluate(analysis, env, stmt.test);
      if (test.known) return run(analysis, env, truthy(test.constant ?? null) ? stmt.whenTrue : stmt.whenFalse, frame);
      const refinements = refinementsOf(analysis, env, stmt.test);
      const a = run(analysis, new Map(refine(env, refinements.whenTrue)), stmt.whenTrue, frame);
      const b = run(analysis, new Map(refine(env, refinements.whenFalse)), stmt.whenFalse, frame);
      return mergeEnvs(a, b);
    }
    case 'switch': {
      const subject = evaluate(analysis, env, stmt.subject);
      const key = keyOf(subject);
      if (subject.known && key !== undefined) {
        const hit = stmt.cases.findIndex((c) => c.tests.some((t) => t.k === 'const' && String(t.value) === key));
        const chosen = hit >= 0 ? hit : stmt.cases.findIndex((c) => c.tests.length === 0);
        return chosen >= 0 ? runCases(analysis, env, stmt.cases, chosen, frame) : env;
      }
      let out: Env | undefined = stmt.cases.some((c) => c.tests.length === 0) ? undefined : env;
      stmt.cases.forEach((_, i) => {
        out = mergeEnvs(out, runCases(analysis, env, stmt.cases, i, frame));
      });
      return out;
    }
    case 'loop': {
      // Twice, so a value carried from one iteration to the next is seen; the loop may not run at all.
      let current: Env | undefined = env;
      for (let pass = 0; pass < 2 && current; pass++) {
        const inner: Env = new Map(current);
        if (stmt.target && stmt.iter) {
          const iterable = evaluate(analysis, env, stmt.iter);
          assignTo(analysis, inner, stmt.target, { taint: taintOf(iterable), type: undefined }, stmt.line);
        }
        current = mergeEnvs(current, run(analysis, inner, stmt.body, frame));
      }
      return current ?? env;
    }
  }
}

/** Runs a function of this file with the callers' argument values; its return values merged. */
export function callFunction(analysis: Analysis, fn: FunctionIR, args: Value[], kwargs: Map<string, Value>): Value {
  const env: Env = new Map(analysis.globals);
  const params = fn.params.filter((p, i) => !(i === 0 && fn.owner && analysis.spec.selfNames.includes(p.name)));
  params.forEach((p, i) => {
    const value = kwargs.get(p.name) ?? args[i] ?? UNKNOWN;
    env.set(p.name, p.type && !value.type ? { ...value, type: p.type } : value);
  });
  const frame: Frame = { returns: [], fn };
  analysis.stack.push(fn);
  run(analysis, env, fn.body, frame);
  analysis.stack.pop();
  return frame.returns.reduce<Value | undefined>((acc, v) => (acc ? merge(acc, v) : v), undefined) ?? UNKNOWN;
}
