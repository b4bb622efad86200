import type { Env, Frame } from './context.js';
import type { FlowSpec } from './flow-spec.js';
import type { FunctionIR } from './ir.js';
import { routeApplies } from './may-reach-sink.js';
import { matchesAny } from './qualified-name.js';
import type { Value } from './value.js';

/**
 * A request handler's parameters and return sink, from its markers. `converted`: the declared
 * types a marked parameter is converted to before the handler runs (`FlowSpec.convertedTypes` and
 * the file's enums).
 */
export function entryOf(
  spec: FlowSpec,
  fn: FunctionIR,
  converted: ReadonlySet<string> = new Set(),
): { env: Env; frame: Frame } {
  const env: Env = new Map();
  const frame: Frame = { returns: [], fn };
  const routes = spec.routes.filter((r) => routeApplies(r, fn));
  frame.returnSinks = routes.flatMap((r) => (r.returnSink ? [r.returnSink] : []));
  const paramsTainted = routes.find((r) => r.paramsTainted)?.paramsTainted;
  for (const param of fn.params) {
    if (spec.convertingMarkers && matchesAny(spec.convertingMarkers, param.markers)) {
      env.set(param.name, { ...(param.type ? { type: param.type } : {}), fixed: true });
      continue;
    }
    let value: Value = param.type ? { type: param.type } : {};
    const marked = spec.paramSources.find((s) => matchesAny(s.markers, param.markers));
    if (marked && param.type && converted.has(param.type)) {
      env.set(param.name, { ...value, fixed: true });
      continue;
    }
    const requestParams = spec.constructors?.requestParams;
    const described =
      marked?.description ??
      (paramsTainted && !spec.selfNames.includes(param.name) && param.name !== 'request' ? paramsTainted : undefined) ??
      (requestParams?.names.includes(param.name) && isConstructor(spec, fn) ? requestParams.description : undefined);
    if (described) value = { ...value, taint: { line: param.line, description: described, variable: param.name } };
    env.set(param.name, value);
  }
  return { env, frame };
}

/** Whether the function is a class's constructor (its owner is read only for a name that may be one). */
export function isConstructor(spec: FlowSpec, fn: FunctionIR): boolean {
  const names = spec.constructors?.names;
  if (names === undefined) return false;
  if (names.includes(fn.name)) return fn.owner !== undefined;
  return /^[A-Z]/.test(fn.name) && fn.name === fn.owner;
}
