import type { Env } from './context.js';
import { dottedName, readElement } from './evaluate.js';
import type { ContainerSpec, FlowSpec } from './flow-spec.js';
import type { Expr } from './ir.js';
import { anyTaint, constant, join, keyOf, taintOf, UNKNOWN, type Value } from './value.js';

/** Where a method's receiver is stored, so a mutation can be written back (`sb` in `sb.append(a).append(b)`). */
export function receiverPath(expr: Expr | undefined, spec: ContainerSpec): string | undefined {
  if (!expr) return undefined;
  if (expr.k === 'name' || expr.k === 'attr') return dottedName(expr) || undefined;
  if (expr.k === 'call' && spec.append.includes(expr.name)) return receiverPath(expr.receiver, spec);
  return undefined;
}

const isContainer = (v: Value): boolean => v.items !== undefined || v.keys !== undefined;

/** The container with every element's taint folded into `rest`: positions no longer known. */
function collapse(v: Value): Value {
  return { type: v.type, rest: taintOf(v) };
}

function indexOfValue(items: Value[], wanted: Value): number {
  const key = keyOf(wanted);
  return key === undefined ? -1 : items.findIndex((item) => keyOf(item) === key);
}

/**
 * A call of a container or builder method on its receiver, element by element where positions
 * are constants: the new receiver is written back and the call's result returned. A removal at a
 * position the analysis cannot decide collapses the container (every element may now be at any
 * position): later reads are tainted if any element was, so nothing is missed, at some precision.
 */
export function containerCall(
  spec: ContainerSpec,
  env: Env,
  call: Extract<Expr, { k: 'call' }>,
  receiver: Value,
  args: Value[],
): Value | undefined {
  const name = call.name;
  const path = receiverPath(call.receiver, spec);
  const store = (v: Value): Value => {
    if (path) env.set(path, v);
    return v;
  };
  const [a0, a1] = args;
  const items = receiver.items;

  if (spec.append.includes(name) && args.length === 1 && a0) {
    if (items) return store({ ...receiver, items: [...items, a0] });
    if (receiver.keys) return store({ ...receiver, rest: join(receiver.rest, taintOf(a0)) });
    return store({ ...receiver, taint: join(receiver.taint, taintOf(a0)) });
  }
  if ((spec.insert.includes(name) || spec.append.includes(name)) && args.length === 2 && a0 && a1) {
    const at = keyOf(a0);
    const i = at === undefined ? Number.NaN : Number(at);
    if (items && Number.isInteger(i) && i >= 0 && i <= items.length)
      store({ ...receiver, items: [...items.slice(0, i), a1, ...items.slice(i)] });
    else if (items || receiver.keys)
      store({ ...collapse(receiver), rest: join(receiver.rest, anyTaint([receiver, a1])) });
    else store({ ...receiver, taint: join(receiver.taint, taintOf(a1)) });
    return UNKNOWN;
  }
  if (spec.put.includes(name) && a0 && a1) {
    const key = keyOf(a0);
    const previous = key === undefined ? undefined : receiver.keys?.get(key);
    if (key !== undefined) store({ ...receiver, keys: new Map(receiver.keys ?? []).set(key, a1) });
    else store({ ...receiver, rest: join(receiver.rest, taintOf(a1)) });
    return previous ?? UNKNOWN;
  }
  if (spec.get.includes(name) && a0 && (isContainer(receiver) || receiver.taint || receiver.rest)) {
    const found = readElement(receiver, a0);
    if (!a1) return found;
    const key = keyOf(a0);
    const present = key !== undefined && (receiver.keys?.has(key) || (items && Number(key) < items.length));
    return present ? found : { ...found, taint: join(found.taint, taintOf(a1)) };
  }
  const removeAt = (i: number): Value => {
    if (!items || i < 0 || i >= items.length) return removeUnknown();
    store({ ...receiver, items: [...items.slice(0, i), ...items.slice(i + 1)] });
    return items[i] ?? UNKNOWN;
  };
  const removeUnknown = (): Value => {
    const taint = taintOf(receiver);
    store(collapse(receiver));
    return taint ? { taint } : UNKNOWN;
  };
  if (isContainer(receiver) && spec.removeFirst.includes(name) && args.length === 0) return removeAt(0);
  if (isContainer(receiver) && spec.removeLast.includes(name) && args.length === 0)
    return removeAt((items?.length ?? 0) - 1);
  if (isContainer(receiver) && (spec.remove.includes(name) || spec.removeValue.includes(name)) && a0) {
    if (receiver.keys) {
      const key = keyOf(a0);
      if (key === undefined) return removeUnknown();
      const keys = new Map(receiver.keys);
      keys.delete(key);
      store({ ...receiver, keys });
      return receiver.keys.get(key) ?? UNKNOWN;
    }
    const byIndex = !spec.removeValue.includes(name) && typeof a0.constant === 'number' && a0.known;
    if (byIndex) return removeAt(a0.constant as number);
    const at = items ? indexOfValue(items, a0) : -1;
    if (at < 0) return removeUnknown();
    removeAt(at);
    return constant(true);
  }
  if (spec.extend.includes(name) && a0) {
    if (items && a0.items) return store({ ...receiver, items: [...items, ...a0.items] });
    if (receiver.keys && a0.keys) return store({ ...receiver, keys: new Map([...receiver.keys, ...a0.keys]) });
    return store({ ...receiver, rest: join(receiver.rest, taintOf(a0)) });
  }
  if (spec.clear.includes(name) && args.length === 0 && isContainer(receiver))
    return store({ type: receiver.type, items: items ? [] : undefined, keys: receiver.keys ? new Map() : undefined });
  return undefined;
}

/**
 * `config.set(section, option, value)` / `config.get(section, option)` on a sectioned map: the
 * pair of constants is the key. Undefined when the call is neither.
 */
export function sectionMapCall(
  spec: NonNullable<FlowSpec['sectionMaps']>,
  env: Env,
  call: Extract<Expr, { k: 'call' }>,
  receiver: Value,
  args: Value[],
  containers: ContainerSpec,
): Value | undefined {
  if (!receiver.type || !spec.types.includes(receiver.type)) return undefined;
  const [section, option, value] = args;
  const a = section ? keyOf(section) : undefined;
  const b = option ? keyOf(option) : undefined;
  const key = a !== undefined && b !== undefined ? `${a}\0${b}` : undefined;
  if (spec.put.includes(call.name) && value) {
    const path = receiverPath(call.receiver, containers);
    const next: Value =
      key !== undefined
        ? { ...receiver, keys: new Map(receiver.keys ?? []).set(key, value) }
        : { ...receiver, rest: receiver.rest ?? taintOf(value) };
    if (path) env.set(path, next);
    return UNKNOWN;
  }
  if (spec.get.includes(call.name) && option)
    return readElement(receiver, key === undefined ? undefined : constant(key));
  return undefined;
}

/** A new container from a constructor or factory, or undefined when the call makes none. */
export function newContainer(
  spec: ContainerSpec,
  args: Value[],
  match: (patterns: string[]) => boolean,
): Value | undefined {
  if (match(spec.listOf)) {
    const only = args.length === 1 ? args[0] : undefined;
    return { items: only?.items ? [...only.items] : args, rest: only?.items ? only.rest : undefined };
  }
  if (match(spec.mapOf)) {
    const keys = new Map<string, Value>();
    let rest: Value['rest'];
    for (let i = 0; i + 1 < args.length; i += 2) {
      const key = keyOf(args[i] ?? UNKNOWN);
      if (key !== undefined) keys.set(key, args[i + 1] ?? UNKNOWN);
      else rest = join(rest, taintOf(args[i + 1]));
    }
    return { keys, rest };
  }
  const copyOf = args[0];
  if (match(spec.lists))
    return copyOf?.items ? { items: [...copyOf.items], rest: copyOf.rest } : { items: [], rest: taintOf(copyOf) };
  if (match(spec.maps))
    return copyOf?.keys
      ? { keys: new Map(copyOf.keys), rest: copyOf.rest }
      : { keys: new Map(), rest: taintOf(copyOf) };
  return undefined;
}
